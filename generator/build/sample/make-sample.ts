/**
 * Writes the invented sample export (`npm run sample`), or a synthetic export at game
 * scale for benchmarks (`--cards 4000 --accessories 600 --songs 600`). Everything is derived
 * from generator/build/sample/data.ts, so the output is byte-identical on every run.
 */
import path from 'node:path';
import fs from 'node:fs/promises';
import sharp from 'sharp';
import { Command, InvalidArgumentError } from 'commander';
import { dumpSql, type Row, type TableDump } from './sql.ts';
import { openSql } from '../input/sqlDump.ts';
import { groupBy } from '../model/values.ts';
import { encryptValues, sampleKey } from './rowEncrypt.ts';
import { encryptClientFile } from './fileEncrypt.ts';
import type { FileScheme } from '../input/fileCipher.ts';
import { SAMPLE_MARKER } from '../input/sampleMarker.ts';
import { archiveExportOptions, SAMPLE_ARCHIVE, type ArchiveExportSpec } from './sampleArchive.ts';
import type { SampleDatabase, SampleOptions } from './sampleOptions.ts';
import {
  ACCESSORIES, ALBUM_SERIES, CARDS, CENTER_SKILLS, CHARACTERS, CURATED_SETS, EVENT_REWARDS, EVENTS, GACHAS,
  KEYED_RELEASE, MEMBER_TAGS, PAIRS, RARITIES, RELEASE_DATES, REMOVABLE_SKILLS, SKILLS, TRANSLATIONS,
  SONGS, CHARTS, BROKEN_NOTES, NOTED_DIFFICULTY, chartIdOf, everyday, unitIdOf, type AccessorySpec, type CardSpec, type ChartSpec, type RewardTable, type SampleRelease, type SongSpec,
} from './data.ts';

/** Options of writeSampleArchive. */
export interface SampleArchiveOptions {
  /** The exports to write (default the whole sample archive); an archive's other folders are left as they are. */
  exports?: readonly ArchiveExportSpec[];
  /** Write pictures under each export's assets/ (default false: an archive is built whole, and pictures are no data). */
  images?: boolean;
}

const ATTRIBUTE_COLOURS: Record<number, string> = { 1: '#e8488a', 2: '#37b24d', 3: '#1c7ed6', 5: '#9c6ade' };
const RARITY_COLOURS: Record<number, string> = { 1: '#adb5bd', 2: '#74c0fc', 3: '#ffd43b', 4: '#f783ac', 5: '#b197fc' };

const iconPath = (unitId: number, idolized: boolean) =>
  `assets/image/units/${idolized ? 'u_rankup_icon' : 'u_normal_icon'}_${unitId}.png`;
const accessoryIconPath = (assetId: number) => `assets/image/accessory/icon/acc_${assetId}.png`;

/** The curated cards, then generated ordinary ones up to `count`. */
function cardSpecs(count = CARDS.length): CardSpec[] {
  const specs = [...CARDS];
  const members = CHARACTERS.filter((c) => c[3] > 0);
  for (let ordinal = CARDS.length + 1; specs.length < count; ordinal++) {
    const rarity = [1, 2, 3, 5, 4][ordinal % 5];
    const hasSkill = rarity > 1;
    specs.push({
      ordinal, type: members[ordinal % members.length][0], rarity, attribute: (ordinal % 3) + 1,
      title: hasSkill ? `カード${ordinal}` : null, titleEn: hasSkill ? `Card ${ordinal}` : undefined,
      skill: hasSkill ? (ordinal % SKILLS.length) + 1 : undefined,
      center: hasSkill ? (ordinal % CENTER_SKILLS.length) + 1 : undefined,
      series: generatedSeries(ordinal),
    });
  }
  return specs;
}

/**
 * Generated cards come in album series of this many consecutive ordinals, as the game's do
 * (a costume series: a card of each of nine members, in two rarities), so a set holds a
 * release's cards, not a third of the game.
 */
const GENERATED_SERIES_SIZE = 18;
const generatedSeries = (ordinal: number) => ALBUM_SERIES.length + 1 + Math.floor((ordinal - CARDS.length - 1) / GENERATED_SERIES_SIZE);

/** The curated album series, then one per block of generated cards: [album_series_id, name, name_en]. */
function albumSeries(cards: CardSpec[]): [number, string, string][] {
  const generated = new Set(cards.slice(CARDS.length).map((c) => c.series!));
  return [...ALBUM_SERIES, ...[...generated].map((id): [number, string, string] => [id, `第${id}章`, `Chapter ${id}`])];
}

function accessorySpecs(count = ACCESSORIES.length, cards = cardSpecs()): AccessorySpec[] {
  const specs = [...ACCESSORIES];
  const owners = cards.filter((c) => c.rarity >= 3 && !c.release);
  for (let id = ACCESSORIES.length + 1; specs.length < count; id++) {
    const owner = id % 2 === 0 ? owners[id % owners.length] : undefined;
    specs.push({
      id, name: `アクセサリー${id}`, nameEn: `Accessory ${id}`, rarity: (id % 4) + 1,
      effectType: [9, 11, 5][id % 3], triggerType: null, triggerEffectType: null, card: owner?.ordinal,
    });
  }
  return specs;
}

const rarityOf = (rarity: number) => RARITIES.find((r) => r[0] === rarity)!;

/** Stat maxima: the card's own attribute is strongest. */
function cardStats(spec: CardSpec): Row {
  const base = rarityOf(spec.rarity)[5] + (spec.ordinal % 7) * 10;
  const stat = (attr: number) => (spec.attribute === attr || spec.attribute === 5 ? base : Math.round(base * 0.6));
  return { hp_max: spec.rarity + 1, smile_max: stat(1), pure_max: stat(2), cool_max: stat(3) };
}

