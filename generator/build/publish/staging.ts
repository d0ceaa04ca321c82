/**
 * The next site, assembled in the staging folder while it is rendered: each file the
 * renderers add goes, in batches moved (not copied) to a writer thread (stagingWorker.js),
 * which hashes it (SHA-256, the hash api/v1/manifest.json publishes, and a large file's block
 * sums, blockSums.ts: on the writers, not on the main thread that renders), compares it with
 * the published file (through the manifest's hash while that file is untouched, else byte by
 * byte) and writes it only when it differs. The main thread keeps each file's digest as the
 * writer tells it, never its bytes, so memory does not grow with the site. While the main thread renders, one
 * writer takes every batch (more would compete with rendering for the CPU) until a backlog
 * builds up; the batches added after rendering (the derive stages') are shared among the
 * writers started, another starting for every few batches waiting; a full backlog
 * (MAX_IN_FLIGHT) makes the main thread wait. Published files are carried on unread where the
 * builder's record trusts them (a large one is read for its block sums), on the main thread, and
 * hard-linked in by the first writer as they come; the files the writers find unchanged are linked
 * in at the end. When nothing changed at all, the staging folder is dropped and nothing is touched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DigestedFiles, GivenBytes } from '../siteFiles.ts';
import type { FileDigest } from '../digest.ts';
import { withBlockSums } from '../blockSums.ts';
import { BLOCK_SIZE, BLOCK_SUMS_MIN_BYTES } from '../../contract/format.ts';
import { UserError } from '../errors.ts';
import type { PublishLayout } from './layout.ts';
import { sameStat, type FileRecord, type FolderScan, type Manifest } from './manifest.ts';

/** Writer threads at most: file creation is mostly kernel time, and a few writers drain a backlog sooner than one. */
const WRITERS = Math.max(2, Math.min(4, os.availableParallelism()));
/**
 * Batches waiting per writer before another starts after rendering: starting a thread costs about
 * as much CPU as writing a few batches, so a small site, or a rebuild that changes little, keeps one.
 */
const BACKLOG_PER_WRITER = 32;
/** Bytes per batch: large enough to keep messaging cheap, small enough to start writing early and keep little in flight. */
const BATCH_BYTES = 256 * 1024;
/** Files per batch at most (many tiny files). */
const BATCH_FILES = 64;
/**
 * Batches sent and not yet taken by a writer, counted in BATCH_BYTES (a batch of one larger
 * file, a bulk part, counts as several): past this, 64 MiB, adding a file waits for the writers
 * (a slow disk holds rendering back instead of filling memory with a backlog).
 */
const MAX_IN_FLIGHT = 256;
const WRITER_STALL_MS = 5000;
/** Published files carried on per message to the writer that links them. */
export const KEEP_BATCH = 512;
/**
 * The largest site a build publishes (docs/limits.md): a game export of 4,000 cards makes
 * about 170 MiB, 200,000 cards several GiB; past this the input is hostile or broken.
 */
export const MAX_SITE_BYTES = 16 * 1024 ** 3;

/**
 * Whether a file its maker gave up (SiteFiles.set's `given`) goes to a writer as it is, not copied
 * into a batch: a long one whose bytes are their whole buffer. Copying tens of MiB into fresh
 * memory cost more than writing them (10 s of a 200,000-card build).
 */
const movable = (bytes: Buffer): boolean =>
  bytes.length >= BATCH_BYTES && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;

/** Files of a batch: their bytes laid end to end in one buffer that moves to the writer. */
interface Batch {
  rels: string[];
  /** What it counts for in flight (MAX_IN_FLIGHT). */
  units: number;
  /** Where each file ends in `bytes`. */
  ends: number[];
  bytes: ArrayBuffer;
  /** Each file's SHA-256 as its maker told it (SiteFiles.set's `given`), which the writer takes instead of hashing. */
  known?: string[];
}
/** A written file's stats (size, mtimeMs, ino); null for a kept one (its stats are the old file's). */
type StagedStat = [size: number, mtimeMs: number, ino: number] | null;
/** What a writer found of a batch's files, in its order (stagingWorker.js). */
interface StagedBatch {
  /** Per file: size, mtimeMs and ino, size -1 for a kept file. */
  stats: Float64Array;
  /** Per file: its SHA-256 (hex) and block sums (null for a small file). */
  hashes: string[];
  blocks: (string | null)[];
}
type Reply =
  | ({ type: 'staged' } & StagedBatch)
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

