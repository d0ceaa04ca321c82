/**
 * Small unit databases built in code, in both schema generations.
 * Each fixture card is a partial unit_m row; everything else is filled in here.
 */
import type { Row, TableDump } from '../generator/build/sample/sql.ts';

export type Schema = 'modern' | 'legacy';

/** Level caps per rarity: [before_level_max, after_level_max, before_love_max, after_love_max]. */
const CAPS: Record<number, [number, number, number, number]> = { 1: [3, 5, 10, 20], 4: [6, 8, 50, 100] };

const defaults = (schema: Schema, card: Row): Row => {
  const rarity = Number(card.rarity ?? 1);
  const [bl, al, bk, ak] = CAPS[rarity] ?? [0, 0, 0, 0]; // encrypted rows hide their rarity
  const common: Row = {
    unit_id: 1, unit_number: 1, unit_type_id: 10, eponym: null, name: 'テスト', rarity, attribute_id: 1,
    default_unit_skill_id: null, default_leader_skill_id: null, disable_rank_up: 0, unit_level_up_pattern_id: 1,
    hp_max: 4, smile_max: 1000, pure_max: 800, cool_max: 600, normal_icon_asset: null, rank_max_icon_asset: null,
    normal_card_id: 11, rank_max_card_id: 12, release_tag: null, _encryption_release_id: null,
  };
  return schema === 'legacy'
    ? { ...common, before_level_max: bl, after_level_max: al, before_love_max: bk, after_love_max: ak, ...card }
    : { ...common, rank_min: 1, rank_max: 2, album_series_id: null, eponym_en: null, name_en: null, ...card };
};

const columnsOf = (rows: Row[]): Record<string, string> =>
  Object.fromEntries([...new Set(rows.flatMap((r) => Object.keys(r)))].map((c) => [c, ''])); // no affinity: values stay as written

/** A pattern of 8 levels: diff shrinks by 10 a level, next_exp grows by 100 a level (cumulative). */
export function levelPattern(id = 1, levels = 8): Row[] {
  return Array.from({ length: levels }, (_, i) => ({
    unit_level_up_pattern_id: id, unit_level: i + 1, next_exp: (i + 1) * 100, hp_diff: levels - i > 4 ? 1 : 0,
    smile_diff: (levels - 1 - i) * 10, pure_diff: (levels - 1 - i) * 5, cool_diff: 0,
    merge_exp: 10 + i, merge_cost: 100, sale_price: 20 + i,
  }));
}

export interface FixtureOptions {
  cards: Row[];
  /** Table names to leave out, to test required and optional tables. */
  without?: string[];
  extra?: TableDump[];
}

