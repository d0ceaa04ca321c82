/**
 * One master database of an export, opened with better-sqlite3: a client file read
 * in place, or a SQL text dump loaded into memory. Rows come back readable: encrypted
 * rows are decrypted with the release keys or left out and counted.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { loadSqlDump } from './sqlDump.ts';
import { openDatabaseFile, type ClientEncryption } from './clientFile.ts';
import { decryptPayload, encryptedPayload, type ReleaseKeys } from './rowCipher.ts';
import { UserError } from '../errors.ts';
import { openRegularFile } from './inputFiles.ts';
import { MAX_INPUT_FILE_BYTES, MAX_TEXT_CHARS } from './limits.ts';
import type { Findings } from '../findings.ts';
import { MAX_ID } from '../../contract/limits.ts';

export type DbRow = Record<string, unknown>;

/**
 * The id a stored value names, as the model reads ids (`Number`, so the text '0x1' or "1" of
 * an encrypted row names 1): a whole number from 0 to MAX_ID, the highest a request can name;
 * null for anything else (text such as 'abc', -3, 4.5, Infinity), which would name a file like
 * card_t/NaN.json.
 */
export function idOf(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isInteger(id) && id >= 0 && id <= MAX_ID ? id : null;
}

/**
 * Values that mean "missing": some exports write the text `None` (or `'None'`) in text and id
 * columns alike, and decrypted rows write `false` for NULL. They become null here, once, so no
 * later stage can publish them as a title or read them as an id.
 */
const MISSING_MARK = /^'?None'?$/;
const isMissingMark = (value: unknown): boolean => value === false || (typeof value === 'string' && MISSING_MARK.test(value));

/** Whether a value of the row is a missing mark: looked for without an array per row (most rows have none). */
function hasMissingMark(row: DbRow): boolean {
  for (const column in row) if (isMissingMark(row[column])) return true;
  return false;
}

/** The row with its missing marks as null; the row itself when it has none. */
function withoutMissingMarks(row: DbRow): DbRow {
  if (!hasMissingMark(row)) return row;
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [column, isMissingMark(value) ? null : value]));
}

/** Whether `value` is a whole number beyond ±(2^53 - 1): an integer read rounded (or a real that large). */
const isUnsafeWhole = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);

/** Whether a value of the row is such a number. */
function hasUnsafeWholeNumber(row: DbRow): boolean {
  for (const column in row) if (isUnsafeWhole(row[column])) return true;
  return false;
}

