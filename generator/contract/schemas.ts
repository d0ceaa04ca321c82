/**
 * The JSON shapes of every published response, as TypeBox schemas: each is a JSON Schema
 * at run time (published in openapi.json) and a TypeScript type at compile time (renderers
 * are typed by it). Field names and types are the original services';
 * fields beyond them are marked "(extra)". Objects are closed (no other keys), so a
 * test validating every published file catches any drift between code and contract.
 */
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { MAX_READ_TL_STRINGS } from './limits.ts';
import { CHANGE_TYPES, type ChangeType } from './kinds.ts';
import { ATTRIBUTE_NAMES, DIFFICULTIES } from '../web/search/words.js';
import { BLOCK_SIZE, BLOCK_SUMS_MIN_BYTES, LANES, MANIFEST_BLOCK_SIZE, NOTE_EFFECTS } from './format.ts';

/** Named schemas, published as openapi.json components and referenced by `$ref`. */
export const components: Record<string, TSchema> = {};

/** Registers `schema` under `name`; the result is a `$ref` to it, typed as the schema itself. */
function named<S extends TSchema>(name: string, schema: S) {
  components[name] = schema;
  return Type.Unsafe<Static<S>>({ $ref: `#/components/schemas/${name}` });
}

const obj = <P extends TProperties>(properties: P, description?: string): TObject<P> =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
const nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);
const Int = Type.Integer();
const Num = Type.Number();
const Str = Type.String();
const Bool = Type.Boolean();
/** A field the original services did not have. */
const extra = <S extends TSchema>(schema: S, description: string): S => ({ ...schema, description: `(extra) ${description}` });
/** 0 or 1, as the original services' "integer 0/1" fields. */
const Flag = Type.Union([Type.Literal(0), Type.Literal(1)]);
const ints = Type.Array(Int);
const nums = Type.Array(Num);

export const Skill = named('Skill', obj({
  id: Int,
  name: Str,
  name_en: Str,
  trigger_type: Int,
  effect_type: Int,
  level_max: Int,
  probability: nums,
  effect_val: nums,
  effect_dur: nums,
  trigger_val: nums,
  translated_target: nullable(Str),
  translated_trigger_target: nullable(Str),
}, 'A card skill; the arrays hold one entry per skill level, in level order.'));

export const CenterSkill = named('CenterSkill', obj({
  id: Int,
  name: Str,
  name_en: Str,
  effect_type: Int,
  percent: Int,
  extra_apply_type_name: Str,
  extra_apply_type_name_en: Str,
  extra_apply_type: Int,
  extra_effect: Int,
  extra_percent: Int,
}, 'A card center skill; the extra_* fields are 0 / "" when it has no extra effect.'));

const CardEvent = obj({
  id: Int,
  name: Str,
  name_en: nullable(Str),
  start_date: Int,
}, '(extra) An event that rewards the card (event_t has the rest).');

const CardImages = obj({
  icon: nullable(Str),
  icon_idolized: nullable(Str),
  art: nullable(Str),
  art_idolized: nullable(Str),
}, '(extra) Picture URLs: icons of this site relative to the response (PNG; a WebP lies beside each), else absolute URLs on the image host the build names (docs/page.md), as is the card\'s art; null where there is none.');

/** One region's availability of an object in an archive build (docs/archive.md). */
const RegionEntry = obj({
  present: { ...Bool, description: 'the region\'s newest export (of those the version knew) holds the object, by the same id' },
  first_seen: { ...nullable(Str), description: 'the day (YYYY-MM-DD, the region\'s time) of the region\'s earliest export holding it: an upper bound of its arrival, never a release date; null when none held it' },
  first_seen_version: { ...nullable(Str), description: 'that export\'s name (<region>-<day>), null when none held it' },
  released: { ...nullable(Int), description: 'the region\'s own release date (unix seconds) when its own event data dates it, else null' },
}, 'Availability of an object in one region.');

/** Availability per region, on objects of an archive build only (absent from a one-export build). */
const RegionMap = extra(Type.Record(Type.String({ pattern: '^[a-z]{2}$' }), RegionEntry), 'availability in each region the archive has exports of ({"jp": {...}, "ww": {...}, "cn": {...}}): built with --archive only (docs/archive.md)');
const Regions = Type.Optional(RegionMap);

