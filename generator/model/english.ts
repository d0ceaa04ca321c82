/** Texts of the English client's export (input/en/), looked up by the id they share with the main export. */
import type { MasterDb } from '../input/masterDb.ts';

export class EnglishTexts {
  private readonly cache = new Map<string, Map<number, Record<string, unknown>>>();

  constructor(private readonly db: MasterDb | null) {}

  /** The English value of `column` of the row whose `idColumn` is `id`, if any. */
  get(table: string, idColumn: string, id: number, column = 'name'): unknown {
    return this.table(table, idColumn).get(id)?.[column];
  }

  private table(table: string, idColumn: string): Map<number, Record<string, unknown>> {
    const key = `${table}.${idColumn}`;
    let rows = this.cache.get(key);
    if (!rows) {
      rows = new Map((this.db?.rows(table) ?? []).map((row) => [Number(row[idColumn]), row]));
      this.cache.set(key, rows);
    }
    return rows;
  }
}
