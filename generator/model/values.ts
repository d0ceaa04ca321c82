/** Coercions for database values: rows come from SQLite or from decrypted JSON payloads. */
import type { Text } from './types.ts';

export const num = (value: unknown): number => (value === null || value === undefined || value === '' ? 0 : Number(value));

export const numOrNull = (value: unknown): number | null => (value === null || value === undefined || value === '' ? null : Number(value));

const nonEmpty = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** A text with its secondary-language form: the first non-empty candidate, in priority order. */
export function text(original: unknown, ...secondary: unknown[]): Text {
  return { original: typeof original === 'string' ? original : '', secondary: secondary.map(nonEmpty).find((s) => s !== null) ?? null };
}

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