export const Card = named('Card', obj({
  id: Int,
  ordinal: Int,
  title: Str,
  title_en: Str,
  char_name: Str,
  original_char_name: Str,
  type_id: Int,
  illustrator: nullable(Str),
  is_transform_disabled: Flag,
  is_support_card: Flag,
  is_costume_card: Flag,
  is_pre_transformed: Flag,
  rarity: Int,
  attribute: Int,
  skill: nullable(Skill),
  center_skill: nullable(CenterSkill),
  hp_base: Int,
  normal_max_kizuna: Int,
  transformed_max_kizuna: Int,
  normal_max_level: Int,
  transformed_max_level: Int,
  normal_max_level_exp: nullable(Int),
  transformed_max_level_exp: nullable(Int),
  affiliation: Int,
  year: Int,
  sub_affiliation: Int,
  album_page_id: Int,
  extra_data: obj({
    release_date: nullable(Int),
    release_date_is_dirty: Flag,
  }, 'release_date in unix seconds; release_date_is_dirty 1 when it is estimated, or null when nothing in the data bounds it.'),
  sets: Type.Array(Str),
  images: CardImages,
  events: extra(Type.Array(CardEvent), 'the events that reward the card, in start order'),
  smile: ints,
  pure: ints,
  cool: ints,
  stamina: ints,
  sell_price: ints,
  exp_given: ints,
  regions: Regions,
}, 'A card. Per-level arrays run from level 1 to the highest level cap; the last entry is the idolized max-level value.'));

export const CardStub = named('CardStub', obj({
  id: Int,
  ordinal: Int,
  char_name: Str,
  is_transform_disabled: Flag,
  is_pre_transformed: Flag,
  rarity: Int,
  title: extra(Str, 'the card title'),
  title_en: extra(Str, 'the English card title, "" when unknown'),
  type_id: extra(Int, 'character id'),
  attribute: extra(Int, 'attribute'),
  is_support_card: extra(Flag, 'support card flag'),
  is_costume_card: extra(Flag, 'costume card flag'),
  release_date: extra(nullable(Int), 'release date in unix seconds'),
  icon: extra(nullable(Str), 'icon name under images/card/icon/ (as in set previews), null when none is published'),
}, 'A card stub: a short description of a card.'));

export const CardsResponse = named('CardsResponse', obj({ cards: Type.Array(Card) }));

export const CardList = named('CardList', obj({
  counts: obj({ n_count: Int, t_count: Int, lm_count: Int, km_count: Int }, 'Card list counts.'),
  stubs: Type.Array(CardStub),
}));

export const SetList = named('SetList', obj({
  sets: Type.Array(obj({
    id: Str,
    preview: Type.Array(Str),
    display_name: Str,
  }, 'A set; preview entries are "<card id>" or "<card id>t" (idolized icon).')),
}));

export const PairList = named('PairList', obj({
  pairs: Type.Array(obj({
    pair: Int,
    unit_ids: ints,
    ordinals: ints,
    members: Type.Array(obj({ unit_pair_id: Int, unit_id: Int, ordinal: Int, position: Int, rank: Int })),
  })),
}, '(extra) The valid pair ids, each with its unit_pair_m rows in position order.'));

export const Accessory = named('Accessory', obj({
  id: Int,
  rarity: Int,
  name: Str,
  name_en: Str,
  level_max: Int,
  icon_name: nullable(Str),
  trigger_type: nullable(Int),
  trigger_fixed_param: nullable(Int),
  effect_type: Int,
  effect_targets: nullable(Type.Array(Str)),
  effect_target_name: nullable(Str),
  is_limited: Bool,
  unit_ordinal: nullable(Int),
  unit_type_id: nullable(Int),
  unit_stub: nullable(CardStub),
  smile: Type.Array(nullable(Int)),
  pure: Type.Array(nullable(Int)),
  cool: Type.Array(nullable(Int)),
  probability: Type.Array(nullable(Int)),
  effect_val: Type.Array(nullable(Num)),
  effect_dur: Type.Array(nullable(Num)),
  trigger_val: Type.Array(nullable(Num)),
  smile_max: extra(Int, 'smile at the highest level'),
  pure_max: extra(Int, 'pure at the highest level'),
  cool_max: extra(Int, 'cool at the highest level'),
  is_material: extra(Bool, 'a material, not usable in lives'),
  default_level_max: extra(Int, 'level cap before skill amplification'),
  icon_image: extra(nullable(Str), 'icon URL relative to the response, null when none is published'),
  next_exp: extra(Type.Array(nullable(Int)), 'per level'),
  grant_exp: extra(Type.Array(nullable(Int)), 'per level'),
  merge_cost: extra(Type.Array(nullable(Int)), 'per level'),
  sale_price: extra(Type.Array(nullable(Int)), 'per level'),
  regions: Regions,
}, 'An accessory; per-level arrays have one entry per level row (more than level_max), null for a NULL cell.'));