/** What a writer tells the build it serves. */
interface WriterListeners {
  /** The files of a batch staged: `rels` as the build sent them, the rest as the writer replied. */
  onStaged(rels: readonly string[], staged: StagedBatch): void;
  onError(error: Error): void;
}

/**
 * Writers whose build is done, kept for the next build of this process: a thread costs about
 * 35 ms of CPU to start, as much as writing a small site (the tests and the benchmark build
 * hundreds of times in one process). Unreferenced while idle, so they never keep it alive.
 */
const idleWriters: Writer[] = [];

/** One writer thread, serving one build at a time. */
class Writer {
  private readonly thread: Worker;
  private listeners: WriterListeners | null = null;
  private linked: (() => void) | null = null;
  /** It failed: it ignores everything from then on (stagingWorker.js), so it is never given another build. */
  private failed = false;
  /**
   * The paths of the batches sent and not yet replied to, in order (a writer replies to each in
   * turn): the replies carry no path or hash, so the build keeps its own strings, not copies.
   */
  private readonly sentRels: string[][] = [];

  private constructor() {
    // No node options: the writer is plain JavaScript, and `node --import tsx` (npm run build)
    // would otherwise load tsx into every writer, about 140 ms of CPU each.
    this.thread = new Worker(new URL('./stagingWorker.js', import.meta.url), { execArgv: [] });
    this.thread.on('message', (reply: Reply) => {
      if (reply.type === 'staged') this.listeners?.onStaged(this.sentRels.shift()!, reply);
      else if (reply.type === 'error') this.fail(Object.assign(new Error(reply.message), { code: reply.code }));
      else this.linked?.();
    });
    this.thread.on('error', (error) => this.fail(error));
    // A thread that ended unasked fails the build it serves, and is never handed out again.
    this.thread.on('exit', (code) => {
      if (this.listeners && !this.failed) this.fail(new Error(`the writer thread ended (exit code ${code})`));
      this.failed = true;
      const idle = idleWriters.indexOf(this);
      if (idle >= 0) idleWriters.splice(idle, 1);
    });
  }

  /** A writer for the build `state` describes: an idle one, else a new thread. */
  static take(state: WriterState, listeners: WriterListeners): Writer {
    const writer = idleWriters.pop() ?? new Writer();
    writer.listeners = listeners;
    writer.thread.ref();
    writer.thread.postMessage({ type: 'begin', ...state });
    return writer;
  }

  private fail(error: Error): void {
    this.failed = true;
    this.listeners?.onError(error);
  }

  /** Hands the batch over: its bytes move to the writer's thread. */
  send(batch: Batch): void {
    this.sentRels.push(batch.rels);
    this.thread.postMessage({ type: 'files', ...batch }, [batch.bytes]);
  }

  /** Links the published files `rels` (carried on unread) into the staged site, as soon as it takes the message. */
  keep(rels: string[]): void {
    this.thread.postMessage({ type: 'keep', rels });
  }

  /** Links the files it found unchanged into the staged site; settles once it has (and every message sent before). */
  link(): Promise<void> {
    return this.replied('link');
  }

  /** Settles once it has handled every message sent before (the kept files it was handed linked). */
  sync(): Promise<void> {
    return this.replied('sync');
  }

  private replied(type: 'link' | 'sync'): Promise<void> {
    return new Promise((resolve) => {
      this.linked = resolve;
      this.thread.postMessage({ type });
    });
  }

  /** Its build is done with it (`idle`: every batch written): kept for the next build, else ended. */
  async release(idle: boolean): Promise<void> {
    this.listeners = this.linked = null;
    this.sentRels.length = 0;
    if (idle && !this.failed && idleWriters.length < WRITERS) {
      this.thread.postMessage({ type: 'end' });
      this.thread.unref();
      idleWriters.push(this);
    } else {
      await this.thread.terminate();
    }
  }
}

