/**
 * The invented content of the sample export. Every name here is made up for this
 * project; none is game text. The shapes are the modern schema's (docs/input.md).
 */

/** [unit_type_id, name, romanized name, member_category, member tag ids] */
export const CHARACTERS: [number, string, string, number, number[]][] = [
  [101, '星野あおい', 'Hoshino Aoi', 1, [1, 4, 6, 8]],
  [102, '月島ひかり', 'Tsukishima Hikari', 1, [1, 4, 7]],
  [103, '花村ゆず', 'Hanamura Yuzu', 1, [2, 4, 6]],
  [104, '水瀬しずく', 'Minase Shizuku', 1, [2, 4, 7]],
  [105, '朝倉かなで', 'Asakura Kanade', 1, [3, 4, 6]],
  [106, '白鳥れいな', 'Shiratori Reina', 1, [3, 4]],
  [201, '風間みお', 'Kazama Mio', 2, [1, 5, 8]],
  [202, '桜井こはる', 'Sakurai Koharu', 2, [2, 5, 9]],
  [203, '橘ゆめ', 'Tachibana Yume', 2, [3, 5]],
  [901, 'パンダ先生', 'Panda Sensei', 0, []],
];

/** [member_tag_id, name, name_en, display_flag]: 1-3 school years, 4-5 groups, 6,7,9 sub-units, 8 hidden. */
export const MEMBER_TAGS: [number, string, string, number][] = [
  [1, '1年生', '1st year', 1],
  [2, '2年生', '2nd year', 1],
  [3, '3年生', '3rd year', 1],
  [4, 'ステラ', 'Stella', 1],
  [5, 'ノヴァ', 'Nova', 1],
  [6, 'ルミナ', 'Lumina', 1],
  [7, 'カノン', 'Canon', 1],
  [8, 'ほしぞら部', 'Starry Sky Club', 0],
  [9, 'ミラージュ', 'Mirage', 1],
];

/** [id, name, name_en, effect_type, trigger_type, max_level, effect targets, trigger targets] as [reference_type, target]. */
export const SKILLS: [number, string, string, number, number, number, [number, number][], [number, number][]][] = [
  [1, 'きらめきヒール', 'Sparkle Heal', 9, 1, 8, [], []],
  [2, 'ときめきスコア', 'Heartbeat Score', 11, 3, 8, [], []],
  [3, 'ひだまりガード', 'Sunny Guard', 5, 4, 8, [], []],
  [4, 'ステラの輪', 'Stella Circle', 11, 12, 8, [], [[2, 4]]],
  [5, 'ノヴァの光', 'Nova Light', 2000, 1, 8, [[2, 5]], []],
  [6, 'あおいの応援', "Aoi's Cheer", 2100, 3, 4, [[3, 101]], []],
];

/** [id, name_string_key, effect_type, percent, extra: [member_tag_id, effect_type, percent] | null] */
export const CENTER_SKILLS: [number, string, number, number, [number, number, number] | null][] = [
  [1, 'leader_skill_name_1', 1, 3, null],
  [2, 'leader_skill_name_2', 2, 6, null],
  [3, 'leader_skill_name_3', 3, 9, [4, 3, 3]],
  [4, 'leader_skill_name_4', 1, 9, [2, 1, 6]],
  [5, 'leader_skill_name_5', 2, 7, [5, 2, 2]],
];

/** Per rarity: [rarity, before_level_max, after_level_max, before_love_max, after_love_max, stat base]. */
export const RARITIES: [number, number, number, number, number, number][] = [
  [1, 30, 40, 25, 50, 1500],
  [2, 40, 60, 100, 200, 2500],
  [3, 60, 80, 250, 500, 3500],
  [4, 80, 100, 500, 1000, 4500],
  [5, 70, 90, 375, 750, 4000],
];

export interface CardSpec {
  ordinal: number;
  type: number;
  rarity: number;
  attribute: number;
  title: string | null;
  titleEn?: string;
  skill?: number;
  center?: number;
  disableRankUp?: number;
  ranks?: [number, number];
  series?: number;
  /** 'none': `None` markers on a plain row; 'decrypted': release id kept, tag NULL; a number: encrypted with that release id. */
  release?: 'none' | 'decrypted' | number;
  /** true when the English export does not have this card yet. */
  notInEnglish?: boolean;
}

const N_CARDS: CardSpec[] = CHARACTERS.filter((c) => c[0] !== 901).map((c, i) => ({
  ordinal: i + 1, type: c[0], rarity: 1, attribute: (i % 3) + 1, title: null, series: 1,
}));

