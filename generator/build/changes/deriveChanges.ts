/**
 * The changelog stage: compares the data of the site being built with the previous site's
 * and publishes the change lists (api/v1/changes.json, changes/<truth_version>.json,
 * changes/index.json), carrying the previous site's lists forward. The previous site's
 * snapshot is the one its build recorded (store.ts), or read back from the site.
 * A truth version's list compares with the last site of an earlier truth version (its
 * base), so a rebuild of the same version (a key arrived) updates that version's list.
 */
import { isDeepStrictEqual } from 'node:util';
import { endpoints } from '../../contract/endpoints.ts';
import type { ChangeCounts, ChangeListJson } from '../../contract/schemas.ts';
import { emit } from '../render/files.ts';
import type { SiteFiles } from '../siteFiles.ts';
import type { Rendered } from '../render/renderSite.ts';
import type { PreviousSite } from '../input/previousSite.ts';
import { publishedObjects } from './published.ts';
import type { HistoryInput } from './history.ts';
import { countsOf, diffSnapshots, isEmpty } from './diff.ts';
import { siteHistory, siteSnapshot } from './readBack.ts';
import { sameText, snapshotOfObjects, type Snapshot } from './snapshot.ts';
import type { SiteSnapshots, StoredSnapshot } from './store.ts';

export interface ChangesOptions {
  /** The site this one follows: its change lists are carried on, and its objects read back unless `recorded` holds them. */
  previous: PreviousSite;
  /** The snapshots the previous site's build recorded (store.ts), when that site is the output folder's; null: none. */
  recorded: SiteSnapshots | null;
  /** meta.json's date of this version; null when it gives none. */
  date: number | null;
}

/** The previous site's snapshots, and whether they were read back from its files rather than taken from its build's records. */
type Compared = SiteSnapshots & { readBack: boolean };

/**
 * The snapshots compared with, null when there is no previous site (or, for the output folder,
 * one that cannot be read back: a warning, and no change list this build).
 */
async function compared({ previous, recorded }: ChangesOptions, warnings: string[]): Promise<Compared | null> {
  const readBack = async (): Promise<Compared> => ({ current: { snapshot: await siteSnapshot(previous), name: null }, base: null, readBack: true });
  if (previous.named) return readBack();
  if (recorded) return { ...recorded, readBack: false };
  // A site published without records (an older builder, or a deleted .cache): read it back.
  try {
    return (await previous.read(endpoints.info.file())) === null ? null : await readBack();
  } catch (error) {
    warnings.push(`the previous site cannot be compared with (${(error as Error).message}): no change list this build`);
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
async function nextHistory(site: PreviousSite, previous: SiteSnapshots, current: Snapshot, warnings: string[]) {
  const version = current.version.truth_version;
  // A rebuild of the same version (a key arrived) compares with the base of that version's list.
  const base = previous.current.snapshot.version.truth_version === version ? previous.base ?? previous.current : previous.current;
  const diff = diffSnapshots(previous.current.snapshot, current);
  const update = countsOf(diff);
  const carried = await siteHistory(site);
  warnings.push(...carried.warnings);
  const lists = [...carried.lists.values()];
  if (isEmpty(update)) return { lists, base, update };
  const list = base === previous.current ? diff : diffSnapshots(base.snapshot, current);
  const others = lists.filter((l) => l.to.truth_version !== version);
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

/** What the changes stage found. */
export interface ChangesFound {
  /** What this build changed in the data, per changelog type; null when nothing was compared (a first build). */
  update: ChangeCounts | null;
  warnings: string[];
  /** The snapshots to record with the new site (store.ts keepSnapshots). */
  keep: SiteSnapshots;
  /** What the history stage continues from. */
  history: HistoryInput;
}

/** Publishes the change lists of the site being built into `files`, and returns what it found. */
export async function deriveChanges(site: BuiltSite, files: SiteFiles, options: ChangesOptions): Promise<ChangesFound> {
  const warnings: string[] = [];
  const previous = await compared(options, warnings);
  const current: StoredSnapshot = { snapshot: snapshotOfObjects(publishedObjects(site.rendered), site.truthVersion, options.date), name: null };
  const { lists, base, update } = previous ? await nextHistory(options.previous, previous, current.snapshot, warnings) : { lists: [], base: null, update: null };
  emitHistory(files, lists);
  // Unchanged objects keep the previous snapshot's folder (not serialized and hashed again).
  const unchanged = previous && sameSnapshot(previous.current.snapshot, current.snapshot);
  return {
    update,
    warnings,
    keep: { current: unchanged ? previous.current : current, base },
    history: { previous: previous?.current.snapshot ?? null, current: current.snapshot, site: previous && options.previous, readBack: previous?.readBack ?? false },
  };
}
