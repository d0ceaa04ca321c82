/**
 * The domain model: what the game export says, resolved and cross-linked, before
 * any response shape is chosen. Renderers turn it into the published JSON.
 */
import type { CuratedGacha } from '../input/curated.ts';
import type { NoteJson, RegionsJson } from '../../contract/schemas.ts';

/** An object an archive build publishes with its availability per region (absent in a one-export build). */
export interface InRegions {
  readonly regions?: RegionsJson;
}

/**
 * A model type as its builders (model/) make it: writable while the model is cross-linked
 * (event rewards, release dates, sets, charts), read-only for every stage after.
 */
export type Writable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? U[] : T[K] };

/** A text in the export's language and in the secondary language (English export, then `*_en`). */
export interface Text {
  readonly original: string;
  readonly secondary: string | null;
}

export interface MemberTag {
  readonly id: number;
  readonly name: Text;
  /** Shown in the game's UI (school years, groups, sub-units). */
  readonly display: boolean;
  /** How many characters carry the tag: the largest display tag of a character is its group. */
  readonly memberCount: number;
}

export interface Character {
  readonly id: number;
  readonly name: Text;
  /** 0 none, 1 μ's, 2 Aqours, 3 and up later groups. */
  readonly memberCategory: number;
  readonly tagIds: readonly number[];
  /** School year 1-3, else 0. */
  readonly year: number;
  /** The display tag that is neither a year nor the group, else 0. */
  readonly subUnit: number;
}

/** What a skill or accessory aims at: a member tag, or a character for reference type 3. */
export interface Target {
  readonly referenceType: number;
  readonly target: number;
  /** The tag's or character's name, null when the export does not know it. */
  readonly name: Text | null;
}

export interface SkillLevel {
  readonly level: number;
  readonly effectValue: number;
  readonly dischargeTime: number;
  readonly triggerValue: number;
  readonly activationRate: number;
}

export interface Skill {
  readonly id: number;
  readonly name: Text;
  readonly effectType: number;
  readonly dischargeType: number | null;
  readonly triggerType: number;
  readonly maxLevel: number;
  /** In level order. */
  readonly levels: readonly SkillLevel[];
  readonly effectTargets: readonly Target[];
  readonly triggerTargets: readonly Target[];
}

export interface CenterSkillExtra {
  readonly memberTagId: number;
  readonly tagName: Text | null;
  readonly effectType: number;
  readonly effectValue: number;
}

export interface CenterSkill {
  readonly id: number;
  /** Legacy exports name center skills; modern ones only keep a string key. */
  readonly name: Text | null;
  readonly effectType: number;
  readonly effectValue: number;
  readonly extra: CenterSkillExtra | null;
}

/**
 * A card's stats per level, index 0 being level 1 (`<stat>_max - <stat>_diff`).
 * One array per stat rather than one object per level: a game has some 400,000 card levels.
 */
export interface LevelStats {
  readonly smile: readonly number[];
  readonly pure: readonly number[];
  readonly cool: readonly number[];
  readonly stamina: readonly number[];
  readonly salePrice: readonly number[];
  readonly mergeExp: readonly number[];
}

