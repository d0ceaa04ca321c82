/**
 * The published file format: where each response lives and the JSON shapes in it.
 * Renderers write this format and the edge handler reads it; neither depends on the other.
 */

export const API_MAJOR = 1;
/** Bumped whenever a published shape changes in a backward-compatible way. */
export const API_REVISION = 1;

/** Paths relative to the published folder. */
export const paths = {
  card: (ordinal: number) => `api/v1/card/${ordinal}.json`,
  cardList: () => 'api/v1/card_list.json',
  info: () => 'api/v1/info.json',
  setList: () => 'api/v1/card/set_list.json',
  set: (id: string) => `api/v1/set/${id}.json`,
  pair: (pair: number) => `api/v1/pair/${pair}.json`,
  pairList: () => 'api/v1/pair_list.json',
  accessory: (id: number) => `api/v1/accessory/${id}.json`,
  accessoryList: () => 'api/v1/accessory_list.json',
  object: (type: ObjectType, id: number) => `api/v1/${type}/${id}.json`,
  objectList: (type: ObjectType) => `api/v1/list/${type}.json`,
  /** Every event and gacha; the edge handler filters it for /api/v1/happening/<time>. */
  happening: () => 'api/v1/happening.json',
  translationIndex: () => 'api/v1/tl/index.json',
  translationShard: (shard: number) => `api/v1/tl/${shard}.json`,
  /** The body of a JSON 404, served for unknown /api/ paths by the host's catch-all rule. */
  notFound: () => 'api/404.json',
};

/** Published pictures (SPEC section 5): every picture exists as .png and as .webp. */
export type ImageFormat = 'png' | 'webp';
export const IMAGE_FORMATS: readonly ImageFormat[] = ['png', 'webp'];
export const imagePaths = {
  /** `<id>` not idolized, `<id>t` idolized: the names set-list previews use. */
  cardIconName: (id: number, idolized: boolean) => `${id}${idolized ? 't' : ''}`,
  cardIcon: (name: string, format: ImageFormat = 'png') => `images/card/icon/${name}.${format}`,
  /** `<id>`, the name accessory lists use. */
  accessoryIconName: (id: number) => `${id}`,
  accessoryIcon: (name: string, format: ImageFormat = 'png') => `images/accessory/icon/${name}.${format}`,
};

/**
 * Card and accessory objects appear only in responses at api/v1/<type>/<file> (single
 * files, sets, pairs, generic objects and comma lists alike), so this one prefix leads
 * from any of them to the site root.
 */
export const OBJECT_TO_ROOT = '../../../';

/** Image URLs of a card, relative to the response carrying it; null where no picture is published. */
export interface CardImagesJson {
  icon: string | null;
  icon_idolized: string | null;
}

export interface SkillJson {
  id: number;
  name: string;
  name_en: string | null;
  trigger_type: number;
  effect_type: number;
  level_max: number;
  probability: number[];
  effect_val: number[];
  effect_dur: number[];
  trigger_val: number[];
  translated_target: string | null;
  translated_trigger_target: string | null;
}

export interface CenterSkillJson {
  id: number;
  name: string | null;
  name_en: string | null;
  effect_type: number;
  percent: number;
  extra_apply_type_name: string;
  extra_apply_type_name_en: string;
  extra_apply_type: number;
  extra_effect: number;
  extra_percent: number;
}

export type Flag = 0 | 1;

export interface CardJson {
  id: number;
  ordinal: number;
  title: string;
  title_en: string | null;
  char_name: string;
  original_char_name: string;
  type_id: number;
  illustrator: null;
  is_transform_disabled: Flag;
  is_support_card: Flag;
  is_costume_card: Flag;
  is_pre_transformed: Flag;
  rarity: number;
  attribute: number;
  skill: SkillJson | null;
  center_skill: CenterSkillJson | null;
  hp_base: number;
  normal_max_kizuna: number;
  transformed_max_kizuna: number;
  normal_max_level: number;
  transformed_max_level: number;
  normal_max_level_exp: number | null;
  transformed_max_level_exp: number | null;
  affiliation: number;
  year: number;
  sub_affiliation: number;
  album_page_id: number;
  extra_data: { release_date: number | null; release_date_is_dirty: Flag };
  sets: string[];
  images: CardImagesJson;
  smile: number[];
  pure: number[];
  cool: number[];
  stamina: number[];
  sell_price: number[];
  exp_given: number[];
}

/** A card in lists: enough to show and filter it, with its file at card/<ordinal>.json. */
export interface CardStubJson {
  id: number;
  ordinal: number;
  title: string;
  title_en: string | null;
  char_name: string;
  type_id: number;
  rarity: number;
  attribute: number;
  is_transform_disabled: Flag;
  is_support_card: Flag;
  is_costume_card: Flag;
  is_pre_transformed: Flag;
  release_date: number | null;
  /** Name of the card's icon under images/card/icon/ (as in set previews), null when none is published. */
  icon: string | null;
}

export interface CardListJson {
  n_count: number;
  t_count: number;
  lm_count: number;
  km_count: number;
  cards: CardStubJson[];
}

export interface InfoJson {
  api_major: number;
  api_revision: number;
  truth_version: string;
}

export interface SetListJson {
  sets: { id: string; display_name: string; preview: string[] }[];
}

/** set/<id>.json: full card objects in ordinal order. */
export interface SetJson {
  cards: CardJson[];
}