/** What a writer needs of the build it serves (stagingWorker.js begin). */
interface WriterState {
  out: string;
  staging: string;
  old: [string, string | null][];
  inFlight: Int32Array;
  blockSize: number;
  blockSumsMinBytes: number;
}

export class Staging {
  private readonly writers: Writer[] = [];
  private readonly writerState: WriterState;
  /** The old site's stats: a kept file keeps them. */
  private readonly oldStats: FolderScan['files'];
  /** The old site's files with their trusted hash (null: only their bytes can tell). */
  private readonly oldHashes: Map<string, string | null>;
  /**
   * Files carried on from the published site and not yet handed to the first writer, which links
   * them into the staged site while the build goes on (KEEP_BATCH at a time): linking every file
   * an update leaves alone at the end took the write stage 0.37 s of the 4,000-card site on a slow
   * disk, the main thread waiting. `keptSent`: some were handed over.
   */
  private keptHere: string[] = [];
  private keptSent = false;
  /** Batches sent and not yet taken by a writer (stagingWorker.js counts them down). */
  private readonly inFlight = new Int32Array(new SharedArrayBuffer(4));
  /** Whether adding waits for the writers (see waitForWriters). */
  private throttled = true;
  /** Files added and not sent yet, and their bytes. */
  private pending: [rel: string, bytes: Buffer][] = [];
  private pendingBytes = 0;
  private sent = 0;
  /** Rendering is done: batches go to every writer in turn. */
  private rendered = false;
  /** Digests of the files added, in the order they were added; a file sent to a writer has its size only until the writer hashed it. */
  private readonly digests = new Map<string, FileDigest | { bytes: number; sha256?: undefined }>();
  /** Bytes of the files added so far. */
  private bytes = 0;
  /** Manifest records of the staged files, and how many were kept (unchanged). */
  private readonly records = new Map<string, FileRecord>();
  private unchanged = 0;
  private failure: Error | null = null;
  /** Waiting for every file added so far (staged()). */
  private whenStaged: (() => void)[] = [];
  /** Requests waiting for replies, rejected by a failure. */
  private readonly waiting = new Set<(error: Error) => void>();

  /** `onProgress` hears how many files are staged of those added so far. */
  constructor(
    private readonly layout: PublishLayout, scan: FolderScan, manifest: Manifest | null,
    private readonly onProgress: (done: number, added: number) => void,
  ) {
    fs.rmSync(layout.staging, { recursive: true, force: true });
    fs.mkdirSync(layout.staging);
    const old = oldHashes(scan, manifest);
    this.writerState = { out: layout.out, staging: layout.staging, old, inFlight: this.inFlight, blockSize: BLOCK_SIZE, blockSumsMinBytes: BLOCK_SUMS_MIN_BYTES };
    this.oldHashes = new Map(old);
    this.oldStats = scan.files;
  }

  /**
   * Writers start when first needed: the first with the first batch, the others when
   * rendering ends (starting them sooner would slow reading, modelling and rendering).
   */
  private writer(index: number): Writer {
    while (this.writers.length <= index) {
      this.writers.push(Writer.take(this.writerState, { onStaged: (rels, staged) => this.onStaged(rels, staged), onError: (error) => this.fail(error) }));
    }
    return this.writers[index];
  }

  private onStaged(rels: readonly string[], { stats, hashes, blocks }: StagedBatch): void {
    rels.forEach((rel, i) => {
      const { bytes } = this.digests.get(rel)!;
      this.digests.set(rel, blocks[i] === null ? { sha256: hashes[i], bytes } : { sha256: hashes[i], bytes, blocks: blocks[i]! });
      this.record(rel, stats[3 * i] < 0 ? null : [stats[3 * i], stats[3 * i + 1], stats[3 * i + 2]]);
    });
    this.progressed();
  }

