/**
 * The optional curated files of an export: meta.json, release_dates.json, sets.json,
 * gachas.json and translations/*.json. Absent files are empty data; malformed ones
 * fail the build with a message naming the file.
 */
import path from 'node:path';
import fs from 'node:fs';
import { listInputFiles, requireInside } from './inputFiles.ts';
import { InputError, type BuildReport } from '../report.ts';
import { parseOffset, toUnixSeconds } from './time.ts';

export interface Meta {
  truthVersion: string | null;
  /** The client region meta.json names, lower case; null when it names none. */
  region: string | null;
  /** Minutes east of UTC of the export's local times: `timezone`, else the region's, else JP's +09:00. */
  timezoneOffset: number;
  /** When this version of the game data came out (unix seconds), for the changelog; null when not given. */
  date: number | null;
}

/** The zone each client's master data writes its local times in (README, "Input"). */
const REGION_TIMEZONES: Record<string, string> = { jp: '+09:00', ww: '+09:00', cn: '+08:00', tw: '+08:00', kr: '+09:00' };

export interface CuratedSet {
  id: string;
  displayName: string;
  ordinals: number[];
}

export interface CuratedGacha {
  id: string;
  name: string;
  start: number;
  end: number;
  ordinals: number[];
  /** Optional, as starlight's happening reports them; null when not given. */
  type: number | null;
  subtype: number | null;
  /** Percent by rarity name, e.g. {"r": 80, "sr": 15, "ur": 5}. */
  rates: Record<string, number> | null;
}

