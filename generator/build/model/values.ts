/** Coercions for database values: rows come from SQLite or from decrypted JSON payloads. */
import type { Text } from './types.ts';
import type { DbRow } from '../input/masterDb.ts';
import { MAX_ID } from '../../contract/limits.ts';

export const num = (value: unknown): number => (value === null || value === undefined || value === '' ? 0 : Number(value));

/** A number, or null when the value is absent or not a number at all (text such as "abc" names no id). */
export const numOrNull = (value: unknown): number | null => {
  const number = value === null || value === undefined || value === '' ? NaN : Number(value);
  return Number.isNaN(number) ? null : number;
};

const nonEmpty = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** A text with its secondary-language form: the first non-empty candidate, in priority order. */
export function text(original: unknown, ...secondary: unknown[]): Text {
  return { original: typeof original === 'string' ? original : '', secondary: secondary.map(nonEmpty).find((s) => s !== null) ?? null };
}

/** An asset path as a database names it, trimmed of surrounding spaces (some exports end paths in one); null when empty or not text. */
export const assetPath = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** Groups rows by a key, keeping row order within each group. */
export function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}



/** Whether a row's value is an ordinal: a whole number from 1 to MAX_ID, the highest a request can name (not text, not 12.5, not Infinity). */
export const isOrdinal = (value: DbRow[string]): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_ID;
