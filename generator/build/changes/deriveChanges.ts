/**
 * The changelog stage: compares the data of the site being built with the previous site's
 * and publishes the change lists (api/v1/changes.json, changes/<truth_version>.json,
 * changes/index.json), carrying the previous site's lists forward. The previous site's
 * snapshot comes from the build records (store.ts), or from the folder `--since` names.
 * A truth version's list compares with the last site of an earlier truth version (its
 * base), so a rebuild of the same version (a key arrived) updates that version's list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { endpoints } from '../../contract/endpoints.ts';
import type { ChangeListJson } from '../../contract/schemas.ts';
import { emit, type SiteFiles } from '../render/files.ts';
import type { BuildReport } from '../report.ts';
import type { ChangeCounts } from '../../contract/schemas.ts';
import type { Rendered } from '../render/renderSite.ts';
import { publishedObjects } from './published.ts';
import type { HistoryInput } from './history.ts';
import { countsOf, diffSnapshots, isEmpty } from './diff.ts';
import { siteHistory, siteSnapshot } from './previousSite.ts';
import { sameText, snapshotOfObjects, type Snapshot } from './snapshot.ts';
import { loadSnapshot, pruneSnapshots, saveSnapshot, type StoredSnapshot } from './store.ts';

/** What the stage keeps with the site (in its manifest) for the next build. */
export interface ChangeRecords {
  /** The site's snapshot. */
  snapshot: string;
  /** The snapshot its truth version's change list is computed from (null on a first build). */
  base: string | null;
}

export interface ChangesOptions {
  /** The output folder: read back when its build records hold no snapshot. */
  out: string;
  /** Where the build records keep snapshots (publish/layout.ts `snapshots`). */
  store: string;
  /** A site this builder published, compared with instead of the previous build (--since). */
  since?: string;
  /** meta.json's date of this version; null when it gives none. */
  date: number | null;
  /** The records the published site's build returned; anything else counts as none. */
  changeRecords: unknown;
}

/** The site compared with: its snapshot, its base (see ChangeRecords) and the folder holding its change lists. */
interface Previous {
  current: StoredSnapshot;
  base: StoredSnapshot | null;
  folder: string;
  /** Read back from a folder (--since, or a site without build records), not from this builder's records. */
  readBack: boolean;
}

const isRecords = (value: unknown): value is ChangeRecords => {
  const records = value as ChangeRecords | null;
  return typeof records?.snapshot === 'string' && (records.base === null || typeof records.base === 'string');
};

function previousSite(options: ChangesOptions, records: ChangeRecords | null, report: BuildReport): Previous | null {
  const { store } = options;
  const folderSite = (folder: string, label: string): Previous => ({ current: { snapshot: siteSnapshot(folder, label), name: null }, base: null, folder, readBack: true });
  if (options.since !== undefined) return folderSite(path.resolve(options.since), `--since ${options.since}`);
  const current = records && loadSnapshot(store, records.snapshot);
  if (current) return { current, base: records.base === null ? null : loadSnapshot(store, records.base), folder: options.out, readBack: false };
  // A site published without records (an older builder, or a deleted .cache): read it back.
  if (!fs.existsSync(path.join(options.out, endpoints.info.file()))) return null;
  try {
    return folderSite(options.out, options.out);
  } catch (error) {
    report.warn(`the previous site cannot be compared with (${(error as Error).message}): no change list this build`);
    return null;
  }
}

/** The change lists, newest first, with changes.json (the newest) and the index. */
function emitHistory(files: SiteFiles, lists: ChangeListJson[]): void {
  for (const list of lists) emit(files, endpoints.changes, [list.to.truth_version], list);
  if (lists.length) emit(files, endpoints.latestChanges, [], lists[0]);
  emit(files, endpoints.changeIndex, [], {
    changes: lists.map((list) => ({
      truth_version: list.to.truth_version, from_truth_version: list.from.truth_version, date: list.to.date, counts: countsOf(list),
    })),
  });
}

/**
 * The change lists after this build, newest first: the previous site's, and when the data
 * changed, this truth version's list (replacing an older one of the same version).
 */
function nextHistory(previous: Previous, current: Snapshot, report: BuildReport): { lists: ChangeListJson[]; base: StoredSnapshot; update: ChangeCounts } {
  const version = current.version.truth_version;
  // A rebuild of the same version (a key arrived) compares with the base of that version's list.
  const base = previous.current.snapshot.version.truth_version === version ? previous.base ?? previous.current : previous.current;
  const diff = diffSnapshots(previous.current.snapshot, current);
  const update = countsOf(diff);
  const carried = [...siteHistory(previous.folder, report).values()];
  if (isEmpty(update)) return { lists: carried, base, update };
  const list = base === previous.current ? diff : diffSnapshots(base.snapshot, current);
  const others = carried.filter((l) => l.to.truth_version !== version);
  return { lists: isEmpty(countsOf(list)) ? others : [list, ...others], base, update };
}

/** Whether two snapshots hold the same version and the same objects. */
function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  return isDeepStrictEqual(a.version, b.version) && Object.entries(a.objects).every(([kind, texts]) => {
    const other = b.objects[kind as keyof Snapshot['objects']];
    return texts.size === other.size && [...texts].every(([id, text]) => sameText(other.get(id), text));
  });
}

/** The site being built, as the changes stage gets it: what its render stage returned, and its truth version. */
export interface BuiltSite {
  rendered: Rendered;
  truthVersion: string;
}

/**
 * Publishes the change lists of the site being built into `files`, records in the report
 * what this build changed, and returns the records to keep with the new site and what the
 * history stage continues from.
 */
export function deriveChanges(site: BuiltSite, files: SiteFiles, options: ChangesOptions, report: BuildReport): { records: ChangeRecords; history: HistoryInput } {
  const { store } = options;
  const previousRecords = isRecords(options.changeRecords) ? options.changeRecords : null;
  const previous = previousSite(options, previousRecords, report);
  const current: StoredSnapshot = { snapshot: snapshotOfObjects(publishedObjects(site.rendered), site.truthVersion, options.date), name: null };
  const { lists, base, update } = previous ? nextHistory(previous, current.snapshot, report) : { lists: [], base: null, update: null };
  report.update = update;
  emitHistory(files, lists);
  pruneSnapshots(store, [previousRecords?.snapshot, previousRecords?.base]);
  // Unchanged objects keep the previous snapshot's folder (not serialized and hashed again).
  const unchanged = previous && sameSnapshot(previous.current.snapshot, current.snapshot);
  const records = { snapshot: saveSnapshot(store, unchanged ? previous.current : current), base: base && saveSnapshot(store, base) };
  return { records, history: { previous: previous?.current.snapshot ?? null, current: current.snapshot, folder: previous?.folder ?? null, readBack: previous?.readBack ?? false } };
}
