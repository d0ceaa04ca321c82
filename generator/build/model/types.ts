/**
 * The domain model: what the game export says, resolved and cross-linked, before
 * any response shape is chosen. Renderers turn it into the published JSON.
 */
import type { CuratedGacha } from '../input/curated.ts';

/** A text in the export's language and in the secondary language (English export, then `*_en`). */
export interface Text {
  original: string;
  secondary: string | null;
}

export interface MemberTag {
  id: number;
  name: Text;
  /** Shown in the game's UI (school years, groups, sub-units). */
  display: boolean;
  /** How many characters carry the tag: the largest display tag of a character is its group. */
  memberCount: number;
}

export interface Character {
  id: number;
  name: Text;
  /** 0 none, 1 μ's, 2 Aqours, 3 and up later groups. */
  memberCategory: number;
  tagIds: number[];
  /** School year 1-3, else 0. */
  year: number;
  /** The display tag that is neither a year nor the group, else 0. */
  subUnit: number;
}

/** What a skill or accessory aims at: a member tag, or a character for reference type 3. */
export interface Target {
  referenceType: number;
  target: number;
  /** The tag's or character's name, null when the export does not know it. */
  name: Text | null;
}

export interface SkillLevel {
  level: number;
  effectValue: number;
  dischargeTime: number;
  triggerValue: number;
  activationRate: number;
}

export interface Skill {
  id: number;
  name: Text;
  effectType: number;
  dischargeType: number | null;
  triggerType: number;
  maxLevel: number;
  /** In level order. */
  levels: SkillLevel[];
  effectTargets: Target[];
  triggerTargets: Target[];
}

export interface CenterSkillExtra {
  memberTagId: number;
  tagName: Text | null;
  effectType: number;
  effectValue: number;
}

export interface CenterSkill {
  id: number;
  /** Legacy exports name center skills; modern ones only keep a string key. */
  name: Text | null;
  effectType: number;
  effectValue: number;
  extra: CenterSkillExtra | null;
}

/**
 * A card's stats per level, index 0 being level 1 (`<stat>_max - <stat>_diff`).
 * One array per stat rather than one object per level: a game has some 400,000 card levels.
 */
export interface LevelStats {
  smile: number[];
  pure: number[];
  cool: number[];
  stamina: number[];
  salePrice: number[];
  mergeExp: number[];
}

export interface Card {
  /** unit_id */
  id: number;
  /** unit_number, the album ordinal */
  ordinal: number;
  typeId: number;
  /** eponym; null for most N cards */
  title: Text | null;
  /** The character name on the card row, romanized when the export knows it. */
  charName: Text;
  rarity: number;
  attribute: number;
  skill: Skill | null;
  centerSkill: CenterSkill | null;
  character: Character | null;
  hpBase: number;
  normalMaxLevel: number;
  transformedMaxLevel: number;
  normalMaxKizuna: number;
  transformedMaxKizuna: number;
  /** Cumulative EXP to reach each level cap; null when the level pattern lacks that level. */
  normalMaxLevelExp: number | null;
  transformedMaxLevelExp: number | null;
  /** Can never be idolized (support, costume, rank_max 1). */
  transformDisabled: boolean;
  supportCard: boolean;
  costumeCard: boolean;
  /** Always idolized (promo cards). */
  preTransformed: boolean;
  albumSeriesId: number | null;
  /** Unix seconds: curated, else the start of the first event rewarding the card, else estimated; null when nothing is known. */
  releaseDate: number | null;
  /** The date is estimated from neighbouring ordinals. */
  releaseDateIsDirty: boolean;
  /** The events that reward this card, in start order. */
  events: GameEvent[];
  /** Ids of the sets whose files hold this card, sorted. */
  setIds: string[];
  /** Levels 1 to the highest cap the card can reach. */
  levels: LevelStats;
  /** Asset paths of the icons as the database names them. */
  normalIconAsset: string | null;
  idolizedIconAsset: string | null;
}

/** A release: an album series, or a curated set. */
export interface CardSet {
  /** Stable, URL-safe. */
  id: string;
  displayName: string;
  /** Internal ids of member cards, in ordinal order. */
  cardIds: number[];
}

/** One row of unit_pair_m: a card whose art forms one picture with its partner's. */
export interface PairMember {
  unitPairId: number;
  /** 0 left, 1 right. */
  position: number;
  /** 1 normal art, 2 idolized art. */
  rank: number;
  card: Card;
}

export interface Pair {
  /** The `pair` column. */
  id: number;
  /** In position order. */
  members: PairMember[];
}

