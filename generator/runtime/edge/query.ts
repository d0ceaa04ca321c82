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

/** A member's new value by its key, or undefined to keep it (and shape what is inside it). */
type Replace = (key: string, value: unknown) => unknown;

/** Rebuilds a JSON value, letting `replace` swap the value of any key (undefined: keep and descend). */
function mapEntries(value: unknown, replace: Replace): unknown {
  if (Array.isArray(value)) return value.map((v) => mapEntries(v, replace));
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = {};
  for (const key in value) put(result, key, member(key, value[key], replace));
  return result;
}

/** A member's value shaped: replaced, or rebuilt with its own members shaped. */
const member = (key: string, value: unknown, replace: Replace) => replace(key, value) ?? mapEntries(value, replace);

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
function timeFormatter(): Replace {
  const formatted = new Map<number, string>();
  return (key, value) => {
    if (typeof value !== 'number' || !TIMESTAMP_KEYS.has(key) || Math.abs(value) > 8.64e12) return undefined;
    let iso = formatted.get(value);
    if (iso === undefined) formatted.set(value, (iso = isoTime(value)));
    return iso;
  };
}

/**
 * What ?stubs= and ?datetime= replace, in one function: a linked object by its ref, else a
 * timestamp by its text (the two never meet: a linked object is an object, a timestamp a number);
 * null when neither is asked.
 */
function replacer(shaping: Shaping): Replace | null {
  const time = shaping.datetime === 'iso8601' ? timeFormatter() : null;
  if (!shaping.stubs) return time;
  return time ? (key, value) => stubbed(key, value) ?? time(key, value) : stubbed;
}

/** What pickKeys does with a member, by its key's name: leave it out, keep its value, or set it by `put` and `member`. */
const DROP = 0;
const KEEP = 1;
const SHAPE = 2;

/**
 * Keeps only `keys` (compared case-insensitively) in the object entries of every top-level list,
 * shaping the kept members' values by `replace` (and every other member's) in the same pass: no
 * entry is built to be rebuilt. What to do with a member is decided once per key name, and an
 * entry's keys are compared with the previous entry's at the same place first (a list's entries
 * share their names, in the same order), which costs less than looking each name up.
 */
function pickKeys(body: Record<string, unknown>, keys: string[], replace: Replace | null): Record<string, unknown> {
  const wanted = new Set(keys);
  const decided = new Map<string, number>();
  const decide = (key: string) => {
    let code = decided.get(key);
    if (code === undefined) {
      const special = key === '__proto__' || (replace !== null && (TIMESTAMP_KEYS.has(key) || Object.hasOwn(LINKED_OBJECTS, key)));
      decided.set(key, (code = !wanted.has(key.toLowerCase()) ? DROP : special ? SHAPE : KEEP));
    }
    return code;
  };
  /** The previous entry's keys and what was decided for them, by place. */
  const names: string[] = [];
  const codes: number[] = [];
  const result: Record<string, unknown> = {};
  // for-in: a parse's own keys in Object.keys order (Object.prototype has no enumerable member), without an array per entry.
  for (const name in body) {
    const list = body[name];
    if (!Array.isArray(list)) {
      put(result, name, replace ? member(name, list, replace) : list);
      continue;
    }
    const entries = new Array<unknown>(list.length);
    for (let i = 0; i < list.length; i++) {
      const entry: unknown = list[i];
      if (!isRecord(entry)) {
        entries[i] = replace ? mapEntries(entry, replace) : entry;
        continue;
      }
      const picked: Record<string, unknown> = {};
      let at = 0;
      for (const key in entry) {
        let code: number;
        if (names[at] === key) code = codes[at];
        else {
          code = decide(key);
          names[at] = key;
          codes[at] = code;
        }
        at++;
        if (code === KEEP) {
          // Neither a timestamp, a linked object, nor __proto__: a value with no object in it is kept as it is.
          const value = entry[key];
          picked[key] = replace && typeof value === 'object' && value !== null ? mapEntries(value, replace) : value;
        } else if (code === SHAPE) put(picked, key, replace ? member(key, entry[key], replace) : entry[key]);
      }
      entries[i] = picked;
    }
    put(result, name, entries);
  }
  return result;
}

/** Shaping that leaves every response as published. */
export const isPlain = (shaping: Shaping) => !shaping.stubs && shaping.datetime === 'unix' && !shaping.keys;

/** The body shaped by the query; `body` itself is never changed (it may be a parse an instance keeps). */
export function applyShaping(body: unknown, shaping: Shaping): unknown {
  const replace = replacer(shaping);
  // Keys pick and shape in one pass; stubs and datetime change values, never which keys there are.
  if (shaping.keys && isRecord(body)) return pickKeys(body, shaping.keys, replace);
  return replace ? mapEntries(body, replace) : body;
}
