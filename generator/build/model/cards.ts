/** Cards (unit_m) with their caps, flags, per-level stats and linked skills. */
import type { MasterDb, DbRow } from '../input/masterDb.ts';
import type { Findings } from '../findings.ts';
import type { Card, CenterSkill, Character, LevelStats, Skill, Writable } from './types.ts';
import type { EnglishTexts } from './english.ts';
import { assetPath, groupBy, isOrdinal, num, numOrNull } from './values.ts';
import { UserError } from '../errors.ts';

export interface CardLinks {
  skills: Map<number, Skill>;
  centerSkills: Map<number, CenterSkill>;
  characters: Map<number, Character>;
}

/** disable_rank_up values of cards that can never be idolized: practice, skill-up, costume. */
const NEVER_IDOLIZED = new Set([1, 3, 6]);
const SUPPORT = new Set([1, 3]);
const COSTUME = 6;
const PROMO = 5;

type Caps = Pick<Card, 'normalMaxLevel' | 'transformedMaxLevel' | 'normalMaxKizuna' | 'transformedMaxKizuna'>;

/** The highest level a card can reach: the idolized cap, unless it can never be idolized. */
export const highestLevel = (c: Caps & Pick<Card, 'transformDisabled'>) =>
  c.transformDisabled ? c.normalMaxLevel : Math.max(c.normalMaxLevel, c.transformedMaxLevel);
/** The highest kizuna (bond) a card can reach, likewise. */
export const highestKizuna = (c: Caps & Pick<Card, 'transformDisabled'>) =>
  c.transformDisabled ? c.normalMaxKizuna : Math.max(c.normalMaxKizuna, c.transformedMaxKizuna);

const capsOf = (row: DbRow): Caps => ({
  normalMaxLevel: num(row.before_level_max),
  transformedMaxLevel: num(row.after_level_max),
  normalMaxKizuna: num(row.before_love_max),
  transformedMaxKizuna: num(row.after_love_max),
});

/** Legacy exports carry caps on each card; modern ones per rarity in unit_rarity_m. */
function capsReader(db: MasterDb): (card: DbRow) => Caps {
  if (db.columns('unit_m').has('before_level_max')) return capsOf;
  db.require('unit_rarity_m', 'level and kizuna caps');
  const byRarity = new Map(db.rows('unit_rarity_m').map((r) => [num(r.rarity), capsOf(r)]));
  return (card) => byRarity.get(num(card.rarity)) ?? capsOf({});
}

/** Where a card's per-level rows come from: `table`, grouped by `keyColumn`, which the card row also has. */
interface LevelSource {
  table: string;
  keyColumn: string;
  /** Key -> level -> row. */
  patterns: Map<number, Map<number, DbRow>>;
}

/** Rows of `tables` grouped by `keyColumn` and level; an earlier table's row for a level wins. */
function groupLevels(db: MasterDb, tables: string[], keyColumn: string): Map<number, Map<number, DbRow>> {
  const patterns = new Map<number, Map<number, DbRow>>();
  for (const table of tables) {
    const levelColumn = db.columns(table).has('unit_level') ? 'unit_level' : 'level';
    for (const [id, rows] of groupBy(db.rows(table), (r) => num(r[keyColumn]))) {
      const levels = patterns.get(id) ?? new Map<number, DbRow>();
      for (const row of rows) if (!levels.has(num(row[levelColumn]))) levels.set(num(row[levelColumn]), row);
      patterns.set(id, levels);
    }
  }
  return patterns;
}

/** What 2015 exports may group unit_level_m by, most specific first; each is also a unit_m column. */
const LEGACY_LEVEL_KEYS = ['unit_level_up_pattern_id', 'unit_id', 'rarity'];

/**
 * Per-level rows: unit_level_up_pattern_m (plus unit_level_limit_pattern_m beyond the normal
 * pattern), or in the 2015 generation unit_level_m, which docs/input.md describes.
 */
function levelSource(db: MasterDb): LevelSource {
  if (!db.hasTable('unit_level_up_pattern_m') && db.hasTable('unit_level_m')) {
    const keyColumn = LEGACY_LEVEL_KEYS.find((column) => db.columns('unit_level_m').has(column));
    if (!keyColumn) throw new UserError(`${db.file}: unit_level_m has none of the columns ${LEGACY_LEVEL_KEYS.join(', ')} that link its levels to cards`);
    return { table: 'unit_level_m', keyColumn, patterns: groupLevels(db, ['unit_level_m'], keyColumn) };
  }
  db.require('unit_level_up_pattern_m', 'per-level stats');
  const keyColumn = 'unit_level_up_pattern_id';
  return { table: 'unit_level_up_pattern_m', keyColumn, patterns: groupLevels(db, ['unit_level_up_pattern_m', 'unit_level_limit_pattern_m'], keyColumn) };
}

