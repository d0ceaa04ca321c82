/**
 * One master database of an export, opened with better-sqlite3: a client file read
 * in place, or a SQL text dump loaded into memory. Rows come back readable: encrypted
 * rows are decrypted with the release keys or left out and counted.
 */
import Database from 'better-sqlite3';
import { loadSqlDump } from './sqlDump.ts';
import { decryptPayload, encryptedPayload, type ReleaseKeys } from './decrypt.ts';
import { UserError } from '../errors.ts';
import type { BuildReport } from '../report.ts';

export type DbRow = Record<string, unknown>;

export class MasterDb {
  private readonly tables: Set<string>;
  private readonly columnCache = new Map<string, Set<string>>();
  private readonly rowCache = new Map<string, DbRow[]>();

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
    private readonly keys: ReleaseKeys,
    private readonly report: BuildReport,
    /** Prefix of this database's tables in the report ("en/" for the English export). */
    private readonly label: string,
  ) {
    this.tables = new Set(this.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => r.name));
  }

  static open(file: string, keys: ReleaseKeys, report: BuildReport, label = ''): MasterDb {
    let db: Database.Database;
    try {
      if (/\.sql$/i.test(file)) {
        db = loadSqlDump(file);
      } else {
        db = new Database(file, { readonly: true, fileMustExist: true });
        // Functions in a hostile schema (generated columns, views) must not run when rows are read.
        db.pragma('trusted_schema = OFF');
        const check = db.pragma('quick_check', { simple: true });
        // quick_check lists every damaged cell; the first one is enough to name the damage.
        if (check !== 'ok') throw new Error(`damaged: ${String(check).split('\n').find((line) => !line.startsWith('***'))}`);
      }
    } catch (error) {
      const what = /\.sql$/i.test(file) ? 'not a loadable SQL dump' : 'not a readable SQLite database';
      throw new UserError(`${file}: ${what} (${(error as Error).message})`);
    }
    return new MasterDb(file, db, keys, report, label);
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
      rows = this.hasTable(table) ? this.readable(table, this.query<DbRow>(`SELECT * FROM "${table}"`)) : [];
      this.rowCache.set(table, rows);
    }
    return rows;
  }

  /** Decrypts what the keys open; counts and leaves out the rest. */
  private readable(table: string, rows: DbRow[]): DbRow[] {
    if (!this.columns(table).has('release_tag')) return rows;
    const readable: DbRow[] = [];
    for (const row of rows) {
      const payload = encryptedPayload(row.release_tag);
      if (!payload) {
        readable.push(row);
        continue;
      }
      const values = decryptPayload(payload, this.keys.get(String(row._encryption_release_id)));
      if (values) readable.push({ ...row, ...values, release_tag: null });
      else this.report.countUnreadable(this.label + table);
    }
    return readable;
  }

  close(): void {
    this.db.close();
  }

  private query<T>(sql: string): T[] {
    try {
      return this.db.prepare(sql).all() as T[];
    } catch (error) {
      throw new UserError(`${this.file}: cannot read (${sql.slice(0, 60)}): ${(error as Error).message}`);
    }
  }
}