  /** The manifest record of a staged file: its hash is the digest's string (one per file, however many records name it). */
  private record(rel: string, stat: StagedStat): void {
    const hash = this.digests.get(rel)!.sha256!;
    if (stat === null) this.unchanged++;
    this.records.set(rel, stat === null ? { hash, ...this.oldStats.get(rel)! } : { hash, size: stat[0], mtimeMs: stat[1], ino: stat[2] });
  }

  private progressed(): void {
    this.onProgress(this.records.size, this.digests.size);
    if (this.records.size === this.digests.size) for (const done of this.whenStaged.splice(0)) done();
  }

  private fail(error: Error): void {
    this.failure ??= new Error(`writing ${this.layout.staging}: ${error.message}`, { cause: error });
    for (const reject of this.waiting) reject(this.failure);
  }

  /** Copies the pending files into one buffer and moves it to a writer. */
  private sendBatch(): void {
    if (!this.pending.length) return;
    const bytes = Buffer.allocUnsafeSlow(this.pendingBytes); // its own ArrayBuffer, which can move
    const ends: number[] = [];
    let end = 0;
    for (const [, file] of this.pending) ends.push((end += file.copy(bytes, end)));
    const rels = this.pending.map(([rel]) => rel);
    [this.pending, this.pendingBytes] = [[], 0];
    this.send(rels, ends, bytes.buffer);
  }

  /** Moves the files `rels`, ending at `ends` of `bytes`, to a writer; `known`: their hashes, where known. */
  private send(rels: string[], ends: number[], bytes: ArrayBuffer, known?: string[]): void {
    const units = Math.max(1, Math.ceil(bytes.byteLength / BATCH_BYTES));
    const batch: Batch = { rels, units, ends, bytes, ...(known && { known }) };
    this.waitForWriters();
    const queued = Atomics.add(this.inFlight, 0, units);
    this.writer(this.writerFor(queued)).send(batch);
    this.sent++;
  }

  /**
   * While rendering, the first writer, unless a backlog builds up (the disk is slower than
   * rendering): then every writer takes its turn. Once rendering is done, the writers started
   * take turns, and another starts for each BACKLOG_PER_WRITER batches waiting.
   */
  private writerFor(queued: number): number {
    if (queued >= MAX_IN_FLIGHT / 2) return this.sent % WRITERS;
    if (!this.rendered) return 0;
    return this.sent % Math.min(WRITERS, Math.max(this.writers.length, 1 + Math.floor(queued / BACKLOG_PER_WRITER)));
  }

  /** Counts a file in, before anything else is done with it: a path can be added once only, and the site has a size limit. */
  private admit(rel: string, size: number): void {
    if (this.digests.has(rel)) throw new Error(`${rel} is rendered twice`);
    this.bytes += size;
    if (this.bytes > MAX_SITE_BYTES) throw new UserError(`the site would be larger than ${MAX_SITE_BYTES / 1024 ** 3} GiB (at ${rel}); refusing to publish it`);
  }

  /**
   * Blocks this thread while MAX_IN_FLIGHT batch units are queued: replies cannot arrive while
   * rendering runs, the shared count can. A writer that takes nothing for WRITER_STALL_MS
   * (it died, or its disk hangs) ends the waiting for this build, so nothing hangs here; its
   * failure is told by finish().
   */
  private waitForWriters(): void {
    for (let queued; this.throttled && (queued = Atomics.load(this.inFlight, 0)) >= MAX_IN_FLIGHT; ) {
      if (Atomics.wait(this.inFlight, 0, queued, WRITER_STALL_MS) === 'timed-out') this.throttled = false;
    }
  }

  private add(rel: string, bytes: Buffer, given?: GivenBytes): void {
    this.admit(rel, bytes.length);
    this.digests.set(rel, { bytes: bytes.length });
    if (given && movable(bytes)) {
      this.sendBatch();
      return this.send([rel], [bytes.length], bytes.buffer as ArrayBuffer, [given.sha256]);
    }
    this.pending.push([rel, bytes]);
    this.pendingBytes += bytes.length;
    if (this.pending.length >= BATCH_FILES || this.pendingBytes >= BATCH_BYTES) this.sendBatch();
  }