export const AccessoriesResponse = named('AccessoriesResponse', obj({ accessories: Type.Array(Accessory) }));

export const AccessoryList = named('AccessoryList', obj({
  accessories: Type.Array(obj({
    id: Int,
    is_valid: Bool,
    name: extra(Str, 'name'),
    name_en: extra(Str, 'English name, "" when unknown'),
    rarity: extra(Int, 'rarity'),
    is_material: extra(Bool, 'a material'),
    is_limited: extra(Bool, 'belongs to a card'),
    effect_type: extra(Int, 'effect type'),
    trigger_type: extra(nullable(Int), 'trigger type'),
    unit_ordinal: extra(nullable(Int), 'ordinal of the card it belongs to'),
    icon: extra(nullable(Str), 'icon name under images/accessory/icon/, null when none is published'),
  }, 'An accessory list element.')),
}));

export const Info = named('Info', obj({
  api_major: Int,
  api_revision: Int,
  truth_version: Str,
  timezone: extra(Type.String({ pattern: '^[+-]\\d{2}:\\d{2}$' }), 'the offset from UTC of the game\'s clock in the export\'s region, e.g. "+09:00" (JP, WW, KR) or "+08:00" (CN, TW): meta.json\'s timezone, else its region\'s (docs/input.md); the calendar the game showed its dates in, which the browse page shows them in'),
}, 'Instance information.'));

export const Character = named('Character', obj({
  id: Int,
  name: Str,
  name_en: nullable(Str),
  member_category: Int,
  year: Int,
  sub_affiliation: Int,
  tags: Type.Array(obj({ id: Int, name: Str, name_en: nullable(Str), display: Bool })),
  card_ids: ints,
}, 'A character (unit_type_m) with its member tags and the ids of its readable cards in ordinal order.'));

/** An event_m row as starlight's happening reports it. */
const eventFields = {
  id: Int,
  name: Str,
  name_en: nullable(Str),
  type: nullable(Int),
  start_date: Int,
  end_date: Int,
  result_end_date: nullable(Int),
};

export const HappeningEvent = named('HappeningEvent', obj(eventFields, 'An event (event_m); dates in unix seconds.'));

export const HappeningGacha = named('HappeningGacha', obj({
  id: Str,
  name: Str,
  name_en: nullable(Str),
  type: nullable(Int),
  subtype: nullable(Int),
  rates: nullable(Type.Record(Str, Num)),
  start_date: Int,
  end_date: Int,
  ordinals: extra(ints, 'ordinals of the featured cards'),
}, 'A gacha (curated); dates in unix seconds; unknown values null.'));

export const Happening = named('Happening', obj({
  events: Type.Array(HappeningEvent),
  gachas: Type.Array(HappeningGacha),
}, 'Events and gachas, newest first.'));

export const GameEvent = named('Event', obj({
  ...eventFields,
  reward_ordinals: ints,
}, 'An event (event_t): dates in unix seconds; reward_ordinals are the readable cards it rewards, in ordinal order.'));

export const RemovableSkill = named('RemovableSkill', Type.Object({
  id: Int,
  name: Str,
  name_en: nullable(Str),
  description: nullable(Str),
  description_en: nullable(Str),
}, {
  additionalProperties: Type.Union([Str, Num, Type.Null()]),
  description: 'A School Idol Skill (unit_removable_skill_m): the fields above, then every other column of the table as stored.',
}));

/** "1 Easy, 2 Normal, ...": the words of the game's codes, for the documentation. */
const codeWords = (words: [code: number | string, word: string][]) => words.map(([code, word]) => `${code} ${word}`).join(', ');

/** The game's code of a live database column, null when the export lacks the column (docs/api.md gives the words). */
const Code = (column: string) => ({ ...nullable(Int), description: `the game's ${column}; null when the export lacks it` });
const rankThresholds = (what: 'score' | 'combo') => Object.fromEntries(['c', 'b', 'a', 's'].map((rank) =>
  [`${rank}_rank_${what}`, { ...nullable(Int), description: `${what} for rank ${rank.toUpperCase()} (live_setting_m ${rank}_rank_${what})` }])) as Record<`${'c' | 'b' | 'a' | 's'}_rank_${typeof what}`, ReturnType<typeof nullable<typeof Int>>>;

