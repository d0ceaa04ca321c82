/**
 * The optional curated files of an export: meta.json, release_dates.json, sets.json,
 * gachas.json, translations/*.json and the release keys. Absent files are empty data;
 * malformed ones fail the build with a message naming the file and the JSON path.
 */
import path from 'node:path';
import fs from 'node:fs';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { readRegularBytes, requireInside, type InputFolder } from './inputFiles.ts';
import { MAX_JSON_BYTES, MAX_TEXT_CHARS } from './limits.ts';
import { allEndpoints, endpoints } from '../../contract/endpoints.ts';
import { UserError } from '../errors.ts';
import type { Findings } from '../findings.ts';
import type { PreviousSite } from './previousSite.ts';
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

/** The zone each client's master data writes its local times in (docs/input.md). */
export const REGION_TIMEZONES: Record<string, string> = { jp: '+09:00', ww: '+09:00', cn: '+08:00', tw: '+08:00', kr: '+09:00' };

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

/** The JSON file `file` under the input folder `root`; undefined when absent. */
function readJson(root: string, file: string): unknown {
  if (!fs.existsSync(file)) return undefined;
  requireInside(root, file);
  const text = readRegularBytes(file, MAX_JSON_BYTES).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UserError(`${file}: not valid JSON (${(error as Error).message})`);
  }
}

function fail(file: string, message: string): never {
  throw new UserError(`${file}: ${message}`);
}

/** The characters of a truth_version (C0 and C1 control characters would also reach a terminal: a remote site's name is printed). */
const TRUTH_VERSION_PATTERN = '^(?!index$)(?!\\.)[^/\\\\\\u0000-\\u001f\\u007f-\\u009f]{1,128}$';
const TRUTH_VERSION_RULE = '1-128 characters that can name a file: no "/", "\\" or control characters, not starting with ".", not "index"';

/**
 * The shapes of the curated files (docs/input.md), checked with TypeBox: a file that does
 * not fit fails the build with one line naming the file and the JSON path at fault.
 */
const DateValue = Type.Union([Type.Number(), Type.String()], { description: 'unix seconds, ISO 8601 or YYYY/MM/DD H:MM:SS' });
const Ordinals = Type.Array(Type.Integer());
export const CURATED = {
  meta: Type.Object({
    // It names the file api/v1/changes/<truth_version>.json beside changes/index.json.
    truth_version: Type.Optional(Type.String({ pattern: TRUTH_VERSION_PATTERN, description: TRUTH_VERSION_RULE })),
    date: Type.Optional(Type.Union([DateValue, Type.Null()])),
    region: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    timezone: Type.Optional(Type.String()),
  }),
  releaseDates: Type.Record(Type.String({ pattern: '^[0-9]+$' }), DateValue, { additionalProperties: false }),
  sets: Type.Array(Type.Object({
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]*$', description: 'lower-case letters, digits, "-" or "_"' }),
    display_name: Type.String(),
    ordinals: Ordinals,
  })),
  gachas: Type.Array(Type.Object({
    id: Type.String(),
    name: Type.String(),
    start: DateValue,
    end: DateValue,
    ordinals: Type.Optional(Ordinals),
    type: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    subtype: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    rates: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Number()), Type.Null()])),
  })),
  translations: Type.Record(Type.String(), Type.String()),
  /** `{"<release id>": "<base64 key>"}`, or the published list form `[{"id", "key"}]`. */
  releaseKeys: Type.Union([
    Type.Record(Type.String(), Type.String()),
    Type.Array(Type.Object({ id: Type.Union([Type.Integer(), Type.String()]), key: Type.String() })),
  ]),
};

/** The JSON path of the first text (value or key) in `value` longer than MAX_TEXT_CHARS, with its length; null when there is none. */
function longText(value: unknown, at = ''): { path: string; length: number } | null {
  if (typeof value === 'string') return value.length > MAX_TEXT_CHARS ? { path: at, length: value.length } : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, child] of Object.entries(value)) {
    const found = key.length > MAX_TEXT_CHARS ? { path: `${at}/${key.slice(0, 20)}...`, length: key.length } : longText(child, `${at}/${key}`);
    if (found) return found;
  }
  return null;
}

/** The JSON file `file` under `root` checked against `schema`; `fallback` when the file is absent. */
export function readCurated<S extends TSchema>(root: string, file: string, schema: S, fallback: Static<S>): Static<S> {
  const json = readJson(root, file);
  if (json === undefined) return fallback;
  const error = Value.Errors(schema, json).First();
  if (error) fail(file, `${error.path || '(the whole file)'}: ${error.message}${error.schema.description ? ` (${error.schema.description})` : ''}`);
  const long = longText(json);
  if (long) fail(file, `${long.path}: a text of ${long.length} characters; texts over ${MAX_TEXT_CHARS} characters are refused`);
  return json as Static<S>;
}