export const CARDS: CardSpec[] = [
  ...N_CARDS,
  { ordinal: 10, type: 101, rarity: 2, attribute: 1, title: 'はじまりの朝', titleEn: 'First Morning', skill: 1, center: 1, series: 1 },
  { ordinal: 11, type: 102, rarity: 2, attribute: 2, title: '雨上がり', titleEn: 'After the Rain', skill: 2, center: 1, series: 1 },
  { ordinal: 12, type: 103, rarity: 2, attribute: 3, title: '放課後の約束', titleEn: 'After-School Promise', skill: 3, series: 1 },
  { ordinal: 13, type: 201, rarity: 2, attribute: 1, title: 'はじめての一歩', titleEn: 'A First Step', center: 2, series: 1 },
  { ordinal: 14, type: 202, rarity: 2, attribute: 2, title: '小さな勇気', titleEn: 'A Little Courage', skill: 1, center: 2, series: 2 },
  { ordinal: 15, type: 203, rarity: 2, attribute: 3, title: '夕焼けの坂道', titleEn: 'Sunset Slope', skill: 2, center: 2, series: 2 },
  { ordinal: 16, type: 104, rarity: 3, attribute: 1, title: '星降る夜', titleEn: 'Night of Falling Stars', skill: 4, center: 3, series: 2 },
  { ordinal: 17, type: 105, rarity: 3, attribute: 2, title: '海辺の休日', titleEn: 'Seaside Holiday', skill: 5, center: 4, series: 2 },
  { ordinal: 18, type: 106, rarity: 3, attribute: 3, title: '秘密の花園', titleEn: 'Secret Garden', skill: 6, center: 3, series: 2 },
  { ordinal: 19, type: 201, rarity: 3, attribute: 1, title: '雪の日の贈り物', titleEn: 'A Snowy Day Gift', skill: 2, center: 5, series: 2 },
  { ordinal: 20, type: 202, rarity: 3, attribute: 2, title: '春風のメロディ', titleEn: 'Spring Breeze Melody', skill: 3, center: 5, series: 2 },
  { ordinal: 21, type: 101, rarity: 4, attribute: 1, title: 'ステラ・ドリーム', titleEn: 'Stella Dream', skill: 4, center: 3, series: 3 },
  { ordinal: 22, type: 102, rarity: 4, attribute: 2, title: '月夜のワルツ', titleEn: 'Moonlit Waltz', skill: 2, center: 4, series: 3 },
  { ordinal: 23, type: 201, rarity: 4, attribute: 3, title: 'ノヴァ・ブレイク', titleEn: 'Nova Break', skill: 5, center: 5, series: 3 },
  { ordinal: 24, type: 203, rarity: 4, attribute: 1, title: '真夏のファンファーレ', titleEn: 'Midsummer Fanfare', skill: 1, center: 5, series: 3 },
  { ordinal: 25, type: 103, rarity: 5, attribute: 2, title: 'きらきらパレード', titleEn: 'Glitter Parade', skill: 2, center: 4, series: 3 },
  { ordinal: 26, type: 104, rarity: 5, attribute: 3, title: '星座の地図', titleEn: 'Map of the Stars', skill: 3, center: 3, series: 3 },
  { ordinal: 27, type: 202, rarity: 5, attribute: 1, title: 'こはる日和', titleEn: 'Koharu Weather', skill: 6, center: 5, series: 3, notInEnglish: true },
  { ordinal: 28, type: 901, rarity: 1, attribute: 5, title: 'れんしゅう先生', titleEn: 'Practice Teacher', disableRankUp: 1, ranks: [1, 1] },
  { ordinal: 29, type: 901, rarity: 3, attribute: 5, title: 'スキルの達人', titleEn: 'Skill Master', disableRankUp: 3, ranks: [1, 1] },
  { ordinal: 30, type: 105, rarity: 3, attribute: 3, title: 'プロモ・スマイル', titleEn: 'Promo Smile', skill: 1, center: 2, disableRankUp: 5, ranks: [2, 2] },
  { ordinal: 31, type: 106, rarity: 4, attribute: 2, title: 'プロモ・スペシャル', titleEn: 'Promo Special', skill: 4, center: 3, disableRankUp: 5, ranks: [2, 2] },
  { ordinal: 32, type: 101, rarity: 2, attribute: 1, title: 'コラボ衣装', titleEn: 'Collaboration Outfit', disableRankUp: 6, ranks: [1, 1] },
  { ordinal: 33, type: 102, rarity: 3, attribute: 3, title: 'なないろ', titleEn: 'Seven Colours', skill: 2, center: 1, series: 3, release: 'none' },
  { ordinal: 34, type: 103, rarity: 4, attribute: 3, title: '虹の架け橋', titleEn: 'Rainbow Bridge', skill: 5, center: 3, series: 3, release: 'decrypted', notInEnglish: true },
  { ordinal: 35, type: 104, rarity: 4, attribute: 1, title: '未来へのチケット', titleEn: 'Ticket to Tomorrow', skill: 4, center: 3, series: 3, release: 7, notInEnglish: true },
  { ordinal: 36, type: 105, rarity: 4, attribute: 2, title: '秘密の新曲', titleEn: 'Secret New Song', skill: 2, center: 4, series: 3, release: 8, notInEnglish: true },
];