const songNames = {
  name: { ...Str, description: 'the song\'s name (live_track_m name)' },
  name_en: { ...nullable(Str), description: 'its English name: the English client\'s live_track_m, else the name_en column when it holds English (no Chinese, Japanese or Korean script), else a crowd translation; null when unknown' },
  name_localized: extra(nullable(Str), 'its name in its client\'s own language where the export\'s name_en column holds that instead of English (a CN client\'s Chinese name); null otherwise'),
};

export const Song = named('Song', obj({
  id: { ...Int, description: 'live_track_id' },
  ...songNames,
  name_kana: nullable(Str),
  member_category: Code('member_category (its group: 0 none, 1 μ\'s, 2 Aqours, 3 and up later groups; group_name names it)'),
  group_name: { ...nullable(Str), description: 'the group\'s name: the group tag of the characters of its member_category; null when none' },
  group_name_en: { ...nullable(Str), description: 'its English name, null when unknown' },
  unit_type_id: { ...nullable(Int), description: 'the character of a solo song (char_t), else null' },
  length: { ...nullable(Num), description: 'length in seconds (live_time_m); null when the export has none' },
  live_ids: { ...ints, description: 'its charts (live_t), by difficulty then id' },
  regions: Regions,
}, '(extra) A song (song_t, live_track_m of the live database) and the ids of its charts.'));

export const ChartPlay = named('ChartPlay', obj({
  live_difficulty_id: Int,
  kind: Type.Union([Type.Literal('normal'), Type.Literal('special'), Type.Literal('free')], { description: 'the table: normal_live_m, special_live_m or free_live_m' }),
  capital_type: Code('capital_type (what a play costs: 1 LP; any other code as the game stores it)'),
  capital_value: { ...nullable(Int), description: 'how much of it a play costs' },
  rotation_group_ids: { ...ints, description: 'the special_live_rotation_m groups that schedule it' },
}, '(extra) One way a chart is played, with its cost.'));

export const Live = named('Live', obj({
  id: { ...Int, description: 'live_setting_id' },
  song_id: { ...Int, description: 'live_track_id: its song (song_t)' },
  ...songNames,
  difficulty: Code(`difficulty (${codeWords(DIFFICULTIES.map((d) => [d.code, d.about]))})`),
  stars: Code('stage_level: the stars'),
  attribute: Code(`attribute_icon_id (${codeWords(Object.entries(ATTRIBUTE_NAMES))})`),
  ...rankThresholds('score'),
  ...rankThresholds('combo'),
  swing_flag: Code('swing_flag (1: swing notes)'),
  ac_flag: Code('ac_flag (1: an arcade chart)'),
  lane_count: Code('lane_count'),
  plays: Type.Array(ChartPlay, { description: 'the ways it is played, in live_difficulty_id order' }),
  notes_url: extra(nullable(Str), 'its notes (api/v1/notes/<live_setting_id>.json) relative to this response: "../notes/<id>.json"; null when the export has no readable note file for it (docs/songs.md#notes). The statistics below are null then too'),
  note_count: extra(nullable(Int), 'how many notes its note file holds (the game\'s s_rank_combo, in real exports)'),
  star_notes: extra(nullable(Int), 'notes of effect 4 (star)'),
  hold_notes: extra(nullable(Int), 'notes of effect 3 or 13 (hold, swing hold)'),
  swing_notes: extra(nullable(Int), 'notes of effect 11, 12 or 13 (swing, swing event, swing hold)'),
  duration_sec: extra(nullable(Num), 'when its last note ends, in seconds: the highest timing_sec, plus effect_value for a hold, rounded to the millisecond'),
  lane_counts: extra(nullable(Type.Array(Int, { minItems: LANES, maxItems: LANES })), `its notes per lane (position), lane 1 first: ${LANES} numbers`),
  nps: extra(nullable(Num), 'notes per second: note_count / duration_sec, rounded to two decimals; null when duration_sec is 0'),
  regions: Regions,
}, '(extra) A chart (live_t, live_setting_m of the live database): its song, difficulty, stars, attribute, rank thresholds, flags, plays, and the statistics of its notes.'));

const effectCodes = Object.keys(NOTE_EFFECTS).map(Number);