/** File names Windows reserves for devices, with any extension (`CON`, `nul.json`, `COM1`). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
/** Bytes of a name, so that `<name>.json` stays under the 255-byte limit of common file systems. */
const MAX_NAME_BYTES = 200;

/**
 * Why `name` (a truth_version, which names the file changes/<name>.json) cannot name a file
 * on every system a site is built or deployed on (Linux, macOS, Windows), or null. Names
 * must be in Unicode normal form C, so that two spellings of one name never become two
 * files that a normalizing file system (macOS) takes for one.
 */
function unportableFileName(name: string): string | null {
  if (/[<>:"|?*]/.test(name)) return 'it holds a character Windows refuses in file names (< > : " | ? *)';
  if (/[. ]$/.test(name)) return 'it ends with "." or a space, which Windows drops';
  if (WINDOWS_DEVICE.test(name)) return 'Windows reserves it for a device';
  if (name !== name.normalize('NFC')) return 'it is not in Unicode normal form C (write it NFC-normalized)';
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return `it is longer than ${MAX_NAME_BYTES} bytes in UTF-8`;
  return null;
}

/** A name as a case-insensitive, normalizing file system (macOS, Windows) compares it. */
const asFileSystemSees = (name: string) => name.normalize('NFC').toLowerCase();

/** The site's files of fixed names (routes without parameters), as a case-insensitive file system sees them. */
const fixedFiles = () => new Map(allEndpoints().filter((e) => e.file && !e.route.includes('{')).map((e) => [asFileSystemSees(e.file!()), e.file!()]));

/**
 * The site's file of a fixed name that `truthVersion`'s change list, changes/<truth_version>.json,
 * would be (`Index`: changes/Index.json is changes/index.json on a case-insensitive file system), or null.
 */
function fixedFileOf(truthVersion: string): string | null {
  return fixedFiles().get(asFileSystemSees(endpoints.changes.file(truthVersion))) ?? null;
}

/**
 * Why `name` cannot be a truth_version, or null: every rule meta.json's is held to (its
 * characters, a file name on every system, no file of a fixed name), for a name from elsewhere
 * (a mirrored site's manifest).
 */
export function truthVersionFault(name: string): string | null {
  if (!new RegExp(TRUTH_VERSION_PATTERN, 'u').test(name)) return `it is not ${TRUTH_VERSION_RULE}`;
  const taken = fixedFileOf(name);
  return unportableFileName(name) ?? (taken && `its change list ${endpoints.changes.file(name)} would be the site's ${taken} on a case-insensitive file system`);
}

/**
 * Why a truth version carried from the previous site into this one (its versions.json, its histories,
 * its change lists, its info.json) cannot be published, or null: it passes the same check as a new
 * one, since a --since site may come from anywhere. Quoted as JSON: nothing raw reaches a terminal.
 */
export function carriedVersionFault(name: unknown): string | null {
  if (typeof name !== 'string') return `its truth_version ${String(JSON.stringify(name)).slice(0, 80)} is not text`;
  const fault = truthVersionFault(name);
  return fault && `its truth_version ${JSON.stringify(name.slice(0, 80))} cannot be one: ${fault}`;
}

/** The paths of the change lists of `site`, relative to its root (none when it has no such folder). */
async function changeListFiles(site: PreviousSite): Promise<string[]> {
  const folder = path.posix.dirname(endpoints.changes.file('x'));
  try {
    return (await site.list(folder)).map((name) => `${folder}/${name}`);
  } catch {
    return [];
  }
}

/** The truth versions the previous site (the output folder, or --since) knows: those of its change lists, and its own (info.json). */
export async function publishedVersions(site: PreviousSite): Promise<string[]> {
  const [prefix, suffix] = endpoints.changes.file('\0').split('\0');
  const versions = (await changeListFiles(site)).filter((rel) => rel.startsWith(prefix) && rel.endsWith(suffix)).map((rel) => rel.slice(prefix.length, -suffix.length));
  try {
    // A named pipe or a device there is refused by the site's reader (the changes stage refuses it in one line).
    const info = JSON.parse((await site.read(endpoints.info.file())) ?? '{}') as { truth_version?: unknown };
    if (typeof info.truth_version === 'string') versions.push(info.truth_version);
  } catch {
    // not one of ours: no earlier version
  }
  return versions;
}

/**
 * Fails when `truthVersion` differs from an `earlier` version only by case or Unicode form
 * (`Sample` after `sample`): on a case-insensitive or normalizing file system (macOS, Windows)
 * their change lists, changes/<truth_version>.json, would be one file.
 */
export function requireDistinctVersion(root: string, truthVersion: string | null, earlier: string[]): void {
  const clash = truthVersion === null ? undefined
    : earlier.find((v) => v !== truthVersion && asFileSystemSees(v) === asFileSystemSees(truthVersion));
  if (clash === undefined) return;
  fail(path.join(root, 'meta.json'), `/truth_version: ${JSON.stringify(truthVersion)} differs from the earlier version ${JSON.stringify(clash)} only by case or Unicode form, so on some file systems both change lists would be the one file ${endpoints.changes.file(clash)}; use ${JSON.stringify(clash)} or another name`);
}

/**
 * `assumedRegion`: whose clock reads its dates when meta.json names neither a region nor a zone
 * (JP's by default; an archive passes the region an export's data tells).
 */
export function readMeta(root: string, assumedRegion = 'jp'): Meta {
  const file = path.join(root, 'meta.json');
  const json = readCurated(root, file, CURATED.meta, {});
  const region = readRegion(json.region, file);
  const timezone = json.timezone ?? REGION_TIMEZONES[region ?? assumedRegion];
  const unportable = json.truth_version === undefined ? null : unportableFileName(json.truth_version);
  if (unportable) fail(file, `/truth_version: ${JSON.stringify(json.truth_version)} cannot name a file on every system: ${unportable}`);
  const version = json.truth_version;
  const taken = version === undefined ? null : fixedFileOf(version);
  if (taken) fail(file, `/truth_version: ${JSON.stringify(version)} cannot name a change list: ${endpoints.changes.file(version!)} would be the site's ${taken} on a case-insensitive file system`);
  const meta: Meta = { truthVersion: json.truth_version ?? null, region, timezoneOffset: parseOffset(timezone, file), date: null };
  return { ...meta, date: json.date == null ? null : dateOf(file, '/date', json.date, meta) };
}

/** meta.json's region, lower case (any case is accepted); null when it names none. */
function readRegion(value: string | null | undefined, file: string): string | null {
  if (value === undefined || value === null) return null;
  const region = value.toLowerCase();
  if (!Object.hasOwn(REGION_TIMEZONES, region)) {
    fail(file, `region ${JSON.stringify(value)} is not one of ${Object.keys(REGION_TIMEZONES).join(', ')}`);
  }
  return region;
}

/** A date of a curated file as unix seconds, or a failure naming the file and the entry. */
function dateOf(file: string, where: string, value: unknown, meta: Meta): number {
  const unix = toUnixSeconds(value, meta.timezoneOffset);
  if (unix === null) fail(file, `${where}: ${JSON.stringify(value)} is not a date (1970 to 9999, a real calendar date)`);
  return unix;
}

/** `{ "<ordinal>": <unix seconds> | "<ISO 8601>" | "YYYY/MM/DD HH:MM:SS" }` */
export function readReleaseDates(root: string, meta: Meta): Map<number, number> {
  const file = path.join(root, 'release_dates.json');
  const json = readCurated(root, file, CURATED.releaseDates, {});
  return new Map(Object.entries(json).map(([ordinal, value]) => [Number(ordinal), dateOf(file, `/${ordinal}`, value, meta)]));
}

/** `[{ "id": "summer-2019", "display_name": "...", "ordinals": [1, 2] }]` */
export function readSets(root: string): CuratedSet[] {
  const file = path.join(root, 'sets.json');
  return readCurated(root, file, CURATED.sets, []).map((set) => ({ id: set.id, displayName: set.display_name, ordinals: set.ordinals }));
}

/** `[{ "id", "name", "start", "end", "ordinals"?, "type"?, "subtype"?, "rates"? }]`, dates as in release_dates.json. */
export function readGachas(root: string, meta: Meta): CuratedGacha[] {
  const file = path.join(root, 'gachas.json');
  return readCurated(root, file, CURATED.gachas, []).map((g, i) => {
    const start = dateOf(file, `/${i}/start`, g.start, meta);
    const end = dateOf(file, `/${i}/end`, g.end, meta);
    if (end < start) fail(file, `/${i}: gacha ${g.id} ends before it starts`);
    return { id: g.id, name: g.name, start, end, ordinals: g.ordinals ?? [], type: g.type ?? null, subtype: g.subtype ?? null, rates: g.rates ?? null };
  });
}

/** The translation files: every .json file under translations/. */
export const translationFiles = (input: InputFolder) => input.files((rel) => rel.startsWith('translations/') && rel.endsWith('.json'));

/** All translations/*.json merged in file-name order; a later file wins a conflict (with a warning). */
export function readTranslations(input: InputFolder, findings: Findings): Map<string, string> {
  const merged = new Map<string, string>();
  for (const name of translationFiles(input).sort()) {
    const file = path.join(input.root, name);
    for (const [original, translation] of Object.entries(readCurated(input.root, file, CURATED.translations, {}))) {
      const previous = merged.get(original);
      if (previous !== undefined && previous !== translation) findings.warn(`${file}: "${original}" overrides an earlier translation`, 'translations overriding earlier ones');
      merged.set(original, translation);
    }
  }
  return merged;
}
