/**
 * Songs and their charts from the live database: live_track_m (songs), live_time_m (their
 * lengths), live_setting_m (charts: difficulty, stars, attribute, rank thresholds) and the
 * tables that say how a chart is played (normal_live_m, special_live_m, free_live_m, with
 * special_live_rotation_m). Columns later exports added (name_en, swing_flag, ac_flag,
 * lane_count, live_time_m itself) are null where an export lacks them. A chart's notes come from
 * the note file its row names (notes.ts).
 */
import { idOf, type DbRow, type MasterDb } from '../input/masterDb.ts';
import type { Findings } from '../findings.ts';
import type { EnglishTexts } from './english.ts';
import type { Character, Chart, ChartPlay, MemberTag, RankThresholds, Song, Writable } from './types.ts';
import { groupTagOf } from './characters.ts';
import { groupBy, numOrNull } from './values.ts';
import { ChartNotesReader } from './notes.ts';
import type { NoteFiles } from '../input/noteFiles.ts';

/** The tables of the ways a chart is played, by the kind each gives. */
const PLAY_TABLES = { normal: 'normal_live_m', special: 'special_live_m', free: 'free_live_m' } as const;

/** A number as a database stores one: a number, or its decimal text ("12", "2.5"); '0x4', '1e3' or 'abc' are none. */
const DECIMAL = /^\s*-?\d+(\.\d+)?\s*$/;
const isNumber = (value: unknown): boolean => typeof value === 'number' || (typeof value === 'string' && DECIMAL.test(value));

/** A column's number, null when the table lacks the column, the value is none, or it is not a number (warnNonNumeric warns of those). */
const column = (row: DbRow, name: string): number | null => (isNumber(row[name]) ? numOrNull(row[name]) : null);

/** The numeric columns the songs read, by table, with the column naming each row in a warning. */
const NUMERIC_COLUMNS: Record<string, { key: string; columns: readonly string[] }> = {
  live_track_m: { key: 'live_track_id', columns: ['member_category'] },
  live_time_m: { key: 'live_track_id', columns: ['live_time'] },
  live_setting_m: {
    key: 'live_setting_id',
    columns: ['difficulty', 'stage_level', 'attribute_icon_id', 'swing_flag', 'ac_flag', 'lane_count', ...['c', 'b', 'a', 's'].flatMap((rank) => [`${rank}_rank_score`, `${rank}_rank_combo`])],
  },
  ...Object.fromEntries(Object.values(PLAY_TABLES).map((table) => [table, { key: 'live_difficulty_id', columns: ['capital_type', 'capital_value', 'swing_flag', 'ac_flag'] }])),
};

/** Warns of every numeric cell that holds text (published as null), one grouped line per table. */
function warnNonNumeric(db: MasterDb, findings: Findings): void {
  for (const [table, { key, columns }] of Object.entries(NUMERIC_COLUMNS)) {
    for (const row of db.rows(table)) {
      for (const name of columns) {
        const value = row[name];
        if (value === null || value === undefined || value === '' || isNumber(value)) continue;
        findings.warn(`${table}: ${key} ${String(row[key])}: ${name} is ${JSON.stringify(value).slice(0, 40)}, not a number; published as null`, `${table}: text in a numeric column (published as null)`);
      }
    }
  }
}

const thresholds = (row: DbRow, what: 'score' | 'combo'): RankThresholds => ({
  c: column(row, `c_rank_${what}`), b: column(row, `b_rank_${what}`), a: column(row, `a_rank_${what}`), s: column(row, `s_rank_${what}`),
});

/** Every play of every chart, by live_setting_id, each chart's in live_difficulty_id order. */
function playsByChart(db: MasterDb): Map<number | null, ChartPlay[]> {
  const rotations = groupBy(db.rows('special_live_rotation_m'), (row) => idOf(row.live_difficulty_id));
  const plays = Object.entries(PLAY_TABLES).flatMap(([kind, table]) => db.keyedRows(table, 'live_difficulty_id').map((row) => {
    const id = idOf(row.live_difficulty_id)!;
    const groups = (rotations.get(id) ?? []).map((r) => idOf(r.rotation_group_id)).filter((g) => g !== null);
    return {
      chart: idOf(row.live_setting_id),
      play: { id, kind: kind as ChartPlay['kind'], costType: column(row, 'capital_type'), cost: column(row, 'capital_value'), rotationGroups: [...new Set(groups)].sort((a, b) => a - b) },
    };
  }));
  plays.sort((a, b) => a.play.id - b.play.id);
  return new Map([...groupBy(plays, (p) => p.chart)].map(([chart, entries]) => [chart, entries.map((e) => e.play)]));
}

/** What a song links to beyond its own database: the English names, the characters and tags that name its group, and the charts' note files. */
export interface SongSources {
  english: EnglishTexts;
  characters: Map<number, Character>;
  tags: Map<number, MemberTag>;
  notes: NoteFiles;
}