/** One accessory_level_m row; stats are `<stat>_max - <stat>_diff` like cards'; null for a NULL cell. */
export interface AccessoryLevel {
  level: number;
  smile: number | null;
  pure: number | null;
  cool: number | null;
  effectValue: number | null;
  dischargeTime: number | null;
  triggerValue: number | null;
  activationRate: number | null;
  nextExp: number | null;
  grantExp: number | null;
  mergeCost: number | null;
  salePrice: number | null;
}

export interface Accessory {
  id: number;
  name: Text;
  rarity: number;
  smileMax: number;
  pureMax: number;
  coolMax: number;
  isMaterial: boolean;
  effectType: number;
  /** null where the column is NULL (most accessories). */
  triggerType: number | null;
  triggerEffectType: number | null;
  defaultMaxLevel: number;
  maxLevel: number;
  /** accessory_asset_m.icon_asset as the database names it; null when unknown. */
  iconAsset: string | null;
  effectTargets: Target[];
  /** Named in accessory_special_m: it belongs to a card. */
  limited: boolean;
  /** The card it belongs to; null when not limited or when that card row is unreadable. */
  card: Card | null;
  /** Every accessory_level_m row in level order (they run past maxLevel). */
  levels: AccessoryLevel[];
}

/** An event of event_common's event_m; times in unix seconds. */
export interface GameEvent {
  /** event_id */
  id: number;
  /** Secondary: the English export's event_m, else the crowd translations. */
  name: Text;
  /** event_category_id; null when the export lacks it. */
  type: number | null;
  start: number;
  end: number;
  /** close_date: when results close; null when absent or unreadable. */
  resultEnd: number | null;
  /** Readable cards the event rewards (add_type 1001 in its reward tables), in ordinal order, each once. */
  rewardCards: Card[];
}

/** A School Idol Skill: one row of unit_removable_skill_m. */
export interface RemovableSkill {
  /** unit_removable_skill_id */
  id: number;
  /** Secondary: the English export, else the name_en column, else a crowd translation. */
  name: Text;
  /** Likewise; null when the row has no description. */
  description: Text | null;
  /**
   * Every other column of the row as stored (snake_case names, as in the table), for publishing
   * "the fields the table has"; the *_en forms of name and description live in the Texts above,
   * and the encryption bookkeeping (release_tag, _encryption_release_id) is left out.
   */
  columns: Record<string, string | number | null>;
}

/** A curated gacha (input/gachas.json), its name with a secondary text. */
export interface Gacha extends Omit<CuratedGacha, 'name'> {
  name: Text;
}

/** A song: one row of the live database's live_track_m, with its charts. */
export interface Song {
  /** live_track_id */
  id: number;
  /** Secondary: the English client's live_track_m, else the name_en column, else a crowd translation. */
  name: Text;
  /** name_kana; null when the export lacks it. */
  kana: string | null;
  /** The game's group code (member_category: 1 μ's, 2 Aqours, ...); null when the export lacks it. */
  memberCategory: number | null;
  /** The group's name: the group tag of the characters of its member_category (characters.ts groupTagOf); null when none. */
  group: Text | null;
  /** unit_type_id: the character of a solo song; null for the others and where the export lacks it. */
  unitTypeId: number | null;
  /** Length in seconds (live_time_m); null when the export has no such row. */
  length: number | null;
  /** Its readable charts, by difficulty then id. */
  charts: Chart[];
}

/** The four rank thresholds of a chart (c_rank_* to s_rank_*); null where the export lacks the column. */
export interface RankThresholds {
  c: number | null;
  b: number | null;
  a: number | null;
  s: number | null;
}

/** One way a chart is played: a row of normal_live_m, special_live_m or free_live_m. */
export interface ChartPlay {
  /** live_difficulty_id */
  id: number;
  kind: 'normal' | 'special' | 'free';
  /** capital_type (1 LP; other codes as stored); null when the table has no such column (free lives). */
  costType: number | null;
  /** capital_value: how much of it a play costs. */
  cost: number | null;
  /** The special_live_rotation_m groups that schedule it, in id order (special lives only). */
  rotationGroups: number[];
}

/** A chart: one row of live_setting_m. Codes are the game's (difficulty 1 Easy ... 6 Master). */
export interface Chart {
  /** live_setting_id */
  id: number;
  song: Song;
  difficulty: number | null;
  /** stage_level */
  stars: number | null;
  /** attribute_icon_id */
  attribute: number | null;
  score: RankThresholds;
  combo: RankThresholds;
  /** swing_flag, ac_flag, lane_count: null in exports before these columns. */
  swing: number | null;
  ac: number | null;
  lanes: number | null;
  /** In live_difficulty_id order. */
  plays: ChartPlay[];
}
