/** A site this builder published, read back: its snapshot and its change lists (the history carried forward). */
import fs from 'node:fs';
import path from 'node:path';
import { endpoints } from '../../contract/endpoints.ts';
import { CHANGE_TYPES, SONG_CHANGE_TYPES, type ChangeIndexJson, type ChangeListJson } from '../../contract/schemas.ts';
import { UserError } from '../errors.ts';
import { readRegularBytes } from '../input/inputFiles.ts';
import { MAX_INPUT_FILE_BYTES } from '../input/limits.ts';
import type { BuildReport } from '../report.ts';
import { isJsonObject } from './published.ts';
import { snapshotOf, type Snapshot, type SiteReader } from './snapshot.ts';

/** The largest file read back from a site (its largest JSON files, packs and lists, are megabytes). */
const MAX_SITE_FILE_BYTES = MAX_INPUT_FILE_BYTES;

/**
 * A file of a published site read back, by the input folder's rules: a regular file up to a
 * size limit (a named pipe in a --since folder would hang the build holding its lock, a device
 * such as /dev/zero would never end). A missing file is an ENOENT error.
 */
export const readSiteFile = (file: string): Buffer => readRegularBytes(file, MAX_SITE_FILE_BYTES, 'a previous site');

/** Reads published files of the folder `dir`; `label` names the site in errors (`--since <dir>`). */
function folderReader(dir: string, label: string): SiteReader {
  return (rel, optional = false) => {
    const file = path.join(dir, rel);
    if (optional && !fs.existsSync(file)) return undefined;
    let text: string;
    try {
      text = readSiteFile(file).toString('utf8');
    } catch (error) {
      if (error instanceof UserError) throw error;
      throw new UserError(`${label}: ${rel} is missing (not a site this builder published?)`);
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new UserError(`${label}: ${rel}: not valid JSON (${(error as Error).message})`);
    }
  };
}

/** The site's latest change list, when the folder has one. */
function latest(dir: string): ChangeListJson | null {
  const file = path.join(dir, endpoints.latestChanges.file());
  return fs.existsSync(file) ? (folderReader(dir, dir)(endpoints.latestChanges.file()) as ChangeListJson) : null;
}

/**
 * The snapshot of a published site. Its date is the one its latest change list gives its
 * version (meta.json's date then), else the newest date its data knows.
 */
export function siteSnapshot(dir: string, label: string): Snapshot {
  const read = folderReader(dir, label);
  const truthVersion = (read(endpoints.info.file()) as { truth_version: string }).truth_version;
  const last = latest(dir)?.to;
  return snapshotOf(read, last?.truth_version === truthVersion ? last.date : null);
}

/**
 * `value` as the change list of `truthVersion`, or null for a hand-edited or foreign file (not
 * carried). A list from before songs gets the song types as empty: nothing changed in them.
 */
function changeListOf(value: unknown, truthVersion: string): ChangeListJson | null {
  if (!isJsonObject(value) || !isJsonObject(value.from) || !isJsonObject(value.to) || !isJsonObject(value.types)) return null;
  const types = { ...value.types };
  for (const type of SONG_CHANGE_TYPES) types[type] ??= { added: [], removed: [], changed: [] };
  const complete = value.to.truth_version === truthVersion && CHANGE_TYPES.every((type) => isJsonObject(types[type]));
  return complete ? ({ ...value, types } as unknown as ChangeListJson) : null;
}

/**
 * The change lists the site at `dir` published, by truth version, newest first (its
 * index's order; lists it does not index follow by name). A file that is not a change list
 * is left behind with a warning.
 */
export function siteHistory(dir: string, report: BuildReport): Map<string, ChangeListJson> {
  const indexFile = endpoints.changeIndex.file();
  const folder = path.join(dir, path.dirname(indexFile));
  if (!fs.existsSync(folder)) return new Map();
  const read = folderReader(dir, dir);
  const names = fs.readdirSync(folder).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length));
  const versions = names.filter((name) => endpoints.changes.file(name) !== indexFile).sort();
  const index = names.length > versions.length ? (read(indexFile) as Partial<ChangeIndexJson>).changes : [];
  const indexed = Array.isArray(index) ? index.map((entry) => entry?.truth_version) : [];
  const lists = new Map<string, ChangeListJson>();
  for (const version of new Set([...indexed.filter((v) => versions.includes(v)), ...versions])) {
    const list = changeListOf(read(endpoints.changes.file(version)), version);
    if (list) lists.set(version, list);
    else report.warn(`${path.join(dir, endpoints.changes.file(version))} is not a change list: not carried into the new site`);
  }
  return lists;
}
