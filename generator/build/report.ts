/** What a build tells its user: counts, unreadable rows, warnings and timings per stage. */

import { NOT_FOUND_FILE, endpointName, endpointOfFile } from '../contract/endpoints.ts';
import { StageError } from './errors.ts';
import type { ChangeCounts } from '../contract/schemas.ts';
import type { ImageCounts } from './images/encodeImages.ts';
import type { UnreadFile } from './input/unreadFiles.ts';
import type { Coverage } from './model/coverage.ts';
import type { HostFit } from './publish/hostFit.ts';

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

/** Files not read kept in full in the report; the rest are counted. */
export const UNREAD_FILES_KEPT = 1000;

/** Full examples kept per warning kind; the rest are counted. */
export const WARNING_EXAMPLES = 3;

export interface WarningKind {
  count: number;
  /** The first few warnings of the kind, in full. */
  examples: string[];
}

/** A database the read stage opened, and how. */
export interface DatabaseRead {
  file: string;
  form: 'sqlite' | 'sql dump' | 'client file';
  /** A client file's encryption ("JP V3"), decrypted in memory. */
  encryption?: string;
  /** The base name its key was derived from (the client's name for the file). */
  keyName?: string;
}

/** One warning for `count` problems of a kind: what they are, and the first few `examples` (null for none). */
export function manyWarning(count: number, what: string, examples: string[], separator = '; '): string | null {
  if (!count) return null;
  const more = count > examples.length ? `${separator}and ${count - examples.length} more` : '';
  return `${what}: ${examples.join(separator)}${more}`;
}

/** One line per kind: the warning itself when alone, else the count and the first few. */
function kindLine(kind: string, { count, examples }: WarningKind): string {
  if (count === 1) return examples[0];
  const more = count > examples.length ? ` / and ${count - examples.length} more` : '';
  return `${kind} (${count} warnings): ${examples.join(' / ')}${more}`;
}

/**
 * What a stage found in its input, to be told: warnings grouped by kind, encrypted rows no key
 * opened, the databases read and the files not read. The read, model and render stages each
 * get a Findings of their own and never see the report; build.ts adds it to the report.
 */
export class Findings {
  /** One line per kind of warning (see warn). */
  readonly warnings: string[] = [];
  /** Every kind of warning with its count and first examples. */
  readonly warningKinds: Record<string, WarningKind> = {};
  /** Encrypted rows that no key opened, per table. */
  readonly unreadable: Record<string, number> = {};
  /** Those rows per release id (`_encryption_release_id`), and whether release_info.json had a key for it (a wrong one). */
  readonly unreadableReleases: Record<string, { rows: number; key_given: boolean }> = {};
  /** The databases read, and how (client files decrypted in memory). */
  readonly databases: DatabaseRead[] = [];
  /** Files under the input folder the build did not read, and why: the first UNREAD_FILES_KEPT of them (see noteUnreadFiles). */
  readonly unreadFiles: UnreadFile[] = [];
  /** How many files the build did not read, all of them. */
  unreadFileCount = 0;
  /** Where each kind's line is in `warnings`, in the order the kinds were first heard. */
  private readonly lineOfKind = new Map<string, number>();

  /**
   * Records a warning. Warnings of one `kind` (a phrase naming the problem; by default the
   * message itself) share one line, so an export with thousands of like problems stays readable.
   */
  warn(message: string, kind = message): void {
    this.addToKind(kind, 1, [message]);
  }

  protected addToKind(kind: string, count: number, examples: string[]): void {
    const known = Object.hasOwn(this.warningKinds, kind);
    const group = known ? this.warningKinds[kind] : (this.warningKinds[kind] = { count: 0, examples: [] });
    group.count += count;
    group.examples.push(...examples.slice(0, WARNING_EXAMPLES - group.examples.length));
    const line = kindLine(kind, group);
    if (!known) {
      this.lineOfKind.set(kind, this.warnings.length);
      this.warnings.push(line);
    } else {
      this.warnings[this.lineOfKind.get(kind)!] = line;
    }
  }

  /** One warning for many problems of a kind: the count and the first few examples, however many there are. */
  warnMany(count: number, what: string, examples: string[], separator = '; '): void {
    const warning = manyWarning(count, what, examples, separator);
    if (warning) this.warn(warning);
  }

  /** Records the warnings a stage returned, in order. */
  warnAll(warnings: string[]): void {
    for (const warning of warnings) this.warn(warning);
  }

  /** An encrypted row no key opened: `releaseId` names its key; `keyGiven` when release_info.json has one that does not open it. */
  countUnreadable(table: string, releaseId: string, keyGiven: boolean): void {
    this.unreadable[table] = (this.unreadable[table] ?? 0) + 1;
    const release = (this.unreadableReleases[releaseId] ??= { rows: 0, key_given: keyGiven });
    release.rows++;
  }

  /** Files not read: all are counted, the first UNREAD_FILES_KEPT kept, so a folder of a million stray files keeps the report small. */
  noteUnreadFiles(files: UnreadFile[], count = files.length): void {
    this.unreadFileCount += count;
    this.unreadFiles.push(...files.slice(0, UNREAD_FILES_KEPT - this.unreadFiles.length));
  }

  noteDatabase(read: DatabaseRead): void {
    this.databases.push(read);
  }

  /** Adds what a stage found, as if this had heard each of its warnings and counts in order. */
  add(found: Findings): void {
    for (const kind of found.lineOfKind.keys()) this.addToKind(kind, found.warningKinds[kind].count, found.warningKinds[kind].examples);
    for (const [releaseId, { rows, key_given: keyGiven }] of Object.entries(found.unreadableReleases)) {
      const release = (this.unreadableReleases[releaseId] ??= { rows: 0, key_given: keyGiven });
      release.rows += rows;
    }
    for (const [table, rows] of Object.entries(found.unreadable)) this.unreadable[table] = (this.unreadable[table] ?? 0) + rows;
    this.databases.push(...found.databases);
    this.noteUnreadFiles(found.unreadFiles, found.unreadFileCount);
  }
}

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
  /** How the site fits each host of the plan (publish/hostFit.ts): figures against limits. */
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