/** How one per-level value is read from a card row and its level rows. */
type LevelValue = (card: DbRow, rows: DbRow[]) => number[];
/** The reader an export's columns allow (unit_m's, the level table's), or null when they give no such value. */
type LevelValueFinder = (card: Set<string>, level: Set<string>) => LevelValue | null;

/** The stat at each level: the card's `<stat>_max` less the row's `<stat>_diff`. */
const fromDiff = (max: string, diff: string): LevelValue => (card, rows) => {
  const top = num(card[max]);
  return rows.map((row) => top - num(row[diff]));
};
/** A value the level row states outright. */
const stated = (column: string): LevelValue => (_card, rows) => rows.map((row) => num(row[column]));
/**
 * The 2015 generation: a base on the card times a per-level rate on the level row, rounded
 * down in plain floating point, as the game computes it: 100 * 0.29 is 28.999999999999996 and
 * gives 28 (the JP export of December 2015 stores 11,479 where sale_base * sale_bonus_rate is
 * a hair below 11,480; a plain floor matches all 32,756 of its stored values).
 */
const baseTimesRate = (base: string, rate: string): LevelValue => (card, rows) => {
  const value = num(card[base]);
  return rows.map((row) => Math.floor(value * num(row[rate])));
};

/** Where a per-level value comes from: the published field, the columns looked for (for a warning), the readers to try in order. */
interface LevelValueSource {
  field: string;
  columns: string;
  readers: LevelValueFinder[];
}

/** Where each per-level value comes from, in every generation's columns, first match wins. */
const LEVEL_VALUES: Record<keyof LevelStats, LevelValueSource> = {
  smile: statReaders('smile', 'smile'),
  pure: statReaders('pure', 'pure', 'cute'),
  cool: statReaders('cool', 'cool'),
  stamina: statReaders('stamina', 'hp'),
  salePrice: {
    field: 'sell_price',
    columns: 'sale_price, or unit_m.sale_base with sale_bonus_rate',
    readers: [(_, level) => (level.has('sale_price') ? stated('sale_price') : null),
      (card, level) => (card.has('sale_base') && level.has('sale_bonus_rate') ? baseTimesRate('sale_base', 'sale_bonus_rate') : null)],
  },
  mergeExp: {
    field: 'exp_given',
    columns: 'merge_exp, or unit_m.exp_base with exp_bonus_rate',
    readers: [(_, level) => (level.has('merge_exp') ? stated('merge_exp') : null),
      (card, level) => (card.has('exp_base') && level.has('exp_bonus_rate') ? baseTimesRate('exp_base', 'exp_bonus_rate') : null)],
  },
};

/** A stat as a difference from the card's maximum, or stated per level (2015: pure is named `cute`). */
function statReaders(field: string, stat: string, alias?: string): LevelValueSource {
  const [diff, max] = [`${stat}_diff`, `${stat}_max`];
  const own = [stat, ...(alias ? [alias] : [])];
  return {
    field,
    columns: `${diff} with unit_m.${max}, or ${own.join(' or ')}`,
    readers: [
      (card, level) => (card.has(max) && level.has(diff) ? fromDiff(max, diff) : null),
      (_, level) => {
        const column = own.find((c) => level.has(c));
        return column ? stated(column) : null;
      },
    ],
  };
}

/**
 * How this export's per-level values are read, chosen once from its columns. A value no
 * generation's columns give is a warning naming the table and the columns looked for, and
 * is published as 0 at every level.
 */
function levelReader(db: MasterDb, table: string, findings: Findings): (card: DbRow, rows: DbRow[]) => LevelStats {
  const [cardColumns, levelColumns] = [db.columns('unit_m'), db.columns(table)];
  const find = (key: keyof LevelStats): LevelValue => {
    const { field, columns, readers } = LEVEL_VALUES[key];
    const found = readers.map((r) => r(cardColumns, levelColumns)).find((r) => r !== null);
    if (found) return found;
    findings.warn(`${table}: no column gives ${field} (looked for ${columns}); published as 0 at every level`, `${table}: per-level values no column gives`);
    return (_card, rows) => rows.map(() => 0);
  };
  const [smile, pure, cool, stamina, salePrice, mergeExp] = (['smile', 'pure', 'cool', 'stamina', 'salePrice', 'mergeExp'] as const).map(find);
  if (!levelColumns.has('next_exp')) findings.warn(`${table}: no next_exp column; the EXP to reach a card's level caps is published as null`);
  return (card, rows) => ({
    smile: smile(card, rows), pure: pure(card, rows), cool: cool(card, rows), stamina: stamina(card, rows),
    salePrice: salePrice(card, rows), mergeExp: mergeExp(card, rows),
  });
}

/**
 * The card's HP at its highest level: unit_m.hp_max, or in the 2015 generation (no hp_max)
 * the HP its top level row states.
 */
function hpBaseReader(db: MasterDb): (card: DbRow, stamina: readonly number[]) => number {
  return db.columns('unit_m').has('hp_max') ? (card) => num(card.hp_max) : (_card, stamina) => stamina.at(-1) ?? 0;
}

