/** What a build tells its user: counts, unreadable rows, warnings and timings per stage. */

import { NOT_FOUND_FILE, allEndpoints } from './contract/endpoints.ts';

/** Files with a fixed path (card_list.json, info.json...) count as their own endpoint. */
const SINGLE_FILES = new Set([
  NOT_FOUND_FILE,
  ...allEndpoints().flatMap((e) => (e.file?.length === 0 ? [(e.file as () => string)()] : [])),
]);

/**
 * The endpoint a published file counts for: "card_list", "card/set_list", "info"... for
 * files with a fixed path, else the folder below api/v1 ("card", "set", "card_t"...),
 * else the first two segments ("images/card", "site") or the file name ("index.html").
 */
export function endpointOf(rel: string): string {
  if (SINGLE_FILES.has(rel)) return rel.replace(/^api\/(v1\/)?/, '').replace(/\.json$/, '');
  const segments = rel.split('/');
  if (rel.startsWith('api/v1/') && segments.length > 3) return segments[2];
  return segments.slice(0, Math.min(2, segments.length - 1) || 1).join('/');
}

/** A failure caused by the input (file, table or value), reported without a stack trace. */
export class InputError extends Error {}

/** What a progress display hears: a stage starts, advances (done of total items) or ends. */
export type ProgressEvent =
  | { kind: 'start'; stage: string }
  | { kind: 'advance'; stage: string; done: number; total: number }
  | { kind: 'end'; stage: string; ms: number };
export type ProgressListener = (event: ProgressEvent) => void;

/** The stage a failure happened in, for the error message. */
export function failedStage(error: unknown): string | undefined {
  return (error as { buildStage?: string } | null)?.buildStage;
}

export class BuildReport {
  readonly warnings: string[] = [];
  /** Encrypted rows that no key opened, per table. */
  readonly unreadable: Record<string, number> = {};
  /** Published files per endpoint (see endpointOf). */
  readonly counts: Record<string, number> = {};
  /** Milliseconds per stage. */
  readonly timings: Record<string, number> = {};
  changed = 0;
  unchanged = 0;
  removed = 0;
  /** Pictures published; sources encoded with sharp or reused from the cache; pictures missing or unreadable. */
  readonly images = { published: 0, encoded: 0, reused: 0, missing: 0, unreadable: 0 };
  /** The input and generator were unchanged and the output intact, so nothing ran. */
  upToDate = false;
  /** What this build changed in the data, per changelog type (generator/changes/); null when nothing was compared (a first build). */
  update: Record<string, { added: number; removed: number; changed: number }> | null = null;
  private current = '';

  constructor(private readonly listener: ProgressListener | null = null) {}

  warn(message: string): void {
    this.warnings.push(message);
  }

  countUnreadable(table: string): void {
    this.unreadable[table] = (this.unreadable[table] ?? 0) + 1;
  }

  /** Runs one stage and records how long it took; a failure is tagged with the stage's name. */
  async stage<T>(name: string, run: () => T | Promise<T>): Promise<T> {
    const start = performance.now();
    this.current = name;
    this.listener?.({ kind: 'start', stage: name });
    try {
      return await run();
    } catch (error) {
      if (error && typeof error === 'object' && !failedStage(error)) Object.assign(error, { buildStage: name });
      throw error;
    } finally {
      this.timings[name] = Math.round(performance.now() - start);
      this.listener?.({ kind: 'end', stage: name, ms: this.timings[name] });
    }
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
      counts: this.counts, unreadable: this.unreadable, warnings: this.warnings, timings_ms: this.timings,
      changed: this.changed, unchanged: this.unchanged, removed: this.removed, images: this.images, up_to_date: this.upToDate,
      update: this.update,
    };
  }
}