export const Note = named('Note', obj({
  timing_sec: { ...Type.Number({ minimum: 0 }), description: 'when it is to be hit, in seconds from the start' },
  notes_attribute: { ...Type.Integer({ minimum: 0 }), description: 'the attribute code the file gives it (1 Smile, 2 Pure, 3 Cool in real files)' },
  notes_level: { ...Type.Integer({ minimum: 0 }), description: 'notes_level as the file gives it: 1 for most notes, a swing note\'s chain number' },
  effect: Type.Union(effectCodes.map((code) => Type.Literal(code)), { description: `what it is: ${codeWords(Object.entries(NOTE_EFFECTS))}` }),
  effect_value: { ...Type.Number({ minimum: 0 }), description: 'a hold\'s length in seconds (effect 3 and 13); other notes carry a value as the file has it' },
  position: { ...Type.Integer({ minimum: 1, maximum: LANES }), description: `its lane, 1 to ${LANES} as the game numbers them` },
}, '(extra) One note of a chart, as the game\'s note file gives it (members in this order).'));

export const Notes = named('Notes', obj({
  live_setting_id: { ...Int, description: 'the chart (live_t)' },
  notes: Type.Array(Note, { minItems: 1, description: 'every note of its note file, in the file\'s order' }),
}, '(extra) A chart\'s notes (its beatmap), from the note file its live_setting_m row names (notes_setting_asset).'));

export const SongBrief = named('SongBrief', obj({
  id: Int,
  name: nullable(Str),
  name_en: nullable(Str),
  ref: Str,
  member_category: nullable(Int),
  group_name: nullable(Str),
  group_name_en: nullable(Str),
  length: nullable(Num),
}, 'A song in list/song_t.'));

export const LiveBrief = named('LiveBrief', obj({
  id: Int,
  name: nullable(Str),
  name_en: nullable(Str),
  ref: Str,
  song_id: Int,
  difficulty: nullable(Int),
  stars: nullable(Int),
  attribute: nullable(Int),
}, 'A chart in list/live_t: name is its song\'s.'));

const Id = Type.String({ pattern: '^[0-9]+$' });

/** A pack file: the objects of one block of ids keyed by id, and where each one's JSON text lies in the file (format.ts PACK_SIZE). */
export const Pack = <S extends TSchema>(schema: S) => obj({
  objects: Type.Record(Id, schema),
  offsets: Type.Record(Id, Type.Array(Int, { minItems: 3, maxItems: 3 }), { description: '[start, end, sum] of each object\'s JSON: where it lies, in bytes of the UTF-8 file, and its check sum (contract/packSum.ts)' }),
}, '(extra) The objects of one block of ids (the data behind comma lists).');
export type PackOf<S extends TSchema> = ReturnType<typeof Pack<S>>;

/** card_t's packs: its objects are the cards', published once (endpoints.ts HISTORY_ALIASES). */
const CardIdPack = obj({
  ordinals: Type.Record(Id, Int, { description: 'the ordinal of each card (by unit id) of the block: its object is in pack/card/<floor(ordinal / 128)>.json' }),
}, '(extra) The ordinals of the cards of one block of unit ids: card_t\'s objects are the cards\'.');

/** A page of search results (search/<kind>). */
const SearchPage = <S extends TSchema>(name: string, schema: S) => named(name, obj({
  result: Type.Array(schema),
  total: extra(Int, 'how many objects the query matches'),
  page: extra(Int, 'this page\'s number, from 1'),
  page_size: extra(Int, 'results per page'),
  next: extra(nullable(Str), 'the next page\'s URL relative to this one, null on the last page'),
  suggestion: extra(nullable(Str), 'when the query finds nothing, a query near it that finds something (null when none is found, and whenever the query finds something)'),
}, '(extra) A page of search results, in the asked order.'));

export const CardSearch = SearchPage('CardSearch', Card);
export const AccessorySearch = SearchPage('AccessorySearch', Accessory);
export const EventSearch = SearchPage('EventSearch', GameEvent);
/** Song search answers charts (live_t): a row per chart, with its song's name. */
export const SongSearch = SearchPage('SongSearch', Live);

export const SearchIndex = named('SearchIndex', obj({
  kind: Str,
  count: Int,
  offset: Type.Optional({ ...Int, description: 'minutes east of UTC of the site\'s calendar (info.json\'s timezone), in which a date term names its days; absent: UTC' }),
  columns: Type.Record(Str, Type.Array(Type.Unknown()), { description: 'one array per column, an entry per object (the search language names them per kind); a column with a dictionary holds positions in it' }),
  dictionaries: Type.Record(Str, Type.Array(Type.Unknown()), { description: 'the distinct values of the list columns (names, titles, sets)' }),
}, '(extra) The search index of one kind.'));