/** Internal id of a sample card: deliberately unlike its ordinal so the two never get confused. */
export const unitIdOf = (ordinal: number): number => 1000 + ordinal * 3;

/** The release whose key ships in release_info.json; release 8 stays locked. */
export const KEYED_RELEASE = 7;

/** [album_series_id, name, name_en] */
export const ALBUM_SERIES: [number, string, string][] = [
  [1, 'はじまりの章', 'Chapter of Beginnings'],
  [2, 'きせつの章', 'Chapter of Seasons'],
  [3, 'ほしぞらの章', 'Chapter of Stars'],
];

/** [pair, [ordinal at position 0, rank], [ordinal at position 1, rank]] */
export const PAIRS: [number, [number, number], [number, number]][] = [
  [1, [21, 2], [22, 2]],
  [2, [23, 2], [24, 2]],
  [3, [25, 1], [26, 1]],
];

export interface AccessorySpec {
  id: number;
  name: string;
  nameEn: string;
  rarity: number;
  effectType: number;
  /** NULL in real exports except for the special activation 201. */
  triggerType: number | null;
  triggerEffectType: number | null;
  material?: boolean;
  /** Ordinal of the card it belongs to. */
  card?: number;
  targets?: [number, number][];
  /** false: no icon picture in the sample assets. */
  icon?: boolean;
}

export const ACCESSORIES: AccessorySpec[] = [
  { id: 1, name: 'ステラのリボン', nameEn: 'Stella Ribbon', rarity: 4, effectType: 11, triggerType: null, triggerEffectType: null, card: 21 },
  { id: 2, name: 'ノヴァのブローチ', nameEn: 'Nova Brooch', rarity: 4, effectType: 9, triggerType: null, triggerEffectType: null, card: 23 },
  { id: 3, name: '未来のペンダント', nameEn: 'Pendant of Tomorrow', rarity: 4, effectType: 11, triggerType: null, triggerEffectType: null, card: 35 },
  { id: 4, name: 'ひまわりの髪飾り', nameEn: 'Sunflower Hair Clip', rarity: 3, effectType: 9, triggerType: null, triggerEffectType: null, targets: [[2, 4]] },
  { id: 5, name: 'ガラスの靴', nameEn: 'Glass Slipper', rarity: 3, effectType: 11, triggerType: 201, triggerEffectType: 3 },
  { id: 6, name: '練習用ビーズ', nameEn: 'Practice Beads', rarity: 1, effectType: 0, triggerType: null, triggerEffectType: null, material: true },
  { id: 7, name: '強化ストーン', nameEn: 'Power Stone', rarity: 2, effectType: 0, triggerType: null, triggerEffectType: null, material: true, icon: false },
  { id: 8, name: 'あおいのヘアピン', nameEn: "Aoi's Hairpin", rarity: 2, effectType: 5, triggerType: null, triggerEffectType: null, card: 10 },
  { id: 9, name: 'かなでの帽子', nameEn: "Kanade's Hat", rarity: 3, effectType: 2000, triggerType: null, triggerEffectType: null, targets: [[3, 105]] },
];

/**
 * [event_id, name, start (JP local; real exports write early hours with one digit), length in days,
 * event_category_id, name in the English export (null: not there)]. Event 9 reruns event 1.
 */
export const EVENTS: [number, string, string, number, number, string | null][] = [
  [1, 'はじまりのステージ', '2019/04/20 16:00:00', 10, 1, null],
  [2, 'なつやすみフェス', '2019/08/10 16:00:00', 10, 2, null],
  [3, 'ほしぞらマラソン', '2020/01/15 16:00:00', 12, 1, null],
  [4, 'さくらメドレー', '2020/04/01 16:00:00', 9, 3, 'Cherry Blossom Medley'],
  [5, 'ノヴァ・チャレンジ', '2021/06/05 16:00:00', 10, 4, 'Nova Challenge'],
  [6, 'ステラ・カップ', '2022/02/12 16:00:00', 10, 2, null],
  [7, 'ゆきどけライブ', '2023/03/03 16:00:00', 8, 5, null],
  [8, 'ありがとうフェスタ', '2024/11/20 16:00:00', 14, 3, null],
  [9, 'はじまりのステージ・アンコール', '2025/01/10 9:00:00', 7, 1, null],
];