/** A complete unit database around the given cards. */
export function unitTables(schema: Schema, options: FixtureOptions): TableDump[] {
  const cards = options.cards.map((c) => defaults(schema, c));
  const tables: TableDump[] = [
    { name: 'unit_m', columns: columnsOf(cards), rows: cards },
    { name: 'unit_level_up_pattern_m', columns: columnsOf(levelPattern()), rows: levelPattern() },
    {
      name: 'unit_type_m',
      columns: { unit_type_id: 'INTEGER', name: 'TEXT', member_category: 'INTEGER' },
      rows: [{ unit_type_id: 10, name: 'テスト', member_category: 1 }, { unit_type_id: 20, name: 'ほか', member_category: 2 }],
    },
    {
      name: 'member_tag_m',
      columns: { member_tag_id: 'INTEGER', name: 'TEXT', display_flag: 'INTEGER' },
      rows: [
        { member_tag_id: 2, name: '2年生', display_flag: 1 },
        { member_tag_id: 4, name: 'グループ', display_flag: 1 },
        { member_tag_id: 6, name: 'ユニット', display_flag: 1 },
        { member_tag_id: 7, name: 'ひみつ', display_flag: 0 },
      ],
    },
    {
      name: 'unit_type_member_tag_m',
      columns: { unit_type_id: 'INTEGER', member_tag_id: 'INTEGER' },
      rows: [[10, 2], [10, 4], [10, 6], [10, 7], [20, 4]].map(([t, m]) => ({ unit_type_id: t, member_tag_id: m })),
    },
    {
      name: 'unit_skill_m',
      columns: { unit_skill_id: 'INTEGER', name: 'TEXT', max_level: 'INTEGER', skill_effect_type: 'INTEGER', discharge_type: 'INTEGER', trigger_type: 'INTEGER' },
      rows: [{ unit_skill_id: 5, name: 'スキル', max_level: 2, skill_effect_type: 11, discharge_type: 1, trigger_type: 3 }],
    },
    {
      name: 'unit_skill_level_m',
      columns: { unit_skill_id: 'INTEGER', skill_level: 'INTEGER', effect_value: 'REAL', discharge_time: 'REAL', trigger_value: 'INTEGER', activation_rate: 'INTEGER' },
      // Stored out of level order on purpose: arrays must come out in level order.
      rows: [
        { unit_skill_id: 5, skill_level: 2, effect_value: 2.5, discharge_time: 1.5, trigger_value: 20, activation_rate: 40 },
        { unit_skill_id: 5, skill_level: 1, effect_value: 1.25, discharge_time: 1, trigger_value: 25, activation_rate: 30 },
      ],
    },
    {
      name: 'unit_leader_skill_m',
      columns: schema === 'legacy'
        ? { unit_leader_skill_id: 'INTEGER', name: 'TEXT', description: 'TEXT', leader_skill_effect_type: 'INTEGER', effect_value: 'INTEGER' }
        : { unit_leader_skill_id: 'INTEGER', name_string_key: 'TEXT', leader_skill_effect_type: 'INTEGER', effect_value: 'INTEGER' },
      rows: [
        { unit_leader_skill_id: 3, name: 'センター', name_string_key: 'key_3', description: '', leader_skill_effect_type: 1, effect_value: 9 },
        { unit_leader_skill_id: 4, name: 'センター2', name_string_key: 'key_4', description: '', leader_skill_effect_type: 2, effect_value: 6 },
      ],
    },
    {
      name: 'unit_leader_skill_extra_m',
      columns: { unit_leader_skill_id: 'INTEGER', member_tag_id: 'INTEGER', leader_skill_effect_type: 'INTEGER', effect_value: 'INTEGER' },
      rows: [{ unit_leader_skill_id: 3, member_tag_id: 4, leader_skill_effect_type: 1, effect_value: 3 }],
    },
  ];
  if (schema === 'modern') {
    tables.push({
      name: 'unit_rarity_m',
      columns: { rarity: 'INTEGER', before_level_max: 'INTEGER', after_level_max: 'INTEGER', before_love_max: 'INTEGER', after_love_max: 'INTEGER' },
      rows: Object.entries(CAPS).map(([rarity, [bl, al, bk, ak]]) => ({
        rarity: Number(rarity), before_level_max: bl, after_level_max: al, before_love_max: bk, after_love_max: ak,
      })),
    });
  }
  const without = new Set(options.without ?? []);
  return [...tables.filter((t) => !without.has(t.name)), ...(options.extra ?? [])];
}

/** An event_m row: a partial row, the rest filled in (no close_date unless given). */
export const eventRow = (event: Row): Row => ({
  event_id: 1, event_category_id: 1, name: `イベント${event.event_id ?? 1}`,
  start_date: '2020/01/01 16:00:00', end_date: '2020/01/10 15:00:00', close_date: null, ...event,
});

/** One reward: [event_id, item_id, add_type (default 1001, a card)]. */
export type Reward = [number, number, number?];

/** The three reward tables of event_common, each with its parent table naming the event. */
export interface EventRewards {
  pointCount?: Reward[];
  pointRanking?: Reward[];
  liveRanking?: Reward[];
}

/** A parent table (one row per reward, naming its event) and its reward table. */
function rewardTables(kind: string, rewards: Reward[]): TableDump[] {
  const parentId = `event_${kind}_id`;
  const parents = rewards.map(([event], i) => ({ [parentId]: i + 1, event_id: event, ...(kind === 'point_count' ? { point_count: (i + 1) * 1000 } : { rank_min: i + 1, rank_max: i + 1 }) }));
  const rows = rewards.map(([, item, addType = 1001], i) => ({
    [`event_${kind}_reward_id`]: i + 1, [parentId]: i + 1, add_type: addType, item_id: item, amount: 1,
  }));
  return [
    { name: `event_${kind}_m`, columns: columnsOf(parents), rows: parents },
    { name: `event_${kind}_reward_m`, columns: columnsOf(rows), rows },
  ];
}

/** An event_common database: event_m and whichever reward tables are given. */
export function eventTables(events: Row[], rewards: EventRewards = {}): TableDump[] {
  const rows = events.map(eventRow);
  const tables: TableDump[] = [{ name: 'event_m', columns: columnsOf(rows), rows }];
  if (rewards.pointCount) tables.push(...rewardTables('point_count', rewards.pointCount));
  if (rewards.pointRanking) tables.push(...rewardTables('point_ranking', rewards.pointRanking));
  if (rewards.liveRanking) tables.push(...rewardTables('live_ranking', rewards.liveRanking));
  return tables;
}