const SET_ID = /^[a-z0-9][a-z0-9_-]*$/;
const TRUTH_VERSION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The JSON file `file` under the input folder `root`; undefined when absent. */
export function readJson(root: string, file: string): unknown {
  if (!fs.existsSync(file)) return undefined;
  requireInside(root, file);
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InputError(`${file}: not valid JSON (${(error as Error).message})`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isOrdinals = (v: unknown): v is number[] => Array.isArray(v) && v.every((n) => Number.isInteger(n));

function fail(file: string, message: string): never {
  throw new InputError(`${file}: ${message}`);
}

export function readMeta(root: string): Meta {
  const file = path.join(root, 'meta.json');
  const json = readJson(root, file) ?? {};
  if (!isObject(json)) fail(file, 'expected an object');
  const truth = json.truth_version;
  if (truth !== undefined && typeof truth !== 'string') fail(file, 'truth_version must be a string');
  // It names the file api/v1/changes/<truth_version>.json beside changes/index.json.
  if (truth !== undefined && (!TRUTH_VERSION.test(truth) || truth === 'index')) {
    fail(file, `truth_version ${JSON.stringify(truth)} must be 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit, and not "index"`);
  }
  const region = readRegion(json.region, file);
  const timezone = json.timezone ?? REGION_TIMEZONES[region ?? 'jp'];
  if (typeof timezone !== 'string') fail(file, 'timezone must be a string like +09:00');
  const timezoneOffset = parseOffset(timezone, file);
  const date = json.date == null ? null : toUnixSeconds(json.date, timezoneOffset);
  if (json.date != null && date === null) fail(file, 'date must be unix seconds or a date as in release_dates.json');
  return { truthVersion: truth ?? null, region, timezoneOffset, date };
}

/** meta.json's region, lower case (any case is accepted); null when it names none. */
function readRegion(value: unknown, file: string): string | null {
  if (value === undefined || value === null) return null;
  const region = typeof value === 'string' ? value.toLowerCase() : '';
  if (!Object.hasOwn(REGION_TIMEZONES, region)) {
    fail(file, `region ${JSON.stringify(value)} is not one of ${Object.keys(REGION_TIMEZONES).join(', ')}`);
  }
  return region;
}

/** `{ "<ordinal>": <unix seconds> | "<ISO 8601>" | "YYYY/MM/DD HH:MM:SS" }` */
export function readReleaseDates(root: string, meta: Meta): Map<number, number> {
  const file = path.join(root, 'release_dates.json');
  const json = readJson(root, file) ?? {};
  if (!isObject(json)) fail(file, 'expected an object mapping ordinals to dates');
  const dates = new Map<number, number>();
  for (const [key, value] of Object.entries(json)) {
    const unix = toUnixSeconds(value, meta.timezoneOffset);
    if (!/^\d+$/.test(key) || unix === null) fail(file, `entry "${key}" must map an ordinal to a date (1970 to 9999, a real calendar date)`);
    dates.set(Number(key), unix);
  }
  return dates;
}

/** `[{ "id": "summer-2019", "display_name": "...", "ordinals": [1, 2] }]` */
export function readSets(root: string): CuratedSet[] {
  const file = path.join(root, 'sets.json');
  const json = readJson(root, file) ?? [];
  if (!Array.isArray(json)) fail(file, 'expected an array of sets');
  return json.map((set, i) => {
    if (!isObject(set) || typeof set.id !== 'string' || !SET_ID.test(set.id)) {
      fail(file, `set #${i} needs an id of lower-case letters, digits, "-" or "_"`);
    }
    if (typeof set.display_name !== 'string' || !isOrdinals(set.ordinals)) {
      fail(file, `set ${set.id} needs a display_name string and an ordinals array of integers`);
    }
    return { id: set.id, displayName: set.display_name, ordinals: set.ordinals };
  });
}

const optionalInt = (file: string, id: string, key: string, v: unknown): number | null => {
  if (v === undefined || v === null) return null;
  if (!Number.isInteger(v)) fail(file, `gacha ${id}: ${key} must be an integer`);
  return v as number;
};

function rates(file: string, id: string, v: unknown): Record<string, number> | null {
  if (v === undefined || v === null) return null;
  if (!isObject(v) || !Object.values(v).every((r) => typeof r === 'number' && Number.isFinite(r))) {
    fail(file, `gacha ${id}: rates must map rarity names to numbers`);
  }
  return v as Record<string, number>;
}

/** `[{ "id", "name", "start", "end", "ordinals", "type"?, "subtype"?, "rates"? }]`, dates as in release_dates.json. */
export function readGachas(root: string, meta: Meta): CuratedGacha[] {
  const file = path.join(root, 'gachas.json');
  const json = readJson(root, file) ?? [];
  if (!Array.isArray(json)) fail(file, 'expected an array of gachas');
  return json.map((g, i) => {
    if (!isObject(g) || typeof g.id !== 'string' || typeof g.name !== 'string') fail(file, `gacha #${i} needs an id and a name`);
    const start = toUnixSeconds(g.start, meta.timezoneOffset);
    const end = toUnixSeconds(g.end, meta.timezoneOffset);
    if (start === null || end === null || end < start) fail(file, `gacha ${g.id} needs start and end dates, end after start`);
    const ordinals = g.ordinals ?? [];
    if (!isOrdinals(ordinals)) fail(file, `gacha ${g.id}: ordinals must be an array of integers`);
    return {
      id: g.id, name: g.name, start, end, ordinals,
      type: optionalInt(file, g.id, 'type', g.type), subtype: optionalInt(file, g.id, 'subtype', g.subtype), rates: rates(file, g.id, g.rates),
    };
  });
}

/** All translations/*.json merged in file-name order; a later file wins a conflict (with a warning). */
export function readTranslations(root: string, report: BuildReport): Map<string, string> {
  const merged = new Map<string, string>();
  const files = listInputFiles(root, 'translations/**/*.json').sort();
  for (const name of files) {
    const file = path.join(root, name);
    const json = readJson(root, file);
    if (!isObject(json)) fail(file, 'expected an object mapping original text to its translation');
    for (const [original, translation] of Object.entries(json)) {
      if (typeof translation !== 'string') fail(file, `translation of "${original}" must be a string`);
      const previous = merged.get(original);
      if (previous !== undefined && previous !== translation) report.warn(`${file}: "${original}" overrides an earlier translation`);
      merged.set(original, translation);
    }
  }
  return merged;
}