function unitRow(spec: CardSpec, keys: Map<number, Buffer>): Row {
  const id = unitIdOf(spec.ordinal);
  const [dru, [rankMin, rankMax]] = [spec.disableRankUp ?? 0, spec.ranks ?? [1, 2]];
  const row: Row = {
    unit_id: id, unit_number: spec.ordinal, album_series_id: spec.series ?? null, unit_type_id: spec.type,
    eponym: spec.title, eponym_en: spec.titleEn ?? null,
    name: CHARACTERS.find((c) => c[0] === spec.type)![1], name_en: CHARACTERS.find((c) => c[0] === spec.type)![2],
    normal_card_id: id * 10, rank_max_card_id: rankMin === 2 ? id * 10 : id * 10 + 1,
    normal_icon_asset: iconPath(id, rankMin === 2), rank_max_icon_asset: iconPath(id, rankMax === 2),
    rarity: spec.rarity, attribute_id: spec.attribute,
    default_unit_skill_id: spec.skill ?? null, default_leader_skill_id: spec.center ?? null,
    ...cardStats(spec), rank_min: rankMin, rank_max: rankMax, disable_rank_up: dru,
    unit_level_up_pattern_id: spec.rarity, release_tag: null, _encryption_release_id: null,
  };
  if (spec.release === 'decrypted') return { ...row, _encryption_release_id: 4 };
  return storedRow(row, 'unit_id', spec.release, keys);
}

/**
 * A row as a release stores it: `None` in its release columns ('none'), or encrypted with the
 * release's key (a number; only its `idColumn` stays in the clear), else as it is.
 */
function storedRow(row: Row, idColumn: string, release: SampleRelease | undefined, keys: Map<number, Buffer>): Row {
  if (release === 'none') return { ...row, release_tag: 'None', _encryption_release_id: 'None' };
  if (typeof release !== 'number') return row;
  const hidden: Row = Object.fromEntries(Object.keys(row).map((k) => [k, typeof row[k] === 'number' ? 0 : null]));
  const key = keys.get(release) ?? sampleKey(release);
  const { release_tag: _t, _encryption_release_id: _r, ...values } = row;
  return { ...hidden, [idColumn]: row[idColumn], release_tag: encryptValues(values, key), _encryption_release_id: release };
}

/** One level-up pattern per rarity, rows 1..after_level_max. */
function levelPatternRows(): Row[] {
  const rows: Row[] = [];
  for (const [rarity, , maxLevel] of RARITIES) {
    let exp = 0;
    for (let level = 1; level <= maxLevel; level++) {
      exp += 20 * level + rarity * 5;
      const left = maxLevel - level;
      rows.push({
        unit_level_up_pattern_id: rarity, unit_level: level, next_exp: level === maxLevel ? 0 : exp,
        hp_diff: Math.floor(left / 40), smile_diff: left * 12, pure_diff: left * 11, cool_diff: left * 10,
        merge_exp: 50 * rarity + level * 3, merge_cost: 100 * rarity + level * 10, sale_price: 10 * rarity + level,
      });
    }
  }
  return rows;
}

/** Columns of a table, typed from its first row (enough for the generated 2015 tables, whose values are all numbers). */
const columnsOf = (rows: Row[]): Record<string, string> =>
  Object.fromEntries(Object.entries(rows[0]).map(([c, v]) => [c, typeof v === 'number' ? (Number.isInteger(v) ? 'INTEGER' : 'REAL') : 'TEXT']));

/**
 * The same cards as a 2015 export keeps them: unit_m with per-card caps, `exp_base` and
 * `sale_base` but no stat maxima and no level pattern; unit_level_m with one row per card and
 * level, stats stated outright (pure named `cute`), sale price and EXP as the card's base
 * times a per-level rate. Bases are powers of two, so base * rate is the value exactly, its
 * plain floor (all the build takes, as the game does) gives it back, and the build must publish
 * the very numbers of the current shape.
 */
function asGeneration2015(tables: TableDump[]): TableDump[] {
  const caps = new Map(RARITIES.map(([rarity, bl, al, bk, ak]) => [rarity, { before_level_max: bl, after_level_max: al, before_love_max: bk, after_love_max: ak }]));
  const pattern = groupBy(levelPatternRows(), (r) => Number(r.unit_level_up_pattern_id));
  // Readable cards only (an encrypted row hides its ordinal as 0, as placeholders have it).
  const cards = tables.find((t) => t.name === 'unit_m')!.rows.filter((r) => Number(r.unit_number) > 0);
  const unitRows = cards.map((card) => ({
    ...Object.fromEntries(Object.entries(card).filter(([column]) => !NOT_IN_2015.has(column))),
    ...caps.get(Number(card.rarity)), exp_base: SALE_AND_EXP_BASE, sale_base: SALE_AND_EXP_BASE, evolution_cost_base: 1000,
  }));
  const levelRows = cards.flatMap((card) => pattern.get(Number(card.rarity))!.map((level) => ({
    unit_id: card.unit_id, unit_level: level.unit_level, next_exp: level.next_exp,
    hp: Number(card.hp_max) - Number(level.hp_diff), smile: Number(card.smile_max) - Number(level.smile_diff),
    cute: Number(card.pure_max) - Number(level.pure_diff), cool: Number(card.cool_max) - Number(level.cool_diff), skill: 0,
    exp_bonus_rate: Number(level.merge_exp) / SALE_AND_EXP_BASE, sale_bonus_rate: Number(level.sale_price) / SALE_AND_EXP_BASE,
    evolution_cost_rate: 1,
  })));
  const replaced = new Set(['unit_m', 'unit_level_up_pattern_m', 'unit_rarity_m']);
  return [
    { name: 'unit_m', columns: columnsOf(unitRows), rows: unitRows },
    { name: 'unit_level_m', columns: columnsOf(levelRows), rows: levelRows },
    ...tables.filter((t) => !replaced.has(t.name)),
  ];
}

/**
 * A power of two: value / base and base * rate are exact in floating point, so floor(base * rate)
 * is the value for every whole value (a base like 100 or 7 is not: 100 * (29 / 100) is 28.999999999999996).
 */
const SALE_AND_EXP_BASE = 4;
/** unit_m columns of later generations. */
const NOT_IN_2015 = new Set([
  'hp_max', 'smile_max', 'pure_max', 'cool_max', 'unit_level_up_pattern_id', 'rank_min', 'rank_max', 'album_series_id', 'eponym_en', 'name_en',
]);

