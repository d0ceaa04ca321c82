/** What a build tells its user: counts, unreadable rows, warnings and timings per stage. */

import { NOT_FOUND_FILE, endpointName, endpointOfFile } from '../contract/endpoints.ts';
import { StageError } from './errors.ts';
import { Findings } from './findings.ts';
import type { ChangeCounts } from '../contract/schemas.ts';
import type { ImageCounts } from './images/encodeImages.ts';
import type { Coverage } from './model/coverage.ts';
import type { HostFit } from '../hosts/all/build/hostFit.ts';

/**
 * What a published file counts for: its endpoint's name ("card", "card_list",
 * "card/set_list", "list/char_t": contract/endpoints.ts), else the first two segments
 * ("images/card", "site") or the file name ("index.html"); the JSON 404 body is "404".
 */
export function endpointOf(rel: string): string {
  if (rel === NOT_FOUND_FILE) return '404';
  const endpoint = endpointOfFile(rel);
  if (endpoint) return endpointName(endpoint);
  const segments = rel.split('/');
  return segments.slice(0, Math.min(2, segments.length - 1) || 1).join('/');
}

/** What a progress display hears: a stage starts, advances (done of total items) or ends. */
export type ProgressEvent =
  | { kind: 'start'; stage: string }
  | { kind: 'advance'; stage: string; done: number; total: number }
  | { kind: 'end'; stage: string; ms: number };
export type ProgressListener = (event: ProgressEvent) => void;

/** What a build tells its user: what its stages found, counts of files and pictures, timings, the hosts' fit. */
export class BuildReport extends Findings {
  /** How complete the output is: English texts per kind, release dates known, estimated, unknown; null before the model stage. */
  coverage: Coverage | null = null;
  /** Published files per endpoint (see endpointOf). */
  readonly counts: Record<string, number> = {};
  /** Milliseconds per stage. */
  readonly timings: Record<string, number> = {};
  changed = 0;
  unchanged = 0;
  removed = 0;
  /** Pictures published; sources encoded with sharp or reused from the cache; pictures missing or unreadable. */
  readonly images: ImageCounts = { published: 0, encoded: 0, reused: 0, missing: 0, unreadable: 0 };
  /** The input and generator were unchanged and the output intact, so nothing ran. */
  upToDate = false;
  /** How the site fits each host of the plan (hosts/all/build/hostFit.ts): figures against limits. */
  readonly hosts: HostFit[] = [];
  /** What this build changed in the data, per changelog type (generator/build/changes/); null when nothing was compared (a first build). */
  update: Partial<ChangeCounts> | null = null;
  /** The input is the invented sample, whose warnings are planted on purpose (the summary says so). */
  sample = false;
  private current = '';

  constructor(private readonly listener: ProgressListener | null = null) {
    super();
  }

  /** Runs one stage and records how long it took; a failure becomes a StageError naming the stage. */
  async stage<T>(name: string, run: () => T | Promise<T>): Promise<T> {
    const start = performance.now();
    this.current = name;
    this.listener?.({ kind: 'start', stage: name });
    try {
      return await run();
    } catch (error) {
      throw error instanceof StageError ? error : new StageError(name, error);
    } finally {
      this.timings[name] = Math.round(performance.now() - start);
      this.listener?.({ kind: 'end', stage: name, ms: this.timings[name] });
    }
  }

  /**
   * The report of a build that had nothing to do: the counts and warnings of the build that
   * published the site, kept with it (`stored`), and its `files` files unchanged.
   */
  replay(stored: unknown, files: number): void {
    type Replayed = 'counts' | 'unreadable' | 'unreadable_releases' | 'warning_kinds' | 'images' | 'hosts' | 'sample';
    const published = stored as Pick<ReturnType<BuildReport['toJSON']>, Replayed>;
    Object.assign(this.counts, published.counts);
    Object.assign(this.unreadable, published.unreadable);
    Object.assign(this.unreadableReleases, published.unreadable_releases);
    // Each kind heard again in the order it was first heard, so its line is kept as any other's.
    for (const [kind, { count, examples }] of Object.entries(published.warning_kinds)) this.addToKind(kind, count, examples);
    Object.assign(this.images, published.images, { encoded: 0, reused: 0 });
    this.hosts.push(...(published.hosts ?? []));
    this.sample = published.sample === true;
    this.unchanged = files;
    this.upToDate = true;
    this.update = {}; // the data is the published site's
  }

  countFiles(rels: Iterable<string>): void {
    for (const rel of rels) {
      const endpoint = endpointOf(rel);
      this.counts[endpoint] = (this.counts[endpoint] ?? 0) + 1;
    }
  }

  /** Reports progress of the running stage: `done` of `total` items. */
  advance(done: number, total: number): void {
    this.listener?.({ kind: 'advance', stage: this.current, done, total });
  }

  toJSON() {
    return {
      counts: this.counts, unreadable: this.unreadable, unreadable_releases: this.unreadableReleases, databases: this.databases,
      unread_files: this.unreadFiles, unread_file_count: this.unreadFileCount, coverage: this.coverage,
      warnings: this.warnings, warning_kinds: this.warningKinds, timings_ms: this.timings,
      changed: this.changed, unchanged: this.unchanged, removed: this.removed, images: this.images, up_to_date: this.upToDate,
      update: this.update, hosts: this.hosts, sample: this.sample,
    };
  }
}