/** `next_exp` of level L is the cumulative EXP to reach L+1, so reaching L costs next_exp of L-1. */
function expToReach(pattern: Map<number, DbRow> | undefined, level: number): number | null {
  if (level <= 1) return 0;
  const row = pattern?.get(level - 1);
  return row && row.next_exp != null ? num(row.next_exp) : null;
}

/** Looks up a linked row by id: null when the card names none, null plus a warning when it dangles. */
function link<T>(map: Map<number, T>, id: unknown, what: string, ordinal: number, findings: Findings): T | null {
  const key = numOrNull(id);
  if (key === null || key === 0) return null;
  const found = map.get(key);
  if (!found) findings.warn(`card ${ordinal}: ${what} ${key} does not exist; published as null`, `cards naming a ${what} that does not exist`);
  return found ?? null;
}

/**
 * Placeholder rows (unit_number 0) are left out; so is any other row whose unit_number is
 * no ordinal, with a warning (it would name a file like card/Infinity.json).
 */
function hasOrdinal(row: DbRow, findings: Findings): boolean {
  if (isOrdinal(row.unit_number)) return true;
  if (row.unit_number === 0) return false;
  const value = typeof row.unit_number === 'string' ? `"${row.unit_number}"` : String(row.unit_number);
  findings.warn(`unit_m: unit_id ${String(row.unit_id)} has unit_number ${value}, not a whole number from 1 to 999999999; the card is left out`, 'unit_m: rows whose unit_number is no ordinal');
  return false;
}

export function buildCards(db: MasterDb, english: EnglishTexts, links: CardLinks, findings: Findings): Writable<Card>[] {
  db.require('unit_m', 'cards');
  const caps = capsReader(db);
  const levelRows = levelSource(db);
  const levelStats = levelReader(db, levelRows.table, findings);
  const hpBase = hpBaseReader(db);
  const hasRanks = db.columns('unit_m').has('rank_min');
  const shortPatterns = new Set<number>();
  const cards = db.keyedRows('unit_m', 'unit_id').filter((row) => hasOrdinal(row, findings)).map((row): Writable<Card> => {
    const id = num(row.unit_id);
    const ordinal = num(row.unit_number);
    const dru = num(row.disable_rank_up);
    const cardCaps = caps(row);
    const transformDisabled = NEVER_IDOLIZED.has(dru) || (hasRanks && num(row.rank_max) < 2);
    const preTransformed = dru === PROMO || (hasRanks
      ? num(row.rank_min) >= 2
      : dru === 0 && row.normal_card_id != null && row.normal_card_id === row.rank_max_card_id);
    const patternId = num(row[levelRows.keyColumn]);
    const pattern = levelRows.patterns.get(patternId);
    const maxLevel = highestLevel({ ...cardCaps, transformDisabled });
    const rowsByLevel: DbRow[] = [];
    for (let level = 1; level <= maxLevel; level++) {
      const levelRow = pattern?.get(level);
      if (!levelRow) {
        shortPatterns.add(patternId);
        break;
      }
      rowsByLevel.push(levelRow);
    }
    const levels = levelStats(row, rowsByLevel);
    const typeId = num(row.unit_type_id);
    return {
      id,
      ordinal,
      typeId,
      title: row.eponym ? english.text(row.eponym, english.get('unit_m', 'unit_id', id, 'eponym'), row.eponym_en) : null,
      charName: english.text(row.name, english.get('unit_m', 'unit_id', id), english.get('unit_type_m', 'unit_type_id', typeId), row.name_en),
      rarity: num(row.rarity),
      attribute: num(row.attribute_id),
      skill: link(links.skills, row.default_unit_skill_id, 'skill', ordinal, findings),
      centerSkill: link(links.centerSkills, row.default_leader_skill_id, 'center skill', ordinal, findings),
      character: link(links.characters, typeId, 'character', ordinal, findings),
      hpBase: hpBase(row, levels.stamina),
      ...cardCaps,
      normalMaxLevelExp: expToReach(pattern, cardCaps.normalMaxLevel),
      transformedMaxLevelExp: expToReach(pattern, cardCaps.transformedMaxLevel),
      transformDisabled,
      supportCard: SUPPORT.has(dru),
      costumeCard: dru === COSTUME,
      preTransformed,
      albumSeriesId: numOrNull(row.album_series_id) || null,
      releaseDate: null,
      releaseDateIsDirty: true,
      events: [],
      setIds: [],
      levels,
      normalIconAsset: assetPath(row.normal_icon_asset),
      idolizedIconAsset: assetPath(row.rank_max_icon_asset),
    };
  });
  for (const id of [...shortPatterns].sort((a, b) => a - b)) {
    findings.warn(`${levelRows.table}: ${levelRows.keyColumn} ${id} stops before the level cap of a card that uses it; per-level arrays are shorter`, 'level patterns stopping before a card\'s level cap');
  }
  return cards.sort((a, b) => a.ordinal - b.ordinal || a.id - b.id);
}