function skillLevelRows(): Row[] {
  return SKILLS.flatMap(([id, , , effect, , maxLevel]) =>
    Array.from({ length: maxLevel }, (_, i) => ({
      unit_skill_id: id, skill_level: i + 1,
      effect_value: effect === 9 ? 1 + i : Math.round((0.5 + i * 0.25) * 100) / 100 * (effect === 11 ? 200 : 1),
      discharge_time: effect === 5 ? 2.5 + i * 0.5 : 0, trigger_value: 10 + (id % 3) * 5,
      activation_rate: 30 + i * 3, description: null,
    })));
}

function unitTables(cards: CardSpec[], accessories: AccessorySpec[], keys: Map<number, Buffer>): TableDump[] {
  const unitId = (ordinal: number) => unitIdOf(ordinal);
  const accessoryLevels = accessories.flatMap((a) => {
    const maxLevel = a.material ? 1 : 8;
    return Array.from({ length: maxLevel + 2 }, (_, i) => ({
      accessory_id: a.id, level: i + 1, next_exp: a.material ? 0 : (i + 1) * 100,
      effect_value: a.material ? 0 : 1 + i * 0.5, discharge_time: a.material ? 0 : 3 + i * 0.25,
      trigger_value: a.triggerType === 201 ? 1 : null, activation_rate: a.material ? 0 : 25 + i * 2,
      smile_diff: (maxLevel + 2 - i) * 10, pure_diff: (maxLevel + 2 - i) * 8, cool_diff: (maxLevel + 2 - i) * 6,
      grant_exp: 100 * a.rarity, merge_cost: 200 * a.rarity, sale_price: 50 * a.rarity,
    }));
  });
  return [
    {
      name: 'unit_m',
      columns: {
        unit_id: 'INTEGER PRIMARY KEY', unit_number: 'INTEGER', album_series_id: 'INTEGER', unit_type_id: 'INTEGER',
        eponym: 'TEXT', eponym_en: 'TEXT', name: 'TEXT', name_en: 'TEXT', normal_card_id: 'INTEGER',
        rank_max_card_id: 'INTEGER', normal_icon_asset: 'TEXT', rank_max_icon_asset: 'TEXT', rarity: 'INTEGER',
        attribute_id: 'INTEGER', default_unit_skill_id: 'INTEGER', default_leader_skill_id: 'INTEGER',
        hp_max: 'INTEGER', smile_max: 'INTEGER', pure_max: 'INTEGER', cool_max: 'INTEGER', rank_min: 'INTEGER',
        rank_max: 'INTEGER', disable_rank_up: 'INTEGER', unit_level_up_pattern_id: 'INTEGER',
        release_tag: 'TEXT', _encryption_release_id: 'INTEGER',
      },
      rows: [
        ...cards.map((c) => unitRow(c, keys)),
        // A placeholder row: unit_number 0 is not a card.
        { unit_id: 9999, unit_number: 0, unit_type_id: 901, name: '', rarity: 1, attribute_id: 1, hp_max: 0, smile_max: 0, pure_max: 0, cool_max: 0, rank_min: 1, rank_max: 1, disable_rank_up: 0, unit_level_up_pattern_id: 1 },
      ],
    },
    {
      name: 'unit_rarity_m',
      columns: { rarity: 'INTEGER PRIMARY KEY', before_level_max: 'INTEGER', after_level_max: 'INTEGER', before_love_max: 'INTEGER', after_love_max: 'INTEGER' },
      rows: RARITIES.map(([rarity, bl, al, bk, ak]) => ({ rarity, before_level_max: bl, after_level_max: al, before_love_max: bk, after_love_max: ak })),
    },
    {
      name: 'unit_level_up_pattern_m',
      columns: {
        unit_level_up_pattern_id: 'INTEGER', unit_level: 'INTEGER', next_exp: 'INTEGER', hp_diff: 'INTEGER',
        smile_diff: 'INTEGER', pure_diff: 'INTEGER', cool_diff: 'INTEGER', merge_exp: 'INTEGER',
        merge_cost: 'INTEGER', sale_price: 'INTEGER',
      },
      rows: levelPatternRows(),
    },
    {
      name: 'unit_type_m',
      columns: { unit_type_id: 'INTEGER PRIMARY KEY', name: 'TEXT', name_en: 'TEXT', member_category: 'INTEGER' },
      rows: CHARACTERS.map(([id, name, nameEn, category]) => ({ unit_type_id: id, name, name_en: nameEn, member_category: category })),
    },
    {
      name: 'member_tag_m',
      columns: { member_tag_id: 'INTEGER PRIMARY KEY', name: 'TEXT', name_en: 'TEXT', display_flag: 'INTEGER' },
      rows: MEMBER_TAGS.map(([id, name, nameEn, display]) => ({ member_tag_id: id, name, name_en: nameEn, display_flag: display })),
    },
    {
      name: 'unit_type_member_tag_m',
      columns: { unit_type_id: 'INTEGER', member_tag_id: 'INTEGER' },
      rows: CHARACTERS.flatMap(([id, , , , tags]) => tags.map((tag) => ({ unit_type_id: id, member_tag_id: tag }))),
    },
    {
      name: 'unit_skill_m',
      columns: {
        unit_skill_id: 'INTEGER PRIMARY KEY', name: 'TEXT', name_en: 'TEXT', max_level: 'INTEGER',
        skill_effect_type: 'INTEGER', discharge_type: 'INTEGER', trigger_type: 'INTEGER',
      },
      rows: SKILLS.map(([id, name, nameEn, effect, trigger, maxLevel]) => ({
        unit_skill_id: id, name, name_en: nameEn, max_level: maxLevel, skill_effect_type: effect,
        discharge_type: effect === 5 ? 2 : 1, trigger_type: trigger,
      })),
    },
    {
      name: 'unit_skill_level_m',
      columns: {
        unit_skill_id: 'INTEGER', skill_level: 'INTEGER', effect_value: 'REAL', discharge_time: 'REAL',
        trigger_value: 'INTEGER', activation_rate: 'INTEGER', description: 'TEXT',
      },
      rows: skillLevelRows(),
    },
    {
      name: 'unit_skill_effect_target_m',
      columns: { unit_skill_id: 'INTEGER', reference_type: 'INTEGER', effect_target: 'INTEGER' },
      rows: SKILLS.flatMap(([id, , , , , , targets]) => targets.map(([ref, target]) => ({ unit_skill_id: id, reference_type: ref, effect_target: target }))),
    },
    {
      name: 'unit_skill_trigger_target_m',
      columns: { unit_skill_id: 'INTEGER', reference_type: 'INTEGER', trigger_target: 'INTEGER' },
      rows: SKILLS.flatMap(([id, , , , , , , targets]) => targets.map(([ref, target]) => ({ unit_skill_id: id, reference_type: ref, trigger_target: target }))),
    },
    {
      name: 'unit_leader_skill_m',
      columns: { unit_leader_skill_id: 'INTEGER PRIMARY KEY', name_string_key: 'TEXT', leader_skill_effect_type: 'INTEGER', effect_value: 'INTEGER' },
      rows: CENTER_SKILLS.map(([id, key, effect, percent]) => ({ unit_leader_skill_id: id, name_string_key: key, leader_skill_effect_type: effect, effect_value: percent })),
    },
    {
      name: 'unit_leader_skill_extra_m',
      columns: { unit_leader_skill_id: 'INTEGER', member_tag_id: 'INTEGER', leader_skill_effect_type: 'INTEGER', effect_value: 'INTEGER' },
      rows: CENTER_SKILLS.filter((c) => c[4]).map(([id, , , , extra]) => ({
        unit_leader_skill_id: id, member_tag_id: extra![0], leader_skill_effect_type: extra![1], effect_value: extra![2],
      })),
    },
    {
      name: 'album_series_m',
      columns: { album_series_id: 'INTEGER PRIMARY KEY', name: 'TEXT', name_en: 'TEXT', order_num: 'INTEGER' },
      rows: albumSeries(cards).map(([id, name, nameEn]) => ({ album_series_id: id, name, name_en: nameEn, order_num: id })),
    },
    {
      name: 'unit_pair_m',
      columns: { unit_pair_id: 'INTEGER PRIMARY KEY', pair: 'INTEGER', unit_id: 'INTEGER', position: 'INTEGER', rank: 'INTEGER' },
      rows: PAIRS.flatMap(([pair, a, b]) => [a, b].map(([ordinal, rank], position) => ({
        unit_pair_id: pair * 2 - 1 + position, pair, unit_id: unitId(ordinal), position, rank,
      }))),
    },
    {
      name: 'accessory_m',
      columns: {
        accessory_id: 'INTEGER PRIMARY KEY', name: 'TEXT', name_en: 'TEXT', rarity: 'INTEGER', smile_max: 'INTEGER',
        pure_max: 'INTEGER', cool_max: 'INTEGER', is_material: 'INTEGER', effect_type: 'INTEGER',
        default_max_level: 'INTEGER', max_level: 'INTEGER', accessory_asset_id: 'INTEGER', trigger_type: 'INTEGER',
        trigger_effect_type: 'INTEGER', open_date: 'TEXT',
      },
      rows: accessories.map((a) => ({
        accessory_id: a.id, name: a.name, name_en: a.nameEn, rarity: a.rarity, smile_max: 300 * a.rarity,
        pure_max: 250 * a.rarity, cool_max: 200 * a.rarity, is_material: a.material ? 1 : 0, effect_type: a.effectType,
        default_max_level: a.material ? 1 : 4, max_level: a.material ? 1 : 8, accessory_asset_id: 500 + a.id,
        trigger_type: a.triggerType, trigger_effect_type: a.triggerEffectType, open_date: '2020/01/01 00:00:00',
      })),
    },
    {
      name: 'accessory_level_m',
      columns: {
        accessory_id: 'INTEGER', level: 'INTEGER', next_exp: 'INTEGER', effect_value: 'REAL', discharge_time: 'REAL',
        trigger_value: 'INTEGER', activation_rate: 'INTEGER', smile_diff: 'INTEGER', pure_diff: 'INTEGER',
        cool_diff: 'INTEGER', grant_exp: 'INTEGER', merge_cost: 'INTEGER', sale_price: 'INTEGER',
      },
      rows: accessoryLevels,
    },
    {
      name: 'accessory_effect_target_m',
      columns: { accessory_id: 'INTEGER', reference_type: 'INTEGER', effect_target: 'INTEGER' },
      rows: accessories.flatMap((a) => (a.targets ?? []).map(([ref, target]) => ({ accessory_id: a.id, reference_type: ref, effect_target: target }))),
    },
    {
      name: 'accessory_special_m',
      columns: { accessory_id: 'INTEGER', unit_id: 'INTEGER' },
      rows: accessories.filter((a) => a.card).map((a) => ({ accessory_id: a.id, unit_id: unitId(a.card!) })),
    },
    {
      name: 'accessory_asset_m',
      columns: { accessory_asset_id: 'INTEGER PRIMARY KEY', icon_asset: 'TEXT' },
      rows: accessories.map((a) => ({ accessory_asset_id: 500 + a.id, icon_asset: accessoryIconPath(500 + a.id) })),
    },
    removableSkillTable(),
  ];
}