export interface Card extends InRegions {
  /** unit_id */
  readonly id: number;
  /** unit_number, the album ordinal */
  readonly ordinal: number;
  readonly typeId: number;
  /** eponym; null for most N cards */
  readonly title: Text | null;
  /** The character name on the card row, romanized when the export knows it. */
  readonly charName: Text;
  readonly rarity: number;
  readonly attribute: number;
  readonly skill: Skill | null;
  readonly centerSkill: CenterSkill | null;
  readonly character: Character | null;
  readonly hpBase: number;
  readonly normalMaxLevel: number;
  readonly transformedMaxLevel: number;
  readonly normalMaxKizuna: number;
  readonly transformedMaxKizuna: number;
  /** Cumulative EXP to reach each level cap; null when the level pattern lacks that level. */
  readonly normalMaxLevelExp: number | null;
  readonly transformedMaxLevelExp: number | null;
  /** Can never be idolized (support, costume, rank_max 1). */
  readonly transformDisabled: boolean;
  readonly supportCard: boolean;
  readonly costumeCard: boolean;
  /** Always idolized (promo cards). */
  readonly preTransformed: boolean;
  readonly albumSeriesId: number | null;
  /** Unix seconds: curated, else the start of the first event rewarding the card, else estimated; null when nothing is known. */
  readonly releaseDate: number | null;
  /** The date is estimated from neighbouring ordinals. */
  readonly releaseDateIsDirty: boolean;
  /** The events that reward this card, in start order. */
  readonly events: readonly GameEvent[];
  /** Ids of the sets whose files hold this card, sorted. */
  readonly setIds: readonly string[];
  /** Levels 1 to the highest cap the card can reach. */
  readonly levels: LevelStats;
  /** Asset paths of the icons as the database names them. */
  readonly normalIconAsset: string | null;
  readonly idolizedIconAsset: string | null;
}

/** A release: an album series, or a curated set. */
export interface CardSet {
  /** Stable, URL-safe. */
  readonly id: string;
  readonly displayName: string;
  /** Internal ids of member cards, in ordinal order. */
  readonly cardIds: readonly number[];
}

/** One row of unit_pair_m: a card whose art forms one picture with its partner's. */
export interface PairMember {
  readonly unitPairId: number;
  /** 0 left, 1 right. */
  readonly position: number;
  /** 1 normal art, 2 idolized art. */
  readonly rank: number;
  readonly card: Card;
}

export interface Pair {
  /** The `pair` column. */
  readonly id: number;
  /** In position order. */
  readonly members: readonly PairMember[];
}

/** One accessory_level_m row; stats are `<stat>_max - <stat>_diff` like cards'; null for a NULL cell. */
export interface AccessoryLevel {
  readonly level: number;
  readonly smile: number | null;
  readonly pure: number | null;
  readonly cool: number | null;
  readonly effectValue: number | null;
  readonly dischargeTime: number | null;
  readonly triggerValue: number | null;
  readonly activationRate: number | null;
  readonly nextExp: number | null;
  readonly grantExp: number | null;
  readonly mergeCost: number | null;
  readonly salePrice: number | null;
}

export interface Accessory extends InRegions {
  readonly id: number;
  readonly name: Text;
  readonly rarity: number;
  readonly smileMax: number;
  readonly pureMax: number;
  readonly coolMax: number;
  readonly isMaterial: boolean;
  readonly effectType: number;
  /** null where the column is NULL (most accessories). */
  readonly triggerType: number | null;
  readonly triggerEffectType: number | null;
  readonly defaultMaxLevel: number;
  readonly maxLevel: number;
  /** accessory_asset_m.icon_asset as the database names it; null when unknown. */
  readonly iconAsset: string | null;
  readonly effectTargets: readonly Target[];
  /** Named in accessory_special_m: it belongs to a card. */
  readonly limited: boolean;
  /** The card it belongs to; null when not limited or when that card row is unreadable. */
  readonly card: Card | null;
  /** Every accessory_level_m row in level order (they run past maxLevel). */
  readonly levels: readonly AccessoryLevel[];
}

/** An event of event_common's event_m; times in unix seconds. */
export interface GameEvent {
  /** event_id */
  readonly id: number;
  /** Secondary: the English export's event_m, else the crowd translations. */
  readonly name: Text;
  /** event_category_id; null when the export lacks it. */
  readonly type: number | null;
  readonly start: number;
  readonly end: number;
  /** close_date: when results close; null when absent or unreadable. */
  readonly resultEnd: number | null;
  /** Readable cards the event rewards (add_type 1001 in its reward tables), in ordinal order, each once. */
  readonly rewardCards: readonly Card[];
}