/** The reward tables of event_common (each with its parent table naming the event). */
export type RewardTable = 'point_count' | 'point_ranking' | 'live_ranking';

/** [event_id, reward table, add_type, item]: add_type 1001 is a card, its item here the card's ordinal. */
export const EVENT_REWARDS: [number, RewardTable, number, number][] = [
  [1, 'point_count', 3000, 50000], // game money: not a card
  [1, 'point_count', 1001, 12],
  [1, 'point_ranking', 1001, 12], // the same card from two tables of one event
  [2, 'point_ranking', 1001, 15],
  [5, 'live_ranking', 1001, 26],
  [8, 'point_count', 1001, 36], // a card row that stays encrypted: no card to link
  [9, 'point_count', 1001, 12], // the rerun: card 12 keeps event 1's date
];

export interface RemovableSkillSpec {
  id: number;
  name: string;
  /** In the English export. */
  nameEn?: string;
  /** The name_en column of the main export. */
  nameEnColumn?: string;
  description: string;
  size: number;
  /** 1 a flat stat bonus, 2 a percentage, 3 team-wide. */
  effectType: number;
  effectValue: number;
  /** [trigger_reference_type, trigger_type]: 4 with a member tag limits it to that group. */
  trigger?: [number, number];
}

/** School Idol Skills (unit_removable_skill_m). */
export const REMOVABLE_SKILLS: RemovableSkillSpec[] = [
  { id: 1, name: 'ほしのしずく', nameEn: 'Star Drop', description: 'スマイル+150', size: 1, effectType: 1, effectValue: 150 },
  { id: 2, name: 'つきのかけら', nameEn: 'Moon Shard', description: 'ピュア+8%', size: 2, effectType: 2, effectValue: 8 },
  { id: 3, name: 'そらのうた', nameEnColumn: 'Song of the Sky', description: 'チーム全体のクール+2%', size: 3, effectType: 3, effectValue: 2 },
  { id: 4, name: 'ステラのちかい', description: 'ステラのメンバーのスマイル+3%', size: 4, effectType: 2, effectValue: 3, trigger: [4, 4] },
];

/** Curated release dates (unix seconds or ISO 8601) for some ordinals; the rest are estimated. */
export const RELEASE_DATES: Record<string, number | string> = {
  '1': '2019-04-15T15:00:00+09:00',
  '10': '2019-04-15T15:00:00+09:00',
  '14': '2019-08-01T15:00:00+09:00',
  '16': 1565589600,
  '21': '2020-01-10T15:00:00+09:00',
  '25': '2021-06-01T15:00:00+09:00',
  '28': '2019-04-15T15:00:00+09:00',
  '30': '2022-02-01T15:00:00+09:00',
};

export const CURATED_SETS = [
  { id: 'stella-first-years', display_name: 'Stella first years', ordinals: [1, 2, 10, 11, 21, 22] },
  { id: 'promo-cards', display_name: 'Promotional cards', ordinals: [30, 31] },
  { id: 'rainbow-collection', display_name: 'Rainbow collection', ordinals: [33, 34, 35, 36] },
];

export const GACHAS = [
  { id: 'opening-scout', name: 'Opening Scout', start: '2019-04-15T15:00:00+09:00', end: '2019-05-01T15:00:00+09:00', ordinals: [10, 11, 12] },
  { id: 'summer-scout', name: 'Summer Scout', start: '2019-08-01T15:00:00+09:00', end: '2019-08-15T15:00:00+09:00', ordinals: [14, 15, 16] },
  { id: 'stella-dream-scout', name: 'Stella Dream Scout', start: '2020-01-10T15:00:00+09:00', end: '2020-01-25T15:00:00+09:00', ordinals: [21, 22] },
  { id: 'parade-scout', name: 'Parade Scout', start: '2021-06-01T15:00:00+09:00', end: '2021-06-15T15:00:00+09:00', ordinals: [25, 26] },
  { id: 'thanks-scout', name: 'Thank-You Scout', start: '2024-11-20T15:00:00+09:00', end: '2024-12-05T15:00:00+09:00', ordinals: [23, 24] },
];