/** unit_removable_skill_m with the columns real exports have. */
function removableSkillTable(): TableDump {
  return {
    name: 'unit_removable_skill_m',
    columns: {
      unit_removable_skill_id: 'INTEGER PRIMARY KEY', name: 'TEXT', name_en: 'TEXT', skill_type: 'INTEGER', unit_rarity: 'INTEGER',
      level: 'INTEGER', icon_asset: 'TEXT', bond_asset: 'TEXT', size: 'INTEGER', description: 'TEXT', description_en: 'TEXT',
      effect_range: 'INTEGER', effect_type: 'INTEGER', effect_value: 'REAL', fixed_value_flag: 'INTEGER',
      target_reference_type: 'INTEGER', target_type: 'INTEGER', trigger_reference_type: 'INTEGER', trigger_type: 'INTEGER',
      sub_skill_id: 'INTEGER', selling_price: 'INTEGER', release_tag: 'TEXT', _encryption_release_id: 'INTEGER',
    },
    rows: REMOVABLE_SKILLS.map((k) => ({
      unit_removable_skill_id: k.id, name: k.name, name_en: k.nameEnColumn ?? null, skill_type: 1, unit_rarity: null, level: 1,
      icon_asset: `assets/image/skill/s_${k.id}.png`, bond_asset: `assets/image/skill/b_${k.id}.png`, size: k.size,
      description: k.description, description_en: null, effect_range: k.effectType === 3 ? 2 : 1, effect_type: k.effectType,
      effect_value: k.effectValue, fixed_value_flag: k.effectType === 1 ? 1 : 0, target_reference_type: 0, target_type: 0,
      trigger_reference_type: k.trigger?.[0] ?? 0, trigger_type: k.trigger?.[1] ?? 0, sub_skill_id: null,
      selling_price: 500 * k.size, release_tag: null, _encryption_release_id: null,
    })),
  };
}

