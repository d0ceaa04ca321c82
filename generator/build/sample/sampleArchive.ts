/**
 * The sample archive (`npm run sample -- --archive <dir>`, make-sample.ts writeSampleArchive):
 * invented exports of several regions and dates, one folder each, as `npm run build -- --archive
 * <dir>` reads them (build/archive/). Three JP exports, the first in the 2015 unit database's
 * shape, each later one adding cards and changing a card's stats, the last adding a song; two WW
 * exports dated between them (the English client: English texts, no kana) holding some of JP's
 * cards, one of them a device's encrypted files whose meta.json gives only the day, so its region
 * is the data's to tell; a CN export (Chinese texts) holding fewer; and a folder whose region
 * nothing tells (plain SQL dumps in Chinese, no meta.json), which the build leaves out.
 *
 * Each export is the sample export (writeSampleExport) with its tables edited here, small and
 * without pictures, so that a test builds the archive whole in about a second. Each carries the
 * sample's marker (sample.json) listing its own files: the build refuses a folder that mixes the
 * sample with other databases, and an archive builds each export in a folder of its own.
 */
import type { FileScheme } from '../input/fileCipher.ts';
import type { SampleDatabase, SampleOptions } from './sampleOptions.ts';
import type { Row, SqlValue, TableDump } from './sql.ts';
import { CARDS, TRANSLATIONS, unitIdOf } from './data.ts';

