/** Tiny helpers to write readable SQL dumps: the sample export and test fixtures use them. */

/** A bigint is an integer read exactly (beyond 2^53 a number would round it). */
export type SqlValue = string | number | bigint | null;
export type Row = Record<string, SqlValue>;

/** One table of a dump: its column declarations and its rows. */
export interface TableDump {
  name: string;
  columns: Record<string, string>; // column name -> SQL type
  rows: Row[];
}

function sqlLiteral(value: SqlValue | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'bigint') return String(value);
  // SQLite reads 1e999 as Infinity, and stores NaN as NULL.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : Number.isNaN(value) ? 'NULL' : `${value < 0 ? '-' : ''}1e999`;
  return `'${value.replace(/'/g, "''")}'`;
}

/** Renders tables as a SQL text dump in the shape `sqlite3 db .dump` produces. */
export function dumpSql(tables: TableDump[]): string {
  const out = ['PRAGMA foreign_keys=OFF;', 'BEGIN TRANSACTION;'];
  for (const table of tables) {
    const names = Object.keys(table.columns);
    const decl = names.map((c) => `${c} ${table.columns[c]}`).join(', ');
    out.push(`CREATE TABLE ${table.name} (${decl});`);
    for (const row of table.rows) {
      const values = names.map((c) => sqlLiteral(row[c])).join(', ');
      out.push(`INSERT INTO ${table.name} VALUES(${values});`);
    }
  }
  out.push('COMMIT;', '');
  return out.join('\n');
}