/** The English client's export: texts only, and missing the newest cards. */
function englishTables(cards: CardSpec[], accessories: AccessorySpec[]): TableDump[] {
  return [
    {
      name: 'unit_m',
      columns: { unit_id: 'INTEGER PRIMARY KEY', unit_number: 'INTEGER', eponym: 'TEXT', name: 'TEXT', release_tag: 'TEXT', _encryption_release_id: 'INTEGER' },
      rows: cards.filter((c) => !c.notInEnglish).map((c) => ({
        unit_id: unitIdOf(c.ordinal), unit_number: c.ordinal, eponym: c.title ? (c.titleEn ?? null) : null,
        name: CHARACTERS.find((ch) => ch[0] === c.type)![2], release_tag: null, _encryption_release_id: null,
      })),
    },
    { name: 'unit_type_m', columns: { unit_type_id: 'INTEGER PRIMARY KEY', name: 'TEXT' }, rows: CHARACTERS.map(([id, , en]) => ({ unit_type_id: id, name: en })) },
    { name: 'member_tag_m', columns: { member_tag_id: 'INTEGER PRIMARY KEY', name: 'TEXT' }, rows: MEMBER_TAGS.map(([id, , en]) => ({ member_tag_id: id, name: en })) },
    { name: 'unit_skill_m', columns: { unit_skill_id: 'INTEGER PRIMARY KEY', name: 'TEXT' }, rows: SKILLS.map(([id, , en]) => ({ unit_skill_id: id, name: en })) },
    { name: 'album_series_m', columns: { album_series_id: 'INTEGER PRIMARY KEY', name: 'TEXT' }, rows: albumSeries(cards).map(([id, , en]) => ({ album_series_id: id, name: en })) },
    { name: 'accessory_m', columns: { accessory_id: 'INTEGER PRIMARY KEY', name: 'TEXT' }, rows: accessories.map((a) => ({ accessory_id: a.id, name: a.nameEn })) },
    {
      name: 'unit_removable_skill_m',
      columns: { unit_removable_skill_id: 'INTEGER PRIMARY KEY', name: 'TEXT' },
      rows: REMOVABLE_SKILLS.filter((k) => k.nameEn).map((k) => ({ unit_removable_skill_id: k.id, name: k.nameEn! })),
    },
  ];
}

/** Local times as the client writes them: the hour without a leading zero. */
const localTime = (ms: number) => {
  const [date, time] = new Date(ms).toISOString().slice(0, 19).split('T');
  return `${date.replace(/-/g, '/')} ${time.replace(/^0(\d)/, '$1')}`;
};

/** Milliseconds of a local time string, read as if UTC: only differences of days matter here. */
const localMs = (s: string) => {
  const [y, mo, d, h, mi, sec] = s.split(/[/ :]/).map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, sec);
};

/** A reward table and its parent table, one parent row per reward. */
function rewardTables(kind: RewardTable): TableDump[] {
  const rewards = EVENT_REWARDS.filter(([, table]) => table === kind);
  const parentId = `event_${kind}_id`;
  const step: Record<string, string> = kind === 'point_count' ? { point_count: 'INTEGER' } : { rank_min: 'INTEGER', rank_max: 'INTEGER' };
  return [
    {
      name: `event_${kind}_m`,
      columns: { [parentId]: 'INTEGER PRIMARY KEY', event_id: 'INTEGER', ...step },
      rows: rewards.map(([event], i) => ({ [parentId]: i + 1, event_id: event, point_count: (i + 1) * 10000, rank_min: i * 100 + 1, rank_max: (i + 1) * 100 })),
    },
    {
      name: `event_${kind}_reward_m`,
      columns: { [`event_${kind}_reward_id`]: 'INTEGER PRIMARY KEY', [parentId]: 'INTEGER', add_type: 'INTEGER', item_id: 'INTEGER', amount: 'INTEGER' },
      rows: rewards.map(([, , addType, item], i) => ({
        [`event_${kind}_reward_id`]: i + 1, [parentId]: i + 1, add_type: addType, item_id: addType === 1001 ? unitIdOf(item) : item, amount: 1,
      })),
    },
  ];
}

function eventTables(): TableDump[] {
  return [
    {
      name: 'event_m',
      columns: { event_id: 'INTEGER PRIMARY KEY', event_category_id: 'INTEGER', name: 'TEXT', start_date: 'TEXT', end_date: 'TEXT', close_date: 'TEXT' },
      rows: EVENTS.map(([id, name, start, days, category]) => {
        const end = localMs(start) + days * 86400e3 - 3600e3;
        return { event_id: id, event_category_id: category, name, start_date: start, end_date: localTime(end), close_date: localTime(end + 3 * 86400e3) };
      }),
    },
    ...(['point_count', 'point_ranking', 'live_ranking'] as const).flatMap(rewardTables),
  ];
}

/** The English client's event_common: the names it has. */
function englishEventTables(): TableDump[] {
  return [{
    name: 'event_m',
    columns: { event_id: 'INTEGER PRIMARY KEY', name: 'TEXT' },
    rows: EVENTS.filter((e) => e[5]).map(([id, , , , , nameEn]) => ({ event_id: id, name: nameEn })),
  }];
}

