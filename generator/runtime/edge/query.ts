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
 * Sets `key` of `target` as JSON.parse would: a key named __proto__ is an ordinary key (defined,
 * not assigned). Into a plain object, not one without a prototype: objects of one shape stay fast
 * to build and to serialize, and a list's thousands of entries share few shapes.
 */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') setMember(target, key, value);
  else target[key] = value;
}

/** Rebuilds a JSON value, letting `replace` swap the value of any key (undefined: keep and descend). */
function mapEntries(value: unknown, replace: (key: string, v: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => mapEntries(v, replace));
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value)) put(result, key, replace(key, value[key]) ?? mapEntries(value[key], replace));
  return result;
}

function stubbed(key: string, value: unknown): { ref: string } | undefined {
  const type = Object.hasOwn(LINKED_OBJECTS, key) ? LINKED_OBJECTS[key] : undefined;
  return type && isRecord(value) && typeof value.id === 'number' ? { ref: objectRef(type, value.id) } : undefined;
}

function isoTime(unixSeconds: number): string {
  const iso = new Date(unixSeconds * 1000).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/**
 * The timestamp formatter of one response: each time formatted once (a list's thousands of
 * entries share a few hundred release dates, and formatting is most of shaping's CPU).
 */
function timeFormatter(): (key: string, value: unknown) => string | undefined {
  const formatted = new Map<number, string>();
  return (key, value) => {
    if (!TIMESTAMP_KEYS.has(key) || typeof value !== 'number' || Math.abs(value) > 8.64e12) return undefined;
    let iso = formatted.get(value);
    if (iso === undefined) formatted.set(value, (iso = isoTime(value)));
    return iso;
  };
}

/** Keeps only `keys` (compared case-insensitively) in the object entries of every top-level list. */
function pickKeys(body: unknown, keys: string[]): unknown {
  if (!isRecord(body)) return body;
  const wanted = new Set(keys);
  // Decided once per key name: a list's entries share their names.
  const decided = new Map<string, boolean>();
  const keeps = (key: string) => {
    let kept = decided.get(key);
    if (kept === undefined) decided.set(key, (kept = wanted.has(key.toLowerCase())));
    return kept;
  };
  const pick = (entry: unknown) => {
    if (!isRecord(entry)) return entry;
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(entry)) if (keeps(key)) put(result, key, entry[key]);
    return result;
  };
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(body)) put(result, key, Array.isArray(body[key]) ? (body[key] as unknown[]).map(pick) : body[key]);
  return result;
}

/** Shaping that leaves every response as published. */
export const isPlain = (shaping: Shaping) => !shaping.stubs && shaping.datetime === 'unix' && !shaping.keys;

/** The body shaped by the query; `body` itself is never changed (it may be a parse an instance keeps). */
export function applyShaping(body: unknown, shaping: Shaping): unknown {
  let shaped = body;
  // Keys first: the others rebuild only what is kept (they change values, never which keys there are).
  if (shaping.keys) shaped = pickKeys(shaped, shaping.keys);
  if (shaping.stubs) shaped = mapEntries(shaped, stubbed);
  if (shaping.datetime === 'iso8601') shaped = mapEntries(shaped, timeFormatter());
  return shaped;
}