  /**
   * A file of the published site carried on as it is: kept unread when the manifest's hash is
   * trusted (the file untouched since) and a SHA-256 (older builders recorded another hash),
   * else read and staged like any other.
   */
  private carry(rel: string, file: string): void {
    const old = this.oldHashes.get(rel);
    if (file !== path.join(this.layout.out, rel) || !old || !/^[0-9a-f]{64}$/.test(old)) return this.add(rel, fs.readFileSync(file));
    const { size } = this.oldStats.get(rel)!;
    this.admit(rel, size);
    this.digests.set(rel, withBlockSums({ sha256: old, bytes: size }, file));
    this.keepPublished(rel);
  }

  /** The published file at `rel` stays as it is: linked into the staged site by a writer (as the writers link theirs). */
  private keepPublished(rel: string): void {
    this.keptHere.push(rel);
    if (this.keptHere.length >= KEEP_BATCH) this.sendKept();
    this.record(rel, null);
    this.progressed();
  }

  /** Hands the files kept so far to the first writer to link. */
  private sendKept(): void {
    if (!this.keptHere.length) return;
    this.writer(0).keep(this.keptHere);
    [this.keptHere, this.keptSent] = [[], true];
  }

  /** The site's files: each one added is staged; a path can be added once only. */
  files(): DigestedFiles {
    const { digests } = this;
    const digest = (rel: string): FileDigest => {
      const found = digests.get(rel);
      if (!found) throw new Error(`${rel} was not rendered`);
      if (found.sha256 === undefined) throw new Error(`${rel} is not hashed yet (await settled())`);
      return found;
    };
    return {
      set: (rel, bytes, given) => this.add(rel, bytes, given),
      carry: (rel, file) => this.carry(rel, file),
      has: (rel) => digests.has(rel),
      keys: () => digests.keys(),
      digest,
      settled: () => this.staged(),
    };
  }

  /** Rendering is done: from now on the writers share the batches. */
  renderingDone(): void {
    this.sendBatch();
    this.rendered = true;
  }

  /** Settles with `work`, or rejects with the first failure of a writer. */
  private async orFailure<T>(work: (done: (value: T) => void) => void): Promise<T> {
    if (this.failure) throw this.failure;
    let reject!: (error: Error) => void;
    try {
      return await new Promise<T>((resolve, fail) => {
        reject = fail;
        this.waiting.add(reject);
        work(resolve);
      });
    } finally {
      this.waiting.delete(reject);
    }
  }

  /** Settles once every file added so far is staged, and so hashed. */
  private async staged(): Promise<void> {
    this.sendBatch();
    await this.orFailure<void>((done) => {
      if (this.records.size === this.digests.size) done();
      else this.whenStaged.push(done);
    });
  }

  /**
   * Waits for every file added; `removed` counts old files the new site drops, which force a
   * swap even when no file changed.
   */
  async finish(removed: number): Promise<StagedSite> {
    await this.staged();
    const changed = this.records.size - this.unchanged;
    const commit = changed > 0 || removed > 0;
    if (commit) this.sendKept();
    // The kept files' links made (or, when nothing changed, those handed over done before the staging folder goes).
    if ((commit && this.unchanged) || this.keptSent) {
      await this.orFailure<unknown>((done) => void Promise.all(this.writers.map((w) => (commit ? w.link() : w.sync()))).then(done));
    }
    // Every writer is idle now: kept for the next build.
    void this.stop(true);
    if (!commit) fs.rmSync(this.layout.staging, { recursive: true, force: true });
    const records: StagedSite['records'] = {};
    for (const rel of this.digests.keys()) records[rel] = this.records.get(rel)!;
    return { commit, records, changed, unchanged: this.unchanged };
  }

  /** Lets the writers go: `idle` (every batch written) keeps them for the next build, else they end. */
  private async stop(idle: boolean): Promise<void> {
    await Promise.all(this.writers.splice(0).map((writer) => writer.release(idle)));
  }

  /** Stops the writers and drops what they staged. */
  async abort(): Promise<void> {
    await this.stop(false);
    fs.rmSync(this.layout.staging, { recursive: true, force: true });
  }
}