/** A version of the game data: its truth version and when it came out (unix seconds, null when unknown). */
const DataVersion = obj({ truth_version: Str, date: nullable(Int) });

const FieldChange = obj({
  field: Str,
  from: Type.Unknown(),
  to: Type.Unknown(),
}, 'A changed field: its dot-separated path in the published object, its old and new value (arrays whole; null where absent).');

/** What an update did to the objects of one type. */
const TypeChanges = <S extends TSchema>(id: S) => obj({
  added: Type.Array(id),
  removed: Type.Array(id),
  changed: Type.Array(obj({ id, fields: Type.Array(FieldChange) })),
});

const CardChanges = obj({
  added: ints,
  removed: ints,
  added_ordinals: ints,
  removed_ordinals: ints,
  changed: Type.Array(obj({ id: Int, ordinal: Int, fields: Type.Array(FieldChange) })),
}, 'Cards by id, added and removed also by ordinal; a changed card carries its new ordinal.');

/** The changelog's object types, in the order change lists name them (kinds.ts). */
export { CHANGE_TYPES, type ChangeType };

export const Versions = named('Versions', obj({
  versions: Type.Array(obj({
    truth_version: Str,
    date: nullable(Int),
    added: Int,
    changed: Int,
    removed: Int,
    changes: nullable(extra(Str, 'the URL of the change list of this version (relative to this file); null for the first version or one whose changes were pictures only')),
  })),
}, '(extra) Every data version the site has published, oldest first; added, changed and removed count the objects (generic object types) whose history has an entry of that kind in it.'));

const PatchOperation = obj({
  op: Type.Union(['add', 'remove', 'replace', 'move', 'copy', 'test'].map((op) => Type.Literal(op))),
  path: Str,
  value: Type.Optional(Type.Unknown()),
  from: Type.Optional(Str),
}, 'A JSON Patch operation (RFC 6902).');

export const History = named('History', obj({
  type: Str,
  id: Int,
  versions: Type.Array(obj({
    truth_version: Str,
    date: nullable(Int),
    change: Type.Union([Type.Literal('added'), Type.Literal('changed'), Type.Literal('removed')]),
    patch: nullable(Type.Array(PatchOperation)),
  })),
}, '(extra) One object\'s history, oldest first: applying the patches in order gives the object as each version published it; the first patch (and the one after a removal) builds it from nothing with {"op": "add", "path": ""}; a removal has patch null.'));

export const ChangeList = named('ChangeList', obj({
  from: DataVersion,
  to: DataVersion,
  types: obj({
    cards: CardChanges,
    skills: TypeChanges(Int),
    center_skills: TypeChanges(Int),
    accessories: TypeChanges(Int),
    characters: TypeChanges(Int),
    events: TypeChanges(Int),
    sets: TypeChanges(Str),
    pairs: TypeChanges(Int),
    songs: TypeChanges(Int),
    charts: TypeChanges(Int),
  } satisfies Record<ChangeType, TSchema>),
}, '(extra) What a game update changed, per object type: ids in ascending order, changed objects in id order with their fields in name order.'));

const ChangeCounts = obj({ added: Int, removed: Int, changed: Int });

export const ChangeIndex = named('ChangeIndex', obj({
  changes: Type.Array(obj({
    truth_version: Str,
    from_truth_version: Str,
    date: nullable(Int),
    counts: obj(Object.fromEntries(CHANGE_TYPES.map((type) => [type, ChangeCounts])) as Record<ChangeType, typeof ChangeCounts>),
  })),
}, '(extra) Every published change list, newest first.'));

const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the bytes, lower-case hex.' });

export const BulkIndex = named('BulkIndex', obj({
  truth_version: Str,
  date: nullable(Int),
  files: Type.Array(obj({
    name: Str,
    path: Str,
    type: Str,
    format: Type.Union([Type.Literal('jsonl'), Type.Literal('sqlite')]),
    count: Int,
    bytes: Int,
    sha256: Sha256,
    updated_in: Str,
    parts: extra(Type.Array(obj({ path: Str, bytes: Int, sha256: Sha256 })), 'the files that, joined in this order, are the file (api/v1/bulk/parts/...): what a host without an edge serves, and what changes when a few objects do'),
  })),
}, '(extra) Every bulk file: its name, root-relative path (answered by the edge, which joins the parts), the kind it holds (type; "all" for the SQLite file), format, objects (rows) it holds, size, SHA-256, the truth version in which its content last changed, and its parts.'));