/** Crowd translations, one file per topic. */
export const TRANSLATIONS: Record<string, Record<string, string>> = {
  'titles.json': Object.fromEntries(CARDS.filter((c) => c.title && c.titleEn).map((c) => [c.title!, c.titleEn!])),
  'events.json': {
    'はじまりのステージ': 'The First Stage',
    'なつやすみフェス': 'Summer Holiday Festival',
    'ほしぞらマラソン': 'Starry Sky Marathon',
    'ステラ・カップ': 'Stella Cup',
    'パンダ先生': 'Panda Sensei',
  },
};

/** How a sample row is stored: 'none' writes the text None in its release columns, a number encrypts it with that release id. */
export type SampleRelease = 'none' | number;

/**
 * Songs (live_track_m), names invented. `nameEn` is the English client's name (en/live.sql),
 * `nameEnColumn` the main export's own name_en column; `seconds` its live_time_m row (none
 * when absent); `unitType` a solo song's singer.
 */
export interface SongSpec {
  id: number;
  name: string;
  nameEn?: string;
  nameEnColumn?: string;
  group: number;
  seconds?: number;
  unitType?: number;
  release?: SampleRelease;
}

export const SONGS: SongSpec[] = [
  { id: 1, name: 'はじまりの歌', nameEn: 'Song of Beginnings', group: 1, seconds: 118.5 },
  { id: 2, name: '星空ステップ', nameEnColumn: 'Starry Step', group: 1, seconds: 124 },
  { id: 3, name: 'ノヴァ・ライト', nameEn: 'Nova Light', group: 2, seconds: 102.25 },
  // The English client still writes it in Japanese: no English name; no live_time_m row either.
  { id: 4, name: 'ないしょの約束', nameEn: 'ないしょの約束', group: 2 },
  { id: 5, name: '未来のメロディ', nameEn: 'Melody of Tomorrow', group: 1, seconds: 131, release: KEYED_RELEASE },
  // Locked: its charts name no readable song.
  { id: 6, name: '秘密のステージ', group: 2, seconds: 99, release: 8 },
  { id: 7, name: 'いつもの帰り道', nameEn: 'The Usual Way Home', group: 1, seconds: 110, unitType: 101, release: 'none' },
];

/** How a chart is played: a normal live (LP), a special one (in the daily rotation), a free one, or none listed. */
export type PlayKind = 'normal' | 'special' | 'free' | 'none';

/** A chart (live_setting_m): id song * 10 + difficulty. */
export interface ChartSpec {
  song: number;
  difficulty: number;
  stars: number;
  notes: number;
  swing?: number;
  ac?: number;
  play: PlayKind;
  release?: SampleRelease;
}

/** Charts of difficulties 1-4 (Easy to Expert), played as normal lives. */
export const everyday = (song: number, notes: number, release?: Record<number, SampleRelease>): ChartSpec[] =>
  [1, 2, 3, 4].map((difficulty) => ({
    song, difficulty, stars: [2, 4, 7, 9][difficulty - 1] + (song % 2), notes: Math.round(notes * [0.25, 0.4, 0.6, 1][difficulty - 1]), play: 'normal',
    ...(release?.[difficulty] !== undefined ? { release: release[difficulty] } : {}),
  }));

export const CHARTS: ChartSpec[] = [
  ...everyday(1, 480),
  { song: 1, difficulty: 6, stars: 11, notes: 700, play: 'special' },
  ...everyday(2, 520),
  { song: 2, difficulty: 5, stars: 10, notes: 520, play: 'free' },
  ...everyday(3, 450, { 4: 'none' }),
  { song: 3, difficulty: 6, stars: 12, notes: 760, swing: 1, play: 'special' },
  ...everyday(4, 400),
  ...everyday(5, 540, { 3: 8 }),
  { song: 5, difficulty: 6, stars: 12, notes: 820, ac: 1, play: 'special', release: KEYED_RELEASE },
  ...everyday(6, 500),
  ...everyday(7, 430).map((chart) => (chart.difficulty === 1 ? { ...chart, play: 'none' as const } : chart)),
];

/** The live_setting_id of a sample chart. */
export const chartIdOf = (chart: ChartSpec): number => chart.song * 10 + chart.difficulty;

/**
 * The charts the sample writes a note file for (notes/<notes_setting_asset>, as many notes as the
 * chart's s_rank_combo): the Easy chart of each song, kept small. One more file is planted broken:
 * the Normal chart of song 4, whose third note sits in a lane the game does not have (10), so the
 * report shows how a bad note file is told and its chart published without notes.
 */
export const NOTED_DIFFICULTY = 1;
export const BROKEN_NOTES = { song: 4, difficulty: 2 } as const;
