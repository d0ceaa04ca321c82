/**
 * The next site, assembled in the staging folder while it is rendered: every file the
 * renderers add goes, in batches, to writer threads (stagingWorker.js) that hash it,
 * compare it with the published file (through the manifest's hash while that file is
 * untouched, else byte by byte) and write it only when it differs. While the main
 * thread renders, one writer takes every batch (more would compete with rendering for
 * the CPU). When rendering is done, the batches that writer has not reached yet are
 * offered to the other writers too; each batch carries a shared claim cell, so exactly
 * one writer stages it. At the end, unchanged files are hard-linked in; when nothing
 * changed at all, the staging folder is dropped and nothing is touched.
 */
import fs from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SiteFiles } from './siteFiles.ts';
import { UserError } from '../errors.ts';
import type { PublishLayout } from './layout.ts';
import { sameStat, type FileRecord, type FolderScan, type Manifest } from './manifest.ts';

/** Writer threads: file creation is mostly kernel time, and a few writers drain a backlog sooner than one. */
const WRITERS = Math.max(2, Math.min(4, os.availableParallelism()));
/** Files per message: large enough to keep messaging cheap, small enough to start writing early. */
const BATCH = 64;
/**
 * The largest site a build publishes (docs/limits.md): a game export of 4,000 cards makes
 * about 100 MiB, 200,000 cards a few GiB; past this the input is hostile or broken.
 */
export const MAX_SITE_BYTES = 16 * 1024 ** 3;

interface Batch {
  id: number;
  files: [string, Buffer][];
  /** 0 until a writer claims the batch (Atomics.compareExchange to 1). */
  claim: Int32Array;
}
/** A kept file (its stats are the old file's), or a written one. */
type StagedRecord = [rel: string, hash: string] | [rel: string, hash: string, size: number, mtimeMs: number, ino: number];
type Reply =
  | { type: 'staged'; id: number; records: StagedRecord[] | null }
  | { type: 'linked' }
  | { type: 'error'; message: string; code?: string };

export interface StagedSite {
  /** Whether the staging folder now holds the new site (else nothing changed). */
  commit: boolean;
  /** The new site's manifest records, in the order the files were rendered. */
  records: { [rel: string]: FileRecord };
  changed: number;
  unchanged: number;
}

/** The old site's files with their trusted hash, or null when only their bytes can tell. */
function oldHashes(scan: FolderScan, manifest: Manifest | null): [string, string | null][] {
  return [...scan.files].map(([rel, stat]) => {
    const record = manifest?.files[rel];
    return [rel, record && sameStat(stat, record) ? record.hash : null];
  });
}

/** One writer thread. */
class Writer {
  readonly thread: Worker;
  private linked: (() => void) | null = null;

  constructor(workerData: unknown, onStaged: (id: number, records: StagedRecord[] | null) => void, onError: (error: Error) => void) {
    this.thread = new Worker(new URL('./stagingWorker.js', import.meta.url), { workerData });
    this.thread.on('message', (reply: Reply) => {
      if (reply.type === 'staged') onStaged(reply.id, reply.records);
      else if (reply.type === 'error') onError(Object.assign(new Error(reply.message), { code: reply.code }));
      else this.linked?.();
    });
    this.thread.on('error', onError);
  }

  send(batch: Batch): void {
    this.thread.postMessage({ type: 'files', ...batch });
  }

  /** Links the files it found unchanged into the staged site. */
  link(): Promise<void> {
    return new Promise((resolve) => {
      this.linked = resolve;
      this.thread.postMessage({ type: 'link' });
    });
  }
}

export class Staging {
  private readonly writers: Writer[] = [];
  private readonly workerData: unknown;
  /** The old site's stats: a kept file keeps them. */
  private readonly oldStats: FolderScan['files'];
  private batch: Batch['files'] = [];
  /** Batches sent and not staged yet, by id. */
  private readonly unstaged = new Map<number, Batch>();
  private nextId = 0;
  private added = 0;
  /** Bytes of the files added so far. */
  private bytes = 0;
  /** Manifest records of the staged files, and how many were kept (unchanged). */
  private readonly records = new Map<string, FileRecord>();
  private unchanged = 0;
  private failure: Error | null = null;
  /** finish() waiting for the last files. */
  private whenStaged: (() => void) | null = null;
  /** Requests waiting for replies, rejected by a failure. */
  private readonly pending = new Set<(error: Error) => void>();

  /** `onProgress` hears how many files are staged of those added so far. */
  constructor(
    private readonly layout: PublishLayout, scan: FolderScan, manifest: Manifest | null,
    private readonly onProgress: (done: number, added: number) => void,
  ) {
    fs.rmSync(layout.staging, { recursive: true, force: true });
    fs.mkdirSync(layout.staging);
    this.workerData = { out: layout.out, staging: layout.staging, old: oldHashes(scan, manifest) };
    this.oldStats = scan.files;
  }