export const BulkLines = named('BulkLines', Type.Object({}, {
  description: '(extra) JSON Lines: one object per line, each exactly as its single-object route publishes it (sets and pairs: the route\'s {"cards"} body with the fields of the object\'s set_list.json / pair_list.json entry).',
}));

export const SqliteFile = named('SqliteFile', Type.String({
  contentMediaType: 'application/vnd.sqlite3',
  description: '(extra) A SQLite database: a table per kind (a column per scalar field, `json` the object as published; card_t and accessory_t are views of cards and accessories, which hold the same objects), and `meta` (docs/bulk.md); not notes, which notes.jsonl alone holds.',
}));

export const BulkPart = named('BulkPart', Type.String({
  contentMediaType: 'application/octet-stream',
  description: '(extra) Bytes of a bulk file: its parts joined in bulk/index.json\'s order are the file, byte for byte (`cat`).',
}));

export const Checksum = named('Checksum', Type.String({
  description: '(extra) One line in sha256sum format: "<sha256>  <file name>", so `sha256sum -c` checks the file beside it.',
}));

/** Block sums (generator/build/blockSums.ts) of blocks described by `blocks`, `note` leading the description. */
const blockSumsOf = (blocks: string, note = '') => Type.String({
  pattern: '^[A-Za-z0-9+/]*={0,2}$',
  description: `${note}Base64 of 12 bytes per ${blocks} of the file (the last one shorter): rsync's weak rolling sum (uint32, big-endian: the 16-bit sum of the block's bytes' running sums, then the 16-bit sum of its bytes), then the first 8 bytes of the block's SHA-256. A mirror finds these blocks in its old copy at any offset and fetches only the others by HTTP Range.`,
});

export const FileManifest = named('FileManifest', obj({
  truth_version: Str,
  files: Type.Record(Str, obj({
    sha256: Sha256,
    bytes: Int,
    blocks: Type.Optional(blockSumsOf(`${BLOCK_SIZE}-byte block`, `Files of at least ${BLOCK_SUMS_MIN_BYTES} bytes only. `)),
  }), { description: 'Every file the site serves by root-relative path, except this one, manifest.blocks.json and the host configuration files.' }),
}, '(extra) Every published file with its SHA-256 and size: what a mirror compares with its copy.'));

export const ManifestBlocks = named('ManifestBlocks', obj({
  sha256: Sha256,
  bytes: Int,
  block_size: Type.Integer({ minimum: 1, description: `Bytes per block (${MANIFEST_BLOCK_SIZE}).` }),
  blocks: blockSumsOf('block of block_size bytes'),
}, '(extra) The SHA-256, size and block sums of manifest.json, which a mirror reads first to fetch only the blocks of the manifest that changed.'));

/** `{"result": [...]}`: one entry per requested id in request order, null for a missing id. */
export const ObjectResult = <S extends TSchema>(schema: S) => obj({ result: Type.Array(nullable(schema)) });

export const ObjectBrief = named('ObjectBrief', obj({
  id: Int,
  name: nullable(Str),
  name_en: nullable(Str),
  ref: Str,
}, 'A brief description in list/<type>; ref is the object\'s URL.'));

export const CardBrief = named('CardBrief', obj({
  id: Int,
  name: nullable(Str),
  name_en: nullable(Str),
  ref: Str,
  ordinal: Int,
  char_name: Str,
  rarity: Int,
  attribute: Int,
}, 'A card in list/card_t: name is the card title.'));

export const ObjectList = <S extends TSchema>(schema: S) => obj({ result: Type.Array(schema) });

export const TranslationIndex = named('TranslationIndex', obj({ shards: Int }, 'How many shard files tl/<n>.json hold the crowd translations.'));

export const Translations = named('Translations', Type.Record(Str, Str, { description: '{original: translation}' }));

export const ReadTlBody = named('ReadTlBody', Type.Array(Str, { maxItems: MAX_READ_TL_STRINGS, description: 'The strings to translate.' }));

export const ErrorBody = named('Error', obj({ error: Str }, 'The body of every error response.'));