/** One unit_pair_m row with its card; `card` is null when that card row is unreadable or missing. */
export interface PairCardJson {
  unit_pair_id: number;
  unit_id: number;
  position: number;
  rank: number;
  card: CardJson | null;
}

export interface PairJson {
  pair: number;
  /** In position order. */
  cards: PairCardJson[];
}

export interface PairListJson {
  /** unit_ids and ordinals in position order; an ordinal is null when the card is unreadable. */
  pairs: { pair: number; unit_ids: number[]; ordinals: (number | null)[] }[];
}

export interface AccessoryJson {
  id: number;
  name: string;
  name_en: string | null;
  rarity: number;
  smile_max: number;
  pure_max: number;
  cool_max: number;
  is_material: boolean;
  effect_type: number;
  trigger_type: number;
  trigger_fixed_param: number;
  default_level_max: number;
  level_max: number;
  icon_name: string | null;
  /** URL of the published icon relative to the response, null when none is published. */
  icon_image: string | null;
  effect_targets: string[];
  effect_target_name: string | null;
  is_limited: boolean;
  unit_ordinal: number | null;
  unit_type_id: number | null;
  unit_stub: CardStubJson | null;
  /** Per level, one entry per accessory_level_m row (they run past level_max). */
  smile: number[];
  pure: number[];
  cool: number[];
  effect_val: number[];
  effect_dur: number[];
  trigger_val: number[];
  probability: number[];
  next_exp: number[];
  grant_exp: number[];
  merge_cost: number[];
  sale_price: number[];
}

/** An accessory in accessory_list.json; its file is accessory/<id>.json. */
export interface AccessoryBriefJson {
  id: number;
  name: string;
  name_en: string | null;
  rarity: number;
  is_valid: boolean;
  is_material: boolean;
  is_limited: boolean;
  effect_type: number;
  trigger_type: number;
  unit_ordinal: number | null;
  /** Name of the icon under images/accessory/icon/, null when none is published. */
  icon: string | null;
}

export interface AccessoryListJson {
  accessories: AccessoryBriefJson[];
}

/** Generic objects (SPEC 4): api/v1/<type>/<id>.json holds `{"result": [object]}`. */
export const OBJECT_TYPES = ['card_t', 'char_t', 'skill_t', 'leader_skill_t', 'accessory_t'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];
export const isObjectType = (name: string): name is ObjectType => (OBJECT_TYPES as readonly string[]).includes(name);

/** An object's extensionless URL as a root-relative path: it resolves the same from every response. */
export const objectRef = (type: ObjectType, id: number) => `/api/v1/${type}/${id}`;

export interface RefJson {
  ref: string;
}

/** Keys whose value embeds a linked object (with its `id`), and the type `?stubs=yes` refers to instead. */
export const LINKED_OBJECTS: Readonly<Record<string, ObjectType>> = {
  skill: 'skill_t',
  center_skill: 'leader_skill_t',
  unit_stub: 'card_t',
  card: 'card_t',
};

/** Keys holding unix seconds, which `?datetime=iso8601` rewrites. */
export const TIMESTAMP_KEYS: ReadonlySet<string> = new Set(['release_date', 'start', 'end', 'close']);

/** One entry per requested id, in request order; null for a missing id. */
export interface ObjectResultJson<T = unknown> {
  result: (T | null)[];
}

export interface CharacterTagJson {
  id: number;
  name: string;
  name_en: string | null;
  /** Shown in the game's UI (school years, groups, sub-units). */
  display: boolean;
}

/** char_t: a character (unit_type_m) with its member tags and cards. */
export interface CharacterJson {
  id: number;
  name: string;
  name_en: string | null;
  member_category: number;
  year: number;
  sub_affiliation: number;
  tags: CharacterTagJson[];
  /** Internal ids (card_t) of its readable cards, in ordinal order. */
  card_ids: number[];
}

/** An entry of list/<type>.json; `ref` leads to the whole object. */
export interface ObjectBriefJson {
  id: number;
  name: string | null;
  name_en: string | null;
  ref: string;
}

export interface CardBriefJson extends ObjectBriefJson {
  ordinal: number;
  char_name: string;
  rarity: number;
  attribute: number;
}

export interface ObjectListJson {
  result: ObjectBriefJson[];
}

/** An event_m row; times in unix seconds. */
export interface EventJson {
  id: number;
  name: string;
  name_en: string | null;
  start: number;
  end: number;
  /** When the event's results close; null when the export does not say. */
  close: number | null;
}

export interface GachaJson {
  id: string;
  name: string;
  name_en: string | null;
  start: number;
  end: number;
  ordinals: number[];
}

/** happening.json holds everything; /api/v1/happening/<time> what is active then (start <= time < end). */
export interface HappeningJson {
  events: EventJson[];
  gachas: GachaJson[];
}

/** tl/index.json: how many shard files tl/<n>.json hold the crowd translations. */
export interface TranslationIndexJson {
  shards: number;
}

/** tl/<n>.json: `{original: translation}`, only translations that differ from their original. */
export type TranslationShardJson = Record<string, string>;

/** The shard holding `original`: FNV-1a (32 bit) of its UTF-8 bytes, modulo the shard count. */
export function translationShard(original: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(original)) hash = Math.imul(hash ^ byte, 0x01000193);
  return (hash >>> 0) % shards;
}

export interface ErrorJson {
  error: string;
}