  /**
   * Writers start when first needed: the first with the first batch, the helpers when
   * rendering ends (starting them sooner would slow reading, modelling and rendering).
   */
  private writer(index: number): Writer {
    while (this.writers.length <= index) {
      this.writers.push(new Writer(this.workerData, (id, records) => this.onStaged(id, records), (error) => this.fail(error)));
    }
    return this.writers[index];
  }

  /** A writer staged a batch (records null: another writer had claimed it). */
  private onStaged(id: number, records: StagedRecord[] | null): void {
    if (!records) return;
    this.unstaged.delete(id);
    for (const [rel, hash, size, mtimeMs, ino] of records) {
      if (size === undefined) this.unchanged++;
      this.records.set(rel, size === undefined ? { hash, ...this.oldStats.get(rel)! } : { hash, size, mtimeMs: mtimeMs!, ino: ino! });
    }
    this.onProgress(this.records.size, this.added);
    if (this.records.size === this.added) this.whenStaged?.();
  }

  private fail(error: Error): void {
    this.failure ??= new Error(`writing ${this.layout.staging}: ${error.message}`, { cause: error });
    for (const reject of this.pending) reject(this.failure);
  }

  private sendBatch(): void {
    if (!this.batch.length) return;
    const batch: Batch = { id: this.nextId++, files: this.batch, claim: new Int32Array(new SharedArrayBuffer(4)) };
    this.batch = [];
    this.unstaged.set(batch.id, batch);
    this.writer(0).send(batch);
  }

  private add(rel: string, bytes: Buffer): void {
    this.bytes += bytes.length;
    if (this.bytes > MAX_SITE_BYTES) throw new UserError(`the site would be larger than ${MAX_SITE_BYTES / 1024 ** 3} GiB (at ${rel}); refusing to publish it`);
    this.added++;
    this.batch.push([rel, bytes]);
    if (this.batch.length >= BATCH) this.sendBatch();
  }

  /** A map of rendered files whose every entry is also staged; a path can be added once only. */
  files(): SiteFiles {
    const add = (rel: string, bytes: Buffer) => this.add(rel, bytes);
    return new (class extends Map<string, Buffer> {
      set(rel: string, bytes: Buffer) {
        if (this.has(rel)) throw new Error(`${rel} is rendered twice`);
        add(rel, bytes);
        return super.set(rel, bytes);
      }

      delete(rel: string): boolean {
        throw new Error(`${rel} cannot be withdrawn: it is being written already`);
      }
    })();
  }

  /** Settles with `work`, or rejects with the first failure of a writer. */
  private async orFailure<T>(work: (done: (value: T) => void) => void): Promise<T> {
    if (this.failure) throw this.failure;
    let reject!: (error: Error) => void;
    try {
      return await new Promise<T>((resolve, fail) => {
        reject = fail;
        this.pending.add(reject);
        work(resolve);
      });
    } finally {
      this.pending.delete(reject);
    }
  }

  /**
   * Waits for every file of `order` (the rendered paths); `removed` counts old files the
   * new site drops, which force a swap even when no file changed.
   */
  async finish(order: Iterable<string>, removed: number): Promise<StagedSite> {
    this.sendBatch();
    // The other writers take the backlog from its far end, the first writer from its near end.
    const backlog = [...this.unstaged.values()].reverse();
    backlog.forEach((batch, i) => this.writer(1 + (i % (WRITERS - 1))).send(batch));
    await this.orFailure<void>((done) => {
      this.whenStaged = done;
      if (this.records.size === this.added) done();
    });
    const changed = this.records.size - this.unchanged;
    const commit = changed > 0 || removed > 0;
    if (commit && this.unchanged) await this.orFailure<unknown>((done) => void Promise.all(this.writers.map((w) => w.link())).then(done));
    // Every writer is idle now: no need to wait for them to stop.
    void this.stop();
    if (!commit) fs.rmSync(this.layout.staging, { recursive: true, force: true });
    const records: StagedSite['records'] = {};
    for (const rel of order) records[rel] = this.records.get(rel)!;
    return { commit, records, changed, unchanged: this.unchanged };
  }

  private async stop(): Promise<void> {
    await Promise.all(this.writers.map((w) => w.thread.terminate()));
    this.writers.length = 0;
  }

  /** Stops the writers and drops what they staged. */
  async abort(): Promise<void> {
    await this.stop();
    fs.rmSync(this.layout.staging, { recursive: true, force: true });
  }
}