const RELEASE_COLUMNS = { release_tag: 'TEXT', _encryption_release_id: 'INTEGER' };
const RANKS = ['c', 'b', 'a', 's'] as const;
/** live_difficulty_id of a chart's play: 1 normal, 2 special, 3 free, then the chart's id (below 100,000: songs below 10,000). */
const PLAY_OFFSET = { normal: 100000, special: 200000, free: 300000 } as const;

interface SongsAndCharts {
  songs: SongSpec[];
  charts: ChartSpec[];
}

/** The curated songs and charts, then generated songs up to `count`, each with five charts (Easy to Master). */
function songSpecs(count = SONGS.length): SongsAndCharts {
  const songs = [...SONGS];
  const charts = [...CHARTS];
  for (let id = SONGS.length + 1; songs.length < count; id++) {
    songs.push({ id, name: `うた${id}`, nameEn: `Song ${id}`, group: (id % 2) + 1, seconds: 90 + (id % 60) });
    charts.push(...everyday(id, 300 + (id % 300)), { song: id, difficulty: 6, stars: 11 + (id % 2), notes: 600 + (id % 300), play: 'special' });
  }
  return { songs, charts };
}

/** The live database: songs, their lengths, charts with thresholds, and how each chart is played. */
function liveTables({ songs, charts }: SongsAndCharts, keys: Map<number, Buffer>): TableDump[] {
  const plays = (kind: keyof typeof PLAY_OFFSET) => charts.filter((c) => c.play === kind)
    .map((c) => ({ live_difficulty_id: PLAY_OFFSET[kind] + chartIdOf(c), live_setting_id: chartIdOf(c) }));
  const cost = (chartId: number) => ({ capital_type: 1, capital_value: [5, 10, 15, 25, 25, 25][(chartId % 10) - 1] });
  return [
    {
      name: 'live_track_m',
      columns: {
        live_track_id: 'INTEGER PRIMARY KEY', name: 'TEXT', name_en: 'TEXT', name_kana: 'TEXT', title_asset: 'TEXT', sound_asset: 'TEXT',
        member_category: 'INTEGER', unit_type_id: 'INTEGER', ...RELEASE_COLUMNS,
      },
      rows: songs.map((s) => storedRow({
        live_track_id: s.id, name: s.name, name_en: s.nameEnColumn ?? null, name_kana: `うた${s.id}`, title_asset: `assets/image/live/title/t_${s.id}.png`,
        sound_asset: `assets/sound/music/m_${s.id}.mp3`, member_category: s.group, unit_type_id: s.unitType ?? null, release_tag: null, _encryption_release_id: null,
      }, 'live_track_id', s.release, keys)),
    },
    {
      name: 'live_time_m',
      columns: { live_track_id: 'INTEGER PRIMARY KEY', live_time: 'REAL' },
      rows: songs.filter((s) => s.seconds !== undefined).map((s) => ({ live_track_id: s.id, live_time: s.seconds! })),
    },
    {
      name: 'live_setting_m',
      columns: {
        live_setting_id: 'INTEGER PRIMARY KEY', live_track_id: 'INTEGER', difficulty: 'INTEGER', stage_level: 'INTEGER', attribute_icon_id: 'INTEGER',
        notes_setting_asset: 'TEXT', ...Object.fromEntries(RANKS.flatMap((r) => [[`${r}_rank_score`, 'INTEGER'], [`${r}_rank_combo`, 'INTEGER']])),
        ac_flag: 'INTEGER', swing_flag: 'INTEGER', lane_count: 'INTEGER', ...RELEASE_COLUMNS,
      },
      rows: charts.map((c) => storedRow({
        live_setting_id: chartIdOf(c), live_track_id: c.song, difficulty: c.difficulty, stage_level: c.stars, attribute_icon_id: ((c.song - 1) % 3) + 1,
        notes_setting_asset: notesAssetOf(c),
        ...Object.fromEntries(RANKS.flatMap((r, i) => [[`${r}_rank_score`, c.notes * 100 * (i + 1)], [`${r}_rank_combo`, Math.ceil(c.notes * [0.3, 0.5, 0.7, 1][i])]])),
        ac_flag: c.ac ?? 0, swing_flag: c.swing ?? 0, lane_count: 9, release_tag: null, _encryption_release_id: null,
      }, 'live_setting_id', c.release, keys)),
    },
    {
      name: 'normal_live_m',
      columns: { live_difficulty_id: 'INTEGER PRIMARY KEY', live_setting_id: 'INTEGER', capital_type: 'INTEGER', capital_value: 'INTEGER', default_unlocked_flag: 'INTEGER' },
      rows: plays('normal').map((p) => ({ ...p, ...cost(p.live_setting_id), default_unlocked_flag: 1 })),
    },
    {
      name: 'special_live_m',
      columns: { live_difficulty_id: 'INTEGER PRIMARY KEY', live_setting_id: 'INTEGER', capital_type: 'INTEGER', capital_value: 'INTEGER' },
      rows: plays('special').map((p) => ({ ...p, ...cost(p.live_setting_id) })),
    },
    {
      name: 'free_live_m',
      columns: { live_difficulty_id: 'INTEGER PRIMARY KEY', live_setting_id: 'INTEGER', random_flag: 'INTEGER' },
      rows: plays('free').map((p) => ({ ...p, random_flag: 1 })),
    },
    {
      name: 'special_live_rotation_m',
      columns: { rotation_group_id: 'INTEGER', live_difficulty_id: 'INTEGER', base_date: 'TEXT' },
      rows: plays('special').map((p, i) => ({ rotation_group_id: 1, live_difficulty_id: p.live_difficulty_id, base_date: `2016/0${i + 1}/01 0:00:00` })),
    },
  ];
}

/** The note file a chart's live_setting_m row names (notes_setting_asset). */
const notesAssetOf = (chart: ChartSpec) => `${String(chart.song).padStart(4, '0')}_${chart.difficulty}.json`;

const round3 = (value: number) => Math.round(value * 1000) / 1000;
/** Lanes of a chart's notes in turn: the middle lane most, as charts have it. */
const LANE_PATTERN = [5, 4, 6, 3, 7, 5, 2, 8, 1, 9, 5, 6];

