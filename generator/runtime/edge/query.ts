/**
 * Query parameters every JSON route takes, read as the original services read
 * them: a repeated parameter's last value wins, and values never fail a request.
 * `?stubs=yes` replaces embedded linked objects by refs, `?datetime=iso8601` formats
 * timestamps, `?keys=a,b` keeps only those keys in the entries of a response's lists.
 */
import { LINKED_OBJECTS, TIMESTAMP_KEYS } from '../../contract/format.ts';
import { objectRef } from '../../contract/endpoints.ts';
import { setMember } from '../../contract/patch.ts';

export interface Shaping {
  stubs: boolean;
  datetime: 'unix' | 'iso8601';
  /** Lower-cased key names to keep; null: keep every key. */
  keys: string[] | null;
}

/** The last value of a parameter, as upstream's frameworks read repeated parameters. */
const last = (params: URLSearchParams, name: string): string | null => params.getAll(name).at(-1) ?? null;

/** yes, true or 1 in any case (starlight's truthy values); anything else is no. */
export const isYes = (value: string | null) => value !== null && ['yes', 'true', '1'].includes(value.trim().toLowerCase());

export function parseShaping(params: URLSearchParams): Shaping {
  const keys = (last(params, 'keys') ?? '').split(',').map((k) => k.trim().toLowerCase()).filter((k) => k !== '');
  return {
    stubs: isYes(last(params, 'stubs')),
    datetime: last(params, 'datetime')?.trim().toLowerCase() === 'iso8601' ? 'iso8601' : 'unix',
    // `?keys=` naming no key keeps every key, as no parameter does.
    keys: keys.length ? keys : null,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A record built from entries, a key named __proto__ an ordinary key (defined, not assigned).
 * A plain object, not one without a prototype: objects of one shape stay fast to build and to
 * serialize, and a list's thousands of entries share few shapes.
 */
function record(entries: [string, unknown][]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    if (key === '__proto__') setMember(result, key, value);
    else result[key] = value;
  }
  return result;
}

/** Rebuilds a JSON value, letting `replace` swap the value of any key (undefined: keep and descend). */
function mapEntries(value: unknown, replace: (key: string, v: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => mapEntries(v, replace));
  if (!isRecord(value)) return value;
  return record(Object.entries(value).map(([k, v]) => [k, replace(k, v) ?? mapEntries(v, replace)]));
}

function stubbed(key: string, value: unknown): { ref: string } | undefined {
  const type = Object.hasOwn(LINKED_OBJECTS, key) ? LINKED_OBJECTS[key] : undefined;
  return type && isRecord(value) && typeof value.id === 'number' ? { ref: objectRef(type, value.id) } : undefined;
}

const isoTime = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');

function formatted(key: string, value: unknown): string | undefined {
  return TIMESTAMP_KEYS.has(key) && typeof value === 'number' && Math.abs(value) <= 8.64e12 ? isoTime(value) : undefined;
}

/** Keeps only `keys` (compared case-insensitively) in the object entries of every top-level list. */
function pickKeys(body: unknown, keys: string[]): unknown {
  if (!isRecord(body)) return body;
  const wanted = new Set(keys);
  const pick = (entry: unknown) => (isRecord(entry) ? record(Object.entries(entry).filter(([k]) => wanted.has(k.toLowerCase()))) : entry);
  return record(Object.entries(body).map(([k, v]) => [k, Array.isArray(v) ? v.map(pick) : v]));
}

/** Shaping that leaves every response as published. */
export const isPlain = (shaping: Shaping) => !shaping.stubs && shaping.datetime === 'unix' && !shaping.keys;

/** The body shaped by the query; `body` itself is never changed (it may be a parse an instance keeps). */
export function applyShaping(body: unknown, shaping: Shaping): unknown {
  let shaped = body;
  // Keys first: the others rebuild only what is kept (they change values, never which keys there are).
  if (shaping.keys) shaped = pickKeys(shaped, shaping.keys);
  if (shaping.stubs) shaped = mapEntries(shaped, stubbed);
  if (shaping.datetime === 'iso8601') shaped = mapEntries(shaped, formatted);
  return shaped;
}