/** Chinese, Japanese or Korean script: a name_en column holding it holds no English (a CN client writes its Chinese names there). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const isEnglish = (value: unknown): boolean => typeof value === 'string' && !CJK.test(value);

/**
 * A song's group: none for member_category 0 (collaboration songs), else the group tag of the
 * characters of its category, else (a unit database that cannot name the category, such as an
 * older one beside a newer live database) the tag its live_track_m row names itself.
 */
function songGroup(row: DbRow, memberCategory: number | null, { characters, tags }: SongSources): Song['group'] {
  if (memberCategory === 0) return null;
  return groupTagOf(memberCategory, characters, tags)?.name ?? tags.get(idOf(row.member_tag_id) ?? -1)?.name ?? null;
}

function readSong(row: DbRow, sources: SongSources, lengths: Map<number | null, DbRow[]>): Writable<Song> {
  const id = idOf(row.live_track_id)!;
  const memberCategory = column(row, 'member_category');
  const { english } = sources;
  const localized = typeof row.name_en === 'string' && row.name_en.trim() && !isEnglish(row.name_en) && row.name_en !== row.name ? row.name_en : null;
  return {
    id,
    name: english.text(row.name, english.get('live_track_m', 'live_track_id', id), isEnglish(row.name_en) ? row.name_en : null),
    kana: typeof row.name_kana === 'string' ? row.name_kana : null,
    localized,
    memberCategory,
    group: songGroup(row, memberCategory, sources),
    unitTypeId: idOf(row.unit_type_id),
    length: column(lengths.get(id)?.[0] ?? {}, 'live_time'),
    charts: [],
  };
}

/**
 * A chart's flag (swing_flag, ac_flag): its live_setting_m column, else (JP exports of 2017-12 to
 * 2019-01 keep them on the plays) the highest value among the rows that play it; null when no
 * table has the column.
 */
function chartFlag(row: DbRow, name: string, playRows: readonly DbRow[]): number | null {
  if (name in row) return column(row, name);
  const values = playRows.map((play) => column(play, name)).filter((v) => v !== null);
  return values.length ? Math.max(...values) : null;
}

function readChart(row: DbRow, song: Song, plays: Map<number | null, ChartPlay[]>, playRows: Map<number | null, DbRow[]>, notes: ChartNotesReader): Chart {
  const id = idOf(row.live_setting_id)!;
  const ownPlays = playRows.get(id) ?? [];
  const combo = thresholds(row, 'combo');
  return {
    id,
    song,
    difficulty: column(row, 'difficulty'),
    stars: column(row, 'stage_level'),
    attribute: column(row, 'attribute_icon_id'),
    score: thresholds(row, 'score'),
    combo,
    swing: chartFlag(row, 'swing_flag', ownPlays),
    ac: chartFlag(row, 'ac_flag', ownPlays),
    lanes: column(row, 'lane_count'),
    plays: plays.get(id) ?? [],
    notes: notes.notesOf(id, row.notes_setting_asset, combo.s),
  };
}

const byDifficulty = (a: Chart, b: Chart) => (a.difficulty ?? Infinity) - (b.difficulty ?? Infinity) || a.id - b.id;

/**
 * Songs in id order, each with its readable charts; null (said once in the report) when the
 * export has no live database or no live_track_m in it: then no song types are published.
 */
export function buildSongs(db: MasterDb | null, sources: SongSources, findings: Findings): Song[] | null {
  const notes = new ChartNotesReader(sources.notes, findings);
  if (!db || !db.hasTable('live_track_m')) {
    findings.warn(db ? `${db.file}: no live_track_m table; no songs are published (song_t, live_t)` : 'no live database (live.db_, live.sql, ...): no songs are published (song_t, live_t)');
    notes.finish(db ? 'the live database has no live_track_m' : 'the export has no live database');
    return null;
  }
  warnNonNumeric(db, findings);
  const lengths = groupBy(db.rows('live_time_m'), (row) => idOf(row.live_track_id));
  const songs = new Map(db.keyedRows('live_track_m', 'live_track_id').map((row) => {
    const song = readSong(row, sources, lengths);
    return [song.id, song];
  }));
  if (!db.hasTable('live_setting_m')) findings.warn(`${db.file}: no live_setting_m table; songs are published without charts (live_t is empty)`);
  const plays = playsByChart(db);
  const playRows = groupBy(Object.values(PLAY_TABLES).flatMap((table) => db.keyedRows(table, 'live_difficulty_id')), (play) => idOf(play.live_setting_id));
  for (const row of db.keyedRows('live_setting_m', 'live_setting_id')) {
    const song = songs.get(idOf(row.live_track_id) ?? -1);
    if (song) {
      song.charts.push(readChart(row, song, plays, playRows, notes));
      continue;
    }
    notes.passOver(row.notes_setting_asset);
    findings.warn(`live_setting_m: live_setting_id ${String(row.live_setting_id)} names live_track_id ${String(row.live_track_id)}, no readable song; the chart is left out`, 'live_setting_m: charts of no readable song (left out)');
  }
  notes.finish();
  for (const song of songs.values()) song.charts.sort(byDifficulty);
  return [...songs.values()].sort((a, b) => a.id - b.id);
}
