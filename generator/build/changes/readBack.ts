/** The site a build follows (input/previousSite.ts), read back: its snapshot and its change lists (the history carried forward). */
import path from 'node:path';
import { endpoints } from '../../contract/endpoints.ts';
import type { ChangeIndexJson, ChangeListJson } from '../../contract/schemas.ts';
import { CHANGE_TYPES, LATER_CHANGE_TYPES } from '../../contract/kinds.ts';
import { UserError } from '../errors.ts';
import type { PreviousSite } from '../input/previousSite.ts';
import { carriedVersionFault } from '../input/curated.ts';
import { isJsonObject } from './published.ts';
import { snapshotOf, type Snapshot, type SiteReader } from './snapshot.ts';

/** Reads the site's published JSON files; the site's label names it in errors (`--since <dir>`). */
function jsonReader(site: PreviousSite): SiteReader {
  const missing = (rel: string) => new UserError(`${site.label}: ${rel} is missing (not a site this builder published?)`);
  return async (rel, optional = false) => {
    let text: string | null;
    try {
      text = await site.read(rel);
    } catch (error) {
      if (error instanceof UserError) throw error;
      throw missing(rel);
    }
    if (text === null) {
      if (optional) return undefined;
      throw missing(rel);
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new UserError(`${site.label}: ${rel}: not valid JSON (${(error as Error).message})`);
    }
  };
}

/**
 * The snapshot of the site. Its date is the one its latest change list gives its version
 * (meta.json's date then), else the newest date its data knows.
 */
export async function siteSnapshot(site: PreviousSite): Promise<Snapshot> {
  const read = jsonReader(site);
  const truthVersion = ((await read(endpoints.info.file())) as { truth_version: string }).truth_version;
  requireCarried(site, endpoints.info.file(), truthVersion);
  const last = ((await read(endpoints.latestChanges.file(), true)) as ChangeListJson | undefined)?.to;
  return snapshotOf(read, last?.truth_version === truthVersion ? last.date : null);
}

/** Refuses, in one line, a truth version of the previous site's file `rel` that a build would refuse as a new one. */
function requireCarried(site: PreviousSite, rel: string, name: unknown): void {
  const fault = carriedVersionFault(name);
  if (fault) throw new UserError(`${site.where(rel)}: the previous site's ${rel.split('/').pop()} cannot be carried: ${fault}`);
}

/**
 * `value` as the change list of `truthVersion`, or null for a hand-edited or foreign file (not
 * carried). A list from before a later change type (songs, charts) gets it as empty: nothing changed in it.
 */
function changeListOf(value: unknown, truthVersion: string): ChangeListJson | null {
  if (!isJsonObject(value) || !isJsonObject(value.from) || !isJsonObject(value.to) || !isJsonObject(value.types)) return null;
  const types = { ...value.types };
  for (const type of LATER_CHANGE_TYPES) types[type] ??= { added: [], removed: [], changed: [] };
  const complete = value.to.truth_version === truthVersion && CHANGE_TYPES.every((type) => isJsonObject(types[type]));
  return complete ? ({ ...value, types } as unknown as ChangeListJson) : null;
}

/**
 * The change lists the site published, by truth version, newest first (its index's order;
 * lists it does not index follow by name). A file that is not a change list is left behind,
 * with a warning.
 */
export async function siteHistory(site: PreviousSite): Promise<{ lists: Map<string, ChangeListJson>; warnings: string[] }> {
  const indexFile = endpoints.changeIndex.file();
  const read = jsonReader(site);
  const names = (await site.list(path.posix.dirname(indexFile))).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length));
  const versions = names.filter((name) => endpoints.changes.file(name) !== indexFile).sort();
  const index = names.length > versions.length ? ((await read(indexFile)) as Partial<ChangeIndexJson>).changes : [];
  const indexed = Array.isArray(index) ? index.map((entry) => entry?.truth_version) : [];
  const lists = new Map<string, ChangeListJson>();
  const warnings: string[] = [];
  for (const version of new Set([...indexed.filter((v) => versions.includes(v)), ...versions])) {
    const rel = endpoints.changes.file(version);
    requireCarried(site, rel, version);
    const list = changeListOf(await read(rel), version);
    if (list) requireCarried(site, rel, list.from.truth_version);
    if (list) lists.set(version, list);
    else warnings.push(`${site.where(rel)} is not a change list: not carried into the new site`);
  }
  return { lists, warnings };
}
