/**
 * Query parameters every JSON route takes (SPEC 4): `?stubs=yes` replaces embedded linked
 * objects by refs, `?datetime=unix|iso8601` formats timestamps, `?keys=a,b` keeps only those
 * keys in the entries of a response's lists.
 */
import { LINKED_OBJECTS, TIMESTAMP_KEYS, objectRef, type RefJson } from '../format.ts';
import { HttpError } from './http.ts';

export interface Shaping {
  stubs: boolean;
  datetime: 'unix' | 'iso8601';
  /** null: keep every key. */
  keys: string[] | null;
}

const KEY_LIST = /^\w+(,\w+)*$/;

function choice<T extends string>(params: URLSearchParams, name: string, allowed: readonly T[], fallback: T): T {
  const value = params.get(name);
  if (value === null) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new HttpError(400, `query parameter ${name}=${value} is not one of ${allowed.join(', ')}`);
  }
  return value as T;
}

export function parseShaping(params: URLSearchParams): Shaping {
  const keys = params.get('keys');
  if (keys !== null && !KEY_LIST.test(keys)) throw new HttpError(400, `query parameter keys="${keys}" is not a comma list of key names`);
  return {
    stubs: choice(params, 'stubs', ['yes', 'no'], 'no') === 'yes',
    datetime: choice(params, 'datetime', ['unix', 'iso8601'], 'unix'),
    keys: keys === null ? null : keys.split(','),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Rebuilds a JSON value, letting `replace` swap the value of any key (undefined: keep and descend). */
function mapEntries(value: unknown, replace: (key: string, v: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => mapEntries(v, replace));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(k, v) ?? mapEntries(v, replace)]));
}

function stubbed(key: string, value: unknown): RefJson | undefined {
  const type = LINKED_OBJECTS[key];
  return type && isRecord(value) && typeof value.id === 'number' ? { ref: objectRef(type, value.id) } : undefined;
}

const isoTime = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');

function formatted(key: string, value: unknown): string | undefined {
  return TIMESTAMP_KEYS.has(key) && typeof value === 'number' ? isoTime(value) : undefined;
}

/** Keeps only `keys` in the object entries of every top-level list. */
function pickKeys(body: unknown, keys: string[]): unknown {
  if (!isRecord(body)) return body;
  const pick = (entry: unknown) => (isRecord(entry) ? Object.fromEntries(keys.filter((k) => k in entry).map((k) => [k, entry[k]])) : entry);
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, Array.isArray(v) ? v.map(pick) : v]));
}

export function applyShaping(body: unknown, shaping: Shaping): unknown {
  let shaped = body;
  if (shaping.stubs) shaped = mapEntries(shaped, stubbed);
  if (shaping.datetime === 'iso8601') shaped = mapEntries(shaped, formatted);
  if (shaping.keys) shaped = pickKeys(shaped, shaping.keys);
  return shaped;
}