/** A School Idol Skill: one row of unit_removable_skill_m. */
export interface RemovableSkill {
  /** unit_removable_skill_id */
  readonly id: number;
  /** Secondary: the English export, else the name_en column, else a crowd translation. */
  readonly name: Text;
  /** Likewise; null when the row has no description. */
  readonly description: Text | null;
  /**
   * Every other column of the row as stored (snake_case names, as in the table), for publishing
   * "the fields the table has"; the *_en forms of name and description live in the Texts above,
   * and the encryption bookkeeping (release_tag, _encryption_release_id) is left out.
   */
  readonly columns: Record<string, string | number | null>;
}

/** A curated gacha (input/gachas.json), its name with a secondary text. */
export interface Gacha extends Omit<CuratedGacha, 'name'> {
  readonly name: Text;
}

/** A song: one row of the live database's live_track_m, with its charts. */
export interface Song extends InRegions {
  /** live_track_id */
  readonly id: number;
  /** Secondary: the English client's live_track_m, else the name_en column, else a crowd translation. */
  readonly name: Text;
  /** name_kana; null when the export lacks it. */
  readonly kana: string | null;
  /** The name_en column where it holds the client's own language, not English (a CN client's Chinese); null otherwise. */
  readonly localized: string | null;
  /** The game's group code (member_category: 1 μ's, 2 Aqours, ...); null when the export lacks it. */
  readonly memberCategory: number | null;
  /** The group's name: the group tag of the characters of its member_category (characters.ts groupTagOf); null when none. */
  readonly group: Text | null;
  /** unit_type_id: the character of a solo song; null for the others and where the export lacks it. */
  readonly unitTypeId: number | null;
  /** Length in seconds (live_time_m); null when the export has no such row. */
  readonly length: number | null;
  /** Its readable charts, by difficulty then id. */
  readonly charts: readonly Chart[];
}

/** The four rank thresholds of a chart (c_rank_* to s_rank_*); null where the export lacks the column. */
export interface RankThresholds {
  readonly c: number | null;
  readonly b: number | null;
  readonly a: number | null;
  readonly s: number | null;
}

/** One way a chart is played: a row of normal_live_m, special_live_m or free_live_m. */
export interface ChartPlay {
  /** live_difficulty_id */
  readonly id: number;
  readonly kind: 'normal' | 'special' | 'free';
  /** capital_type (1 LP; other codes as stored); null when the table has no such column (free lives). */
  readonly costType: number | null;
  /** capital_value: how much of it a play costs. */
  readonly cost: number | null;
  /** The special_live_rotation_m groups that schedule it, in id order (special lives only). */
  readonly rotationGroups: readonly number[];
}

/** What a chart's notes add up to (docs/songs.md#notes gives each definition). */
export interface NoteStats {
  readonly count: number;
  readonly stars: number;
  readonly holds: number;
  readonly swings: number;
  /** When the last note ends (a hold's end is its timing plus its length), in seconds, rounded to the millisecond. */
  readonly duration: number;
  /** Notes per lane, lane 1 first. */
  readonly lanes: readonly number[];
  /** count / duration to two decimals; null when duration is 0. */
  readonly perSecond: number | null;
}

/** A chart's notes, from the note file its live_setting_m row names: the notes as published (the file's fields, in its order). */
export interface ChartNotes {
  /** The note file, relative to the input folder. */
  readonly file: string;
  readonly notes: readonly NoteJson[];
  readonly stats: NoteStats;
}

/** A chart: one row of live_setting_m. Codes are the game's (difficulty 1 Easy ... 6 Master). */
export interface Chart extends InRegions {
  /** live_setting_id */
  readonly id: number;
  readonly song: Song;
  readonly difficulty: number | null;
  /** stage_level */
  readonly stars: number | null;
  /** attribute_icon_id */
  readonly attribute: number | null;
  readonly score: RankThresholds;
  readonly combo: RankThresholds;
  /** swing_flag, ac_flag, lane_count: null in exports before these columns. */
  readonly swing: number | null;
  readonly ac: number | null;
  readonly lanes: number | null;
  /** In live_difficulty_id order. */
  readonly plays: readonly ChartPlay[];
  /** Its notes; null when the input has no readable note file of the name its row gives (notes_setting_asset). */
  readonly notes: ChartNotes | null;
}