export type CardJson = Static<typeof Card>;
export type RegionsJson = Static<typeof RegionMap>;
export type CardStubJson = Static<typeof CardStub>;
export type SkillJson = Static<typeof Skill>;
export type CenterSkillJson = Static<typeof CenterSkill>;
export type AccessoryJson = Static<typeof Accessory>;
export type CharacterJson = Static<typeof Character>;
export type HappeningJson = Static<typeof Happening>;
export type HappeningEventJson = Static<typeof HappeningEvent>;
export type HappeningGachaJson = Static<typeof HappeningGacha>;
export type CardBriefJson = Static<typeof CardBrief>;
export type ObjectBriefJson = Static<typeof ObjectBrief>;
export type ErrorJson = Static<typeof ErrorBody>;
export type Flag = Static<typeof Flag>;
export type CardsJson = Static<typeof CardsResponse>;
export type EventJson = Static<typeof GameEvent>;
export type RemovableSkillJson = Static<typeof RemovableSkill>;
export type SongJson = Static<typeof Song>;
export type LiveJson = Static<typeof Live>;
export type NoteJson = Static<typeof Note>;
export type NotesJson = Static<typeof Notes>;
export type CardListJson = Static<typeof CardList>;
export type SetListJson = Static<typeof SetList>;
export type PairListJson = Static<typeof PairList>;
export type AccessoryListJson = Static<typeof AccessoryList>;
export type ChangeListJson = Static<typeof ChangeList>;
export type ChangeIndexJson = Static<typeof ChangeIndex>;
export type VersionsJson = Static<typeof Versions>;
export type HistoryJson = Static<typeof History>;
export type BulkIndexJson = Static<typeof BulkIndex>;
export type FileManifestJson = Static<typeof FileManifest>;
/** How many objects of each changelog type an update added, removed and changed. */
export type ChangeCounts = ChangeIndexJson['changes'][number]['counts'];
export type ObjectListJson = { result: (ObjectBriefJson | CardBriefJson)[] };

export const OpenApi = named('OpenApi', Type.Object(
  { openapi: Str, info: Type.Object({}), paths: Type.Object({}) },
  { description: 'An OpenAPI 3.1 document (its standard schema applies).' },
));

/** Registers a schema under `name` and returns it as it is (composites listed among the responses). */
function register<S extends TSchema>(name: string, schema: S): S {
  components[name] = schema;
  return schema;
}

type ObjectResponses<T extends string, O extends TSchema, B extends TSchema> =
  Record<`${T}_result`, ReturnType<typeof ObjectResult<O>>> & Record<`${T}_list`, ReturnType<typeof ObjectList<B>>> & Record<`${T}_pack`, PackOf<O>>;

/** The three responses of a generic object type: objects by id, its list, its packs. */
function objectResponses<T extends string, O extends TSchema, B extends TSchema>(type: T, object: O, brief: B): ObjectResponses<T, O, B> {
  return {
    [`${type}_result`]: register(`${type}_result`, ObjectResult(object)),
    [`${type}_list`]: register(`${type}_list`, ObjectList(brief)),
    [`${type}_pack`]: register(`${type}_pack`, Pack(object)),
  } as ObjectResponses<T, O, B>;
}

/**
 * Every response schema, by the name endpoints.ts declares it with and openapi.json
 * publishes it under (components). endpoints.ts imports only their types, so the edge
 * handler, which reads the endpoint declarations, never loads a schema library.
 */
export const RESPONSES = {
  Info, CardsResponse, CardList, SetList, PairList, AccessoriesResponse, AccessoryList, Happening, Translations, TranslationIndex,
  ChangeList, ChangeIndex, Versions, History, OpenApi, ReadTlBody, CardSearch, AccessorySearch, EventSearch, SongSearch, SearchIndex,
  BulkIndex, BulkLines, SqliteFile, BulkPart, Checksum, FileManifest, ManifestBlocks, Notes,
  CardPack: register('CardPack', Pack(Card)),
  ...objectResponses('card_t', Card, CardBrief),
  card_t_pack: register('card_t_pack', CardIdPack),
  ...objectResponses('char_t', Character, ObjectBrief),
  ...objectResponses('skill_t', Skill, ObjectBrief),
  ...objectResponses('leader_skill_t', CenterSkill, ObjectBrief),
  ...objectResponses('accessory_t', Accessory, ObjectBrief),
  ...objectResponses('event_t', GameEvent, ObjectBrief),
  ...objectResponses('removable_skill_t', RemovableSkill, ObjectBrief),
  ...objectResponses('song_t', Song, SongBrief),
  ...objectResponses('live_t', Live, LiveBrief),
  notes_pack: register('notes_pack', Pack(Notes)),
  history_pack: register('history_pack', Pack(History)),
};