/**
 * A chart's notes as the game's note file has them: as many as its s_rank_combo, spread over its
 * song's length, a star every 11th note, a hold every 7th, swings (and swing holds) in song 3's
 * charts, event notes in song 7's; deterministic.
 */
function chartNotes(chart: ChartSpec, song: SongSpec): Row[] {
  const step = ((song.seconds ?? 100) - 8) / chart.notes;
  const swings = chart.song === 3;
  return Array.from({ length: chart.notes }, (_, i) => {
    const effect = i % 11 === 5 ? 4 : i % 7 === 3 ? (swings && i % 2 ? 13 : 3) : swings && i % 4 === 0 ? 11 : chart.song === 7 && i % 9 === 0 ? 2 : 1;
    return {
      timing_sec: round3(2 + i * step), notes_attribute: ((chart.song - 1) % 3) + 1, notes_level: swings && effect >= 11 ? 1 + Math.floor(i / 8) : 1,
      effect, effect_value: effect === 3 || effect === 13 ? 0.5 + (i % 4) * 0.25 : 2, position: LANE_PATTERN[i % LANE_PATTERN.length],
    };
  });
}

/** The note files of the charts `which` asks for, by their path under the export folder (the game's compact JSON). */
function noteFiles({ songs, charts }: SongsAndCharts, which: NonNullable<SampleOptions['notes']>): Map<string, string> {
  const files = new Map<string, string>();
  if (which === 'none') return files;
  // Rows stored encrypted under a key the sample does not give are unreadable: such a chart (or a chart of such a song) is left out.
  const readable = (release: SampleRelease | undefined) => typeof release !== 'number' || release === KEYED_RELEASE;
  const songOf = new Map(songs.filter((s) => readable(s.release)).map((s) => [s.id, s]));
  const wanted = (chart: ChartSpec) => which === 'all' || (chart.difficulty === NOTED_DIFFICULTY && chart.song <= SONGS.length);
  for (const chart of charts) {
    const song = songOf.get(chart.song);
    if (song && readable(chart.release) && wanted(chart)) files.set(`notes/${notesAssetOf(chart)}`, JSON.stringify(chartNotes(chart, song)));
  }
  if (which === 'sample') {
    const chart = charts.find((c) => c.song === BROKEN_NOTES.song && c.difficulty === BROKEN_NOTES.difficulty)!;
    const notes = chartNotes(chart, songOf.get(chart.song)!).slice(0, 3);
    notes[2] = { ...notes[2], position: 10 };
    files.set(`notes/${notesAssetOf(chart)}`, JSON.stringify(notes));
  }
  return files;
}

/** The English client's live database: the song names it has. */
function englishLiveTables({ songs }: SongsAndCharts): TableDump[] {
  return [{
    name: 'live_track_m',
    columns: { live_track_id: 'INTEGER PRIMARY KEY', name: 'TEXT' },
    rows: songs.filter((s) => s.nameEn).map((s) => ({ live_track_id: s.id, name: s.nameEn! })),
  }];
}

/** Writes a database as the format asks; returns its path. */
async function writeDatabase(dir: string, group: string, name: string, tables: TableDump[], options: SampleOptions): Promise<string> {
  const sql = dumpSql(tables);
  if ((options.format ?? 'sql') === 'sql') {
    await outputFile(path.join(dir, `${name}.sql`), sql);
    return path.join(dir, `${name}.sql`);
  }
  const file = path.join(dir, 'db', group, `${name}.db_`);
  await fs.rm(file, { force: true });
  await fs.mkdir(path.dirname(file), { recursive: true });
  openSql(sql, file).close();
  if (options.encrypt) await fs.writeFile(file, encryptClientFile(await fs.readFile(file), options.encrypt, `${name}.db_`));
  return file;
}

/** `jp-v3`, `ww-v2`... as the command line names a client encryption. */
function parseScheme(value: string): FileScheme {
  const match = /^(jp|ww|tw|cn)-v([1-6])$/.exec(value);
  if (!match) throw new InvalidArgumentError(`expected <region>-v<version>, region jp, ww, tw or cn, version 1 to 6`);
  return { region: match[1] as FileScheme['region'], version: Number(match[2]) as FileScheme['version'] };
}

function parseNotes(value: string): SampleOptions['notes'] {
  if (value !== 'sample' && value !== 'all' && value !== 'none') throw new InvalidArgumentError('expected sample, all or none');
  return value;
}

function parseGeneration(value: string): SampleOptions['generation'] {
  if (value !== 'current' && value !== '2015') throw new InvalidArgumentError('expected current or 2015');
  return value;
}

/** Writes `data` at `file`, making its folder first. */
async function outputFile(file: string, data: string | Buffer) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, data);
}

