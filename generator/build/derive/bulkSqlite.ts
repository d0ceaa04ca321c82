/**
 * bulk/sif.sqlite: every bulk kind as a table named after it, one row per object in the
 * JSON Lines file's order: a column per scalar field (same name; a field that is an object
 * or an array in any row has none), `json` with the object as published, and an index on
 * each id and ordinal column; a one-row `meta` table names the data version.
 *
 * The database is written to a file without a journal, then the header's write counters
 * are zeroed (as a serialized in-memory database has them), so the file holds no journal
 * state, path, time or history: the same objects give the same bytes (the page size is
 * fixed, rows and schema are written in a fixed order, and SQLite stores nothing else that
 * varies). A file, not memory: at scale the database is gigabytes. Pages of
 * 64 KiB hold most rows with their JSON whole (4 KiB pages chain a card's JSON over
 * overflow pages): the file is about a sixth smaller and builds no slower.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { API_MAJOR, API_REVISION } from '../../contract/format.ts';
import { joinPieces, type JsonPieces } from '../render/files.ts';

export interface SqliteKind {
  /** The table name (the kind's JSON Lines file name without its extension). */
  name: string;
  objects: readonly object[];
  /** Each object's JSON as published, in the same order, as pieces (render/files.ts jsonPieces). */
  json: readonly JsonPieces[];
  /** The kind holds the objects of an earlier table: it is a view of that table, in this column's order. */
  viewOf?: { table: string; orderBy: string };
}

export interface SqliteMeta {
  truthVersion: string;
  date: number | null;
}

/** The database's page size (its parts are whole pages: derive/bulk.ts). */
export const SQLITE_PAGE_SIZE = 65536;
/** Columns indexed wherever a table has them: the keys clients look objects up by. */
const KEY_COLUMNS = ['id', 'ordinal', 'pair'];
const JSON_COLUMN = 'json';

type Scalar = string | number | boolean | null;
const isScalar = (value: unknown): value is Scalar => value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The affinities a column's values have, one bit each (null has none): a column is kept as the bits of its values or'ed. */
const [INTEGER, REAL, TEXT] = [1, 2, 4];
const affinityOf = (value: Scalar): number =>
  value === null ? 0 : typeof value === 'number' ? (Number.isInteger(value) ? INTEGER : REAL) : typeof value === 'boolean' ? INTEGER : TEXT;

/** The declared type of a column from its values' affinities: one affinity when all values share it (integers and reals: REAL), none when they mix. */
function columnType(affinities: number): string {
  if (affinities === INTEGER) return 'INTEGER';
  if (affinities === REAL || affinities === (INTEGER | REAL)) return 'REAL';
  return affinities === TEXT ? 'TEXT' : '';
}

/**
 * Scalar fields of the kind in first-seen order: a field that holds an object or array anywhere
 * is left to `json`. SQLite's column names ignore case, so of fields that differ only in case
 * (a game table's column beside a named field) the first keeps its column; so does `json`.
 * Each field's values are folded into their affinities as they are met, no list of them made
 * (200,000 cards' values were arrays of millions).
 */
function scalarColumns(objects: readonly object[]): { name: string; type: string }[] {
  const affinities = new Map<string, number>();
  const nonScalar = new Set<string>();
  for (const object of objects) {
    for (const key of Object.keys(object)) {
      const value = (object as Record<string, unknown>)[key];
      if (!isScalar(value)) nonScalar.add(key);
      else if (!nonScalar.has(key)) affinities.set(key, (affinities.get(key) ?? 0) | affinityOf(value));
    }
  }
  const taken = new Set([JSON_COLUMN]);
  return [...affinities].filter(([name]) => {
    const free = !taken.has(name.toLowerCase());
    taken.add(name.toLowerCase());
    return free && !nonScalar.has(name);
  }).map(([name, column]) => ({ name, type: columnType(column) }));
}

/** SQLite stores booleans as 0 / 1; an absent field is NULL. */
const cell = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value === undefined ? null : value);

function writeKind(db: Database.Database, kind: SqliteKind): void {
  if (kind.viewOf) {
    db.exec(`CREATE VIEW ${quote(kind.name)} AS SELECT * FROM ${quote(kind.viewOf.table)} ORDER BY ${quote(kind.viewOf.orderBy)}`);
    return;
  }
  const columns = scalarColumns(kind.objects);
  const table = quote(kind.name);
  const definitions = [...columns.map((c) => `${quote(c.name)}${c.type ? ` ${c.type}` : ''}`), `${JSON_COLUMN} TEXT NOT NULL`];
  db.exec(`CREATE TABLE ${table} (${definitions.join(', ')})`);
  // The JSON goes in as bytes and is stored as TEXT (UTF-8, the database's encoding): no decoding in between.
  const insert = db.prepare(`INSERT INTO ${table} VALUES (${[...columns.map(() => '?'), 'CAST(? AS TEXT)'].join(', ')})`);
  kind.objects.forEach((object, i) => {
    const record = object as Record<string, unknown>;
    insert.run(...columns.map((c) => cell(record[c.name])), joinPieces(kind.json[i]));
  });
  for (const key of columns.filter((c) => KEY_COLUMNS.includes(c.name))) {
    db.exec(`CREATE INDEX ${quote(`${kind.name}_${key.name}`)} ON ${table} (${quote(key.name)})`);
  }
}

/**
 * Header fields that count writes (file change counter at 24, version-valid-for and the
 * writing library's version at 92): zero in a serialized in-memory database, set by how a
 * file was written, so zeroed. 0 = 0 keeps the header's page count valid.
 */
const WRITE_COUNTERS = [[24, 28], [92, 100]] as const;

/**
 * Writes the database to `file` (replacing any); its digest is taken as its parts are published
 * (derive/bulk.ts). Returns the first page of each table and index: written one after another, each
 * b-tree's pages run from its root to the next one's.
 */
export function bulkSqlite(kinds: readonly SqliteKind[], meta: SqliteMeta, file: string): number[] {
  fs.rmSync(file, { force: true });
  const db = new Database(file);
  let roots: number[];
  try {
    db.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.transaction(() => {
      db.exec('CREATE TABLE meta (truth_version TEXT NOT NULL, api_major INTEGER NOT NULL, api_revision INTEGER NOT NULL, date INTEGER)');
      db.prepare('INSERT INTO meta VALUES (?, ?, ?, ?)').run(meta.truthVersion, API_MAJOR, API_REVISION, meta.date);
      for (const kind of kinds) writeKind(db, kind);
    })();
    roots = db.prepare('SELECT rootpage FROM sqlite_master WHERE rootpage > 0 ORDER BY rootpage').pluck().all() as number[];
  } finally {
    db.close();
  }
  const fd = fs.openSync(file, 'r+');
  try {
    for (const [start, end] of WRITE_COUNTERS) fs.writeSync(fd, Buffer.alloc(end - start), 0, end - start, start);
  } finally {
    fs.closeSync(fd);
  }
  return roots;
}