export class MasterDb {
  private readonly tables: Set<string>;
  private readonly columnCache = new Map<string, Set<string>>();
  private readonly rowCache = new Map<string, DbRow[]>();

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
    private readonly keys: ReleaseKeys,
    private readonly findings: Findings,
    /** Prefix of this database's tables in the report ("en/" for the English export). */
    private readonly label: string,
    /** How the client encrypted the file (decrypted in memory); null when it was plain. */
    readonly encryption: ClientEncryption | null,
  ) {
    this.tables = new Set(this.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => r.name));
  }

  /**
   * `clientName` is the client's own base name for this database (`unit.db_`): the key of an
   * encrypted client file depends on it. What was opened, and how, is noted in the report.
   */
  static open(file: string, clientName: string, keys: ReleaseKeys, findings: Findings, label = ''): MasterDb {
    const dump = /\.sql$/i.test(file);
    let db: Database.Database;
    let encryption: ClientEncryption | null = null;
    // Checked before SQLite or the dump reader opens it: a pipe would block them forever.
    fs.closeSync(openRegularFile(file, MAX_INPUT_FILE_BYTES).fd);
    try {
      if (dump) {
        db = loadSqlDump(file);
        findings.noteDatabase({ file, form: 'sql dump' });
      } else {
        ({ db, encryption } = openDatabaseFile(file, clientName));
        findings.noteDatabase(encryption ? { file, form: 'client file', encryption: encryption.description, keyName: encryption.name } : { file, form: 'sqlite' });
        // Functions in a hostile schema (generated columns, views) must not run when rows are read.
        db.pragma('trusted_schema = OFF');
        const check = db.pragma('quick_check', { simple: true });
        // quick_check lists every damaged cell; the first one is enough to name the damage.
        if (check !== 'ok') throw new Error(`damaged: ${String(check).split('\n').find((line) => !line.startsWith('***'))}`);
      }
    } catch (error) {
      if (error instanceof UserError) throw error;
      const what = dump ? 'not a loadable SQL dump' : 'not a readable SQLite database';
      throw new UserError(`${file}: ${what} (${(error as Error).message})`);
    }
    return new MasterDb(file, db, keys, findings, label, encryption);
  }

  hasTable(table: string): boolean {
    return this.tables.has(table);
  }

  columns(table: string): Set<string> {
    let columns = this.columnCache.get(table);
    if (!columns) {
      columns = new Set(this.hasTable(table) ? this.query<{ name: string }>(`PRAGMA table_info("${table}")`).map((c) => c.name) : []);
      this.columnCache.set(table, columns);
    }
    return columns;
  }

  /** Fails with a message naming the table when the export lacks it. */
  require(table: string, neededFor: string): void {
    if (!this.hasTable(table)) throw new UserError(`${this.file}: required table ${table} is missing (needed for ${neededFor})`);
  }

  /** The readable rows of a table ([] when it is absent), in rowid order; read once, then cached. */
  rows(table: string): DbRow[] {
    let rows = this.rowCache.get(table);
    if (!rows) {
      const stored = this.hasTable(table) ? this.storedRows(table) : [];
      rows = this.readable(table, stored.map(withoutMissingMarks));
      this.requireShortTexts(table, rows);
      this.rowCache.set(table, rows);
    }
    return rows;
  }

  /**
   * The readable rows of `table` whose `key` column holds an id (idOf), in rowid order; any
   * other row is left out with a warning. Two rows naming one id (also as 1 and '0x1') fail
   * the build naming the table: a published file per id would be written twice.
   */
  keyedRows(table: string, key: string): DbRow[] {
    const seen = new Set<number>();
    return this.rows(table).filter((row) => {
      const id = idOf(row[key]);
      if (id === null) {
        this.findings.warn(`${this.label}${table}: ${key} ${typeof row[key] === 'string' ? JSON.stringify(row[key]) : String(row[key])} is not a whole number from 0 to ${MAX_ID}; the row is left out`, `${this.label}${table}: rows whose ${key} is no id`);
        return false;
      }
      if (seen.has(id)) throw new UserError(`${this.file}: ${table} has more than one row with ${key} ${id}`);
      return seen.add(id);
    });
  }

  /**
   * Fails naming table, row and column when a text is longer than MAX_TEXT_CHARS: one name is
   * copied into every card that links it (a 1 MB center skill name made a site of 792 MB).
   */
  private requireShortTexts(table: string, rows: DbRow[]): void {
    rows.forEach((row, index) => {
      for (const column in row) {
        const value = row[column];
        if (typeof value !== 'string' || value.length <= MAX_TEXT_CHARS) continue;
        throw this.refusal(table, row, index, `${column} is ${value.length} characters long; texts over ${MAX_TEXT_CHARS} characters are refused`);
      }
    });
  }

  /**
   * Every row of `table` as stored. Integers come back as numbers, which is exact up to 2^53;
   * only a table holding one beyond is read again with its integers as BigInt (exactly, but about
   * twice the work), for withNumbers to refuse it by its row. Such an integer reads as a whole
   * number beyond ±(2^53 - 1), so SQLite is asked (hasInexactInteger) only for a table where one
   * is read: a real that large is one too, and is kept.
   */
  private storedRows(table: string): DbRow[] {
    const select = `SELECT * FROM "${table}"`;
    const rows = this.query<DbRow>(select);
    if (!rows.some(hasUnsafeWholeNumber) || !this.hasInexactInteger(table)) return rows;
    return this.query<DbRow>(select, true).map((row, index) => this.withNumbers(table, row, index));
  }

  /** Whether a column of `table` holds an integer beyond ±(2^53 - 1), which a number would round. */
  private hasInexactInteger(table: string): boolean {
    const beyond = [...this.columns(table)].map((column) => `"${column.replaceAll('"', '""')}"`)
      .map((c) => `(typeof(${c}) = 'integer' AND (${c} > ${Number.MAX_SAFE_INTEGER} OR ${c} < ${Number.MIN_SAFE_INTEGER}))`);
    return beyond.length > 0 && this.query(`SELECT 1 FROM "${table}" WHERE ${beyond.join(' OR ')} LIMIT 1`).length > 0;
  }

  /**
   * The row with its integers (read as BigInt, exactly) as numbers. One beyond 2^53 has no exact
   * number: published, 9007199254740993 would silently become 9007199254740992, so it is refused.
   */
  private withNumbers(table: string, row: Record<string, unknown>, index: number): DbRow {
    for (const [column, value] of Object.entries(row)) {
      if (typeof value !== 'bigint') continue;
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) throw this.inexact(table, row, index, column, value);
      row[column] = Number(value);
    }
    return row;
  }

  /** An encrypted row's values (JSON, read as numbers): an integer beyond 2^53 was already rounded by the parse, so it is refused too. */
  private requireExactIntegers(table: string, values: Record<string, unknown>, row: DbRow, index: number): void {
    const [column, value] = Object.entries(values).find(([, v]) => isUnsafeWhole(v)) ?? [];
    if (column !== undefined) throw this.inexact(table, row, index, `${column} (encrypted)`, value as number);
  }

  private inexact(table: string, row: DbRow, index: number, column: string, value: bigint | number): UserError {
    return this.refusal(table, row, index, `${column} is ${value}; integers beyond ±${Number.MAX_SAFE_INTEGER} (2^53 - 1) have no exact JSON number and are refused`);
  }

  /** The one line that refuses a row's value, naming file, table, row (and its first column) and `why`. */
  private refusal(table: string, row: DbRow, index: number, why: string): UserError {
    const [firstColumn, firstValue] = Object.entries(row)[0];
    return new UserError(`${this.file}: ${table} row ${index + 1} (${firstColumn} ${String(firstValue).slice(0, 20)}): ${why}`);
  }

  /** Decrypts what the keys open; counts and leaves out the rest. */
  private readable(table: string, rows: DbRow[]): DbRow[] {
    if (!this.columns(table).has('release_tag')) return rows;
    const readable: DbRow[] = [];
    for (const [index, row] of rows.entries()) {
      const payload = encryptedPayload(row.release_tag);
      if (!payload) {
        readable.push(row);
        continue;
      }
      const releaseId = String(row._encryption_release_id);
      const key = this.keys.get(releaseId);
      const values = decryptPayload(payload, key);
      if (values) this.requireExactIntegers(table, values, row, index);
      if (values) readable.push({ ...row, ...withoutMissingMarks(values), release_tag: null });
      else this.findings.countUnreadable(this.label + table, releaseId, key !== undefined);
    }
    return readable;
  }

  /** Closes the database and drops the rows read: the model keeps what it needs, and the export stays referenced (its meta) until the build ends. */
  close(): void {
    this.db.close();
    this.rowCache.clear();
  }

  /** The rows `sql` selects; with `exactIntegers`, integers come back as BigInt (none is rounded on the way). */
  private query<T>(sql: string, exactIntegers = false): T[] {
    try {
      return this.db.prepare(sql).safeIntegers(exactIntegers).all() as T[];
    } catch (error) {
      throw new UserError(`${this.file}: cannot read (${sql.slice(0, 60)}): ${(error as Error).message}`);
    }
  }
}