/** A small square icon: attribute colour inside a rarity-coloured frame; idolized ones carry a star. */
async function icon(file: string, attribute: number, rarity: number, idolized: boolean) {
  const star = idolized ? '<polygon points="64,22 76,54 110,54 82,74 92,106 64,86 36,106 46,74 18,54 52,54" fill="#fff"/>' : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128">
<rect width="128" height="128" fill="${RARITY_COLOURS[rarity] ?? '#ccc'}"/>
<rect x="8" y="8" width="112" height="112" rx="12" fill="${ATTRIBUTE_COLOURS[attribute] ?? '#888'}"/>${star}</svg>`;
  await outputFile(file, await sharp(Buffer.from(svg)).png().toBuffer());
}

/** Pictures for most cards and accessories; a few are missing and one is broken on purpose. */
async function writeImages(dir: string, cards: CardSpec[], accessories: AccessorySpec[]) {
  const missing = new Set([9, 36]);
  for (const card of cards.slice(0, CARDS.length)) {
    if (missing.has(card.ordinal)) continue;
    const id = unitIdOf(card.ordinal);
    const [rankMin, rankMax] = card.ranks ?? [1, 2];
    if (rankMin === 1) await icon(path.join(dir, iconPath(id, false)), card.attribute, card.rarity, false);
    if (rankMax === 2 && card.ordinal !== 20) await icon(path.join(dir, iconPath(id, true)), card.attribute, card.rarity, true);
  }
  // Ordinal 27's idolized icon is a truncated PNG: a warning, never a failed build.
  const broken = path.join(dir, iconPath(unitIdOf(27), true));
  await fs.writeFile(broken, (await fs.readFile(broken)).subarray(0, 40));
  for (const a of accessories.slice(0, ACCESSORIES.length)) {
    if (a.icon === false) continue;
    await icon(path.join(dir, accessoryIconPath(500 + a.id)), 5, a.rarity, false);
  }
}

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

const SAMPLE_NOTE = 'An invented export (npm run sample). A build refuses this folder once it holds other databases: '
  + 'put a real export in a folder of its own and build it with --input <folder>, or delete these files and this one.';

export async function writeSampleExport(dir: string, options: SampleOptions = {}): Promise<void> {
  if (options.encrypt && options.format !== 'sqlite') throw new Error('encrypting the sample needs the client layout (format sqlite)');
  const cards = cardSpecs(options.cards);
  const accessories = accessorySpecs(options.accessories, cards);
  const keys = new Map([[KEYED_RELEASE, sampleKey(KEYED_RELEASE)]]);
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  const songs = songSpecs(options.songs);
  const english = { unit: englishTables(cards, accessories), event_common: englishEventTables(), live: englishLiveTables(songs) };
  const edited = (database: SampleDatabase, tables: TableDump[]) => options.edit?.(database, tables, english[database]) ?? tables;
  const unit = edited('unit', unitTables(cards, accessories, keys));
  const written = [
    await writeDatabase(dir, 'unit', 'unit', options.generation === '2015' ? asGeneration2015(unit) : unit, options),
    await writeDatabase(dir, 'event', 'event_common', edited('event_common', eventTables()), options),
    await writeDatabase(dir, 'live', 'live', edited('live', liveTables(songs, keys)), options),
  ];
  if (options.english !== false) {
    written.push(
      await writeDatabase(path.join(dir, 'en'), 'unit', 'unit', english.unit, options),
      await writeDatabase(path.join(dir, 'en'), 'event', 'event_common', english.event_common, options),
      await writeDatabase(path.join(dir, 'en'), 'live', 'live', english.live, options),
    );
  }
  const meta = options.meta === undefined ? { truth_version: 'sample-2026.11', region: 'jp' } : options.meta;
  const curated: Record<string, unknown> = {
    'release_info.json': { [KEYED_RELEASE]: sampleKey(KEYED_RELEASE).toString('base64') },
    ...(meta === null ? {} : { 'meta.json': meta }),
    ...(options.crowd === false ? {} : {
      'release_dates.json': RELEASE_DATES,
      'sets.json': CURATED_SETS,
      'gachas.json': GACHAS,
      ...Object.fromEntries(Object.entries(TRANSLATIONS).map(([file, table]) => [`translations/${file}`, table])),
    }),
  };
  for (const [rel, value] of Object.entries(curated)) await outputFile(path.join(dir, rel), json(value));
  const notes = noteFiles(songs, options.notes ?? 'sample');
  for (const [rel, text] of notes) await outputFile(path.join(dir, rel), text);
  const files = [...written.map((file) => path.relative(dir, file).split(path.sep).join('/')), ...Object.keys(curated), ...notes.keys()].sort();
  await fs.writeFile(path.join(dir, SAMPLE_MARKER), json({ note: SAMPLE_NOTE, files }));
  if (options.images !== false) await writeImages(dir, cards, accessories);
}

/**
 * Writes the sample archive (sampleArchive.ts: exports of several regions and dates, one folder
 * each, for `npm run build -- --archive`) into `dir`; returns what each export written is.
 */
export async function writeSampleArchive(dir: string, { exports = SAMPLE_ARCHIVE, images = false }: SampleArchiveOptions = {}): Promise<readonly ArchiveExportSpec[]> {
  for (const spec of exports) await writeSampleExport(path.join(dir, spec.rel), { ...archiveExportOptions(spec), images });
  return exports;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const program = new Command('make-sample')
    .description('Write the invented sample export (or a synthetic one at game scale)')
    .option('--out <dir>', 'output folder', 'input')
    .option('--cards <n>', 'total cards', (v) => Number.parseInt(v, 10))
    .option('--accessories <n>', 'total accessories', (v) => Number.parseInt(v, 10))
    .option('--songs <n>', 'total songs (each generated one with five charts)', (v) => Number.parseInt(v, 10))
    .option('--format <format>', 'sql (readable dumps) or sqlite (client layout)', 'sql')
    .option('--no-images', 'skip pictures')
    .option('--notes <which>', 'note files: sample (the Easy chart of each curated song, and one planted broken), all (every readable chart: game-scale builds) or none', parseNotes, 'sample')
    .option('--encrypt <scheme>', 'with --format sqlite: encrypt as a device stores the files (jp-v3, ww-v2, tw-v1, cn-v4...)', parseScheme)
    .option('--generation <generation>', 'current, or 2015 (the oldest unit database shape: unit_level_m)', parseGeneration, 'current')
    .option('--archive <dir>', 'write the sample archive there instead: exports of several regions and dates, one folder each, without pictures (npm run build -- --archive <dir>)');
  program.parse();
  const opts = program.opts();
  if (opts.archive !== undefined) {
    // Each export of the archive has a shape of its own (sampleArchive.ts): the options of one export do not apply.
    const given = ['out', 'cards', 'accessories', 'songs', 'format', 'encrypt', 'generation', 'notes'].filter((name) => program.getOptionValueSource(name) === 'cli');
    if (given.length) program.error(`--archive writes exports of its own shapes; it takes none of ${given.map((name) => `--${name}`).join(', ')}`);
    const exports = await writeSampleArchive(opts.archive);
    console.log(`sample archive written to ${opts.archive}: ${exports.map((e) => e.rel).join(', ')}`);
  } else {
    await writeSampleExport(opts.out, { cards: opts.cards, accessories: opts.accessories, songs: opts.songs, format: opts.format, images: opts.images, encrypt: opts.encrypt, generation: opts.generation, notes: opts.notes });
    console.log(`sample export written to ${opts.out}`);
  }
}