/** One export of the archive: what it holds, and what the archive build must find of it. */
export interface ArchiveExportSpec {
  /** Its folder in the archive ('/'-separated). */
  rel: string;
  /** The region it comes from; null: nothing tells (no region in meta.json, plain files, Chinese texts). */
  region: 'jp' | 'ww' | 'cn' | null;
  /** The day it was taken (YYYY-MM-DD, in the region's time); null when its meta.json gives none. */
  day: string | null;
  /** What its meta.json gives: the region and the day, the day alone (the data tells the region), or no meta.json at all. */
  meta: 'region and day' | 'day' | 'none';
  /** The sample's first `cards` cards (the curated ones, then generated ones), less the ordinals `without`. */
  cards: number;
  without?: readonly number[];
  /** The sample's first `songs` songs, each with its charts. */
  songs: number;
  /** Stats changed from the sample's: ordinal -> what the card's smile gains at every level. */
  smile?: Readonly<Record<number, number>>;
  /**
   * The script of its texts: the JP client's Japanese (with no English title of its own), the
   * English client's, or Chinese. An English or Chinese export leaves out the cards whose rows
   * are encrypted (their texts would stay Japanese).
   */
  texts: 'japanese' | 'english' | 'chinese';
  generation?: '2015';
  format: 'sql' | 'sqlite';
  /** A device's files, encrypted as its client stores them (format sqlite). */
  encrypt?: FileScheme;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The curated cards the English client never had (data.ts notInEnglish). */
const NOT_IN_ENGLISH = CARDS.filter((card) => card.notInEnglish).map((card) => card.ordinal);

export const SAMPLE_ARCHIVE: readonly ArchiveExportSpec[] = [
  { rel: 'jp/2015-12-08', region: 'jp', day: '2015-12-08', meta: 'region and day', cards: CARDS.length, songs: 7, texts: 'japanese', generation: '2015', format: 'sql' },
  { rel: 'ww/2016-07-01', region: 'ww', day: '2016-07-01', meta: 'region and day', cards: CARDS.length, without: NOT_IN_ENGLISH, songs: 7, texts: 'english', format: 'sqlite' },
  {
    rel: 'jp/2017-03-01', region: 'jp', day: '2017-03-01', meta: 'region and day', cards: CARDS.length + 2, songs: 7, smile: { 5: 7 },
    texts: 'japanese', format: 'sqlite', encrypt: { region: 'jp', version: 3 },
  },
  { rel: 'cn/2017-08-10', region: 'cn', day: '2017-08-10', meta: 'region and day', cards: CARDS.length, without: range(21, CARDS.length), songs: 7, texts: 'chinese', format: 'sql' },
  {
    rel: 'phone-backup', region: 'ww', day: '2017-11-02', meta: 'day', cards: CARDS.length + 2, without: [...NOT_IN_ENGLISH, CARDS.length + 2], songs: 7,
    texts: 'english', format: 'sqlite', encrypt: { region: 'ww', version: 2 },
  },
  { rel: 'jp/2018-09-20', region: 'jp', day: '2018-09-20', meta: 'region and day', cards: CARDS.length + 4, songs: 8, smile: { 5: 7, 16: 30 }, texts: 'japanese', format: 'sql' },
  { rel: 'shared-dump', region: null, day: null, meta: 'none', cards: CARDS.length, without: range(30, CARDS.length), songs: 7, texts: 'chinese', format: 'sql' },
];

/** An export's name as the archive build gives it: `<region>-<day>`. */
export const exportName = (spec: ArchiveExportSpec): string => `${spec.region}-${spec.day}`;

/** Whether the curated card `ordinal` is stored encrypted (by a release key, data.ts `release`). */
const encryptedCard = (ordinal: number): boolean => typeof CARDS.find((card) => card.ordinal === ordinal)?.release === 'number';

/** The ordinals of the cards an export holds in the clear (an encrypted card it may hold besides is left out). */
export function cardsOf(spec: ArchiveExportSpec): number[] {
  const without = new Set(spec.without ?? []);
  return range(1, Math.max(spec.cards, CARDS.length)).filter((ordinal) => !without.has(ordinal) && !encryptedCard(ordinal));
}

/** A row encrypted by a release key: only its id in the clear. */
const isEncrypted = (row: Row): boolean => typeof row._encryption_release_id === 'number' && row.release_tag !== null;

/** unit_m as the export holds it: its cards, its stats, and (the JP client's) no English title. */
function cardRows(spec: ArchiveExportSpec, rows: Row[]): Row[] {
  const left = new Set((spec.without ?? []).map(unitIdOf));
  const gains = new Map(Object.entries(spec.smile ?? {}).map(([ordinal, gain]) => [unitIdOf(Number(ordinal)), gain]));
  return rows
    .filter((row) => !left.has(Number(row.unit_id)) && (spec.texts === 'japanese' || !isEncrypted(row)))
    .map((row) => {
      const gain = gains.get(Number(row.unit_id));
      const own = spec.texts === 'japanese' ? { ...row, eponym_en: null } : row;
      return gain === undefined ? own : { ...own, smile_max: Number(row.smile_max) + gain };
    });
}

const KANA = /[\u3040-\u30ff]/;
const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;

/** The first column's value: a sample table's id. */
const idOf = (row: Row): SqlValue => Object.values(row)[0];

/** `tables` with every text that `foreign` finds replaced by `replace`'s text for it. */
function retext(tables: TableDump[], foreign: RegExp, replace: (table: string, column: string, row: Row) => string): TableDump[] {
  return tables.map((table) => ({
    ...table,
    rows: table.rows.map((row) => Object.fromEntries(Object.entries(row).map(([column, value]) =>
      [column, typeof value === 'string' && foreign.test(value) ? replace(table.name, column, row) : value]))),
  }));
}

const ENGLISH_NOUNS: Record<string, string> = { event_m: 'Event', live_track_m: 'Song', unit_removable_skill_m: 'School Idol Skill' };

/**
 * The English client's text for a Japanese one: the English export's (en/) for the same row,
 * else the row's own `<column>_en`, else a crowd translation, else an invented one.
 */
function englishText(english: TableDump[]) {
  const rows = new Map(english.map((table) => [table.name, new Map(table.rows.map((row) => [idOf(row), row]))]));
  const translations = new Map(Object.values(TRANSLATIONS).flatMap((table) => Object.entries(table)));
  return (table: string, column: string, row: Row): string => {
    const candidates = [rows.get(table)?.get(idOf(row))?.[column], row[`${column}_en`], translations.get(String(row[column]))];
    const found = candidates.find((text): text is string => typeof text === 'string' && text.trim() !== '' && !CJK.test(text));
    return found ?? `${ENGLISH_NOUNS[table] ?? table} ${idOf(row)}${column === 'name' ? '' : ` ${column}`}`;
  };
}

/** The characters' names as a Chinese client writes them, by unit_type_id (invented, as all the sample's names). */
const CHINESE_NAMES: Record<number, string> = {
  101: '星野葵', 102: '月岛光', 103: '花村柚', 104: '水濑雫', 105: '朝仓奏', 106: '白鸟玲奈', 201: '风间澪', 202: '樱井小春', 203: '橘梦', 901: '熊猫老师',
};
const CHINESE_NOUNS: Record<string, string> = { unit_m: '卡片', event_m: '活动', live_track_m: '歌曲' };

/** A Chinese client's text for a Japanese one (with kana): a character's name, else an invented text. */
function chineseText(table: string, column: string, row: Row): string {
  const character = column === 'name' && (table === 'unit_m' || table === 'unit_type_m') ? CHINESE_NAMES[Number(row.unit_type_id)] : undefined;
  return character ?? `${CHINESE_NOUNS[table] ?? '文本'}${idOf(row)}`;
}

/** The tables of one of the export's databases, edited from the sample's (writeSampleExport's `edit`). */
function editTables(spec: ArchiveExportSpec, database: SampleDatabase, tables: TableDump[], english: TableDump[]): TableDump[] {
  const edited = database === 'unit' ? tables.map((table) => (table.name === 'unit_m' ? { ...table, rows: cardRows(spec, table.rows) } : table)) : tables;
  if (spec.texts === 'english') return retext(edited, CJK, englishText(english));
  if (spec.texts === 'chinese') return retext(edited, KANA, chineseText);
  return edited;
}

const metaOf = (spec: ArchiveExportSpec): Record<string, unknown> | null => {
  if (spec.meta === 'none') return null;
  return spec.meta === 'day' ? { date: spec.day } : { region: spec.region, date: spec.day };
};

/** How writeSampleExport writes the export `spec`: no English folder and none of the crowd's files (a client's own data), no pictures. */
export function archiveExportOptions(spec: ArchiveExportSpec): SampleOptions {
  return {
    cards: spec.cards, songs: spec.songs, format: spec.format, encrypt: spec.encrypt, generation: spec.generation ?? 'current',
    images: false, english: false, crowd: false, notes: 'none', meta: metaOf(spec),
    edit: (database, tables, english) => editTables(spec, database, tables, english),
  };
}
