/**
 * Secondary-language texts: the English client's export (input/en/), looked up by the id it
 * shares with the main export, then the `*_en` column, then the crowd translations.
 */
import type { MasterDb } from '../input/masterDb.ts';
import type { Text } from './types.ts';
import { text } from './values.ts';

export class EnglishTexts {
  private readonly cache = new Map<string, Map<number, Record<string, unknown>>>();

  constructor(private readonly db: MasterDb | null, private readonly translations: ReadonlyMap<string, string> = new Map()) {}

  /** The English value of `column` of the row whose `idColumn` is `id`, if any. */
  get(table: string, idColumn: string, id: number, column = 'name'): unknown {
    return this.table(table, idColumn).get(id)?.[column];
  }

  /** `original` with the first known secondary text: the candidates in order, then a crowd translation. */
  text(original: unknown, ...candidates: unknown[]): Text {
    return text(original, ...candidates, typeof original === 'string' ? this.translations.get(original) : undefined);
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
