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
};

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
  is_pre_transformed: Flag;
  is_support_card: Flag;
  is_costume_card: Flag;
  release_date: number | null;
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
