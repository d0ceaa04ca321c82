/**
 * A changed file rebuilt from its old version and the blocks it lacks (rsync's algorithm over
 * HTTP Range, as zsync does it; the sums are generator/build/blockSums.ts's). The old file is scanned
 * with the rolling weak sum for the new file's blocks, at any offset (bytes inserted or removed
 * before a block do not lose it), each weak match confirmed by the strong sum. The new file is
 * then written in order: found blocks copied from the old file, each run of missing blocks
 * fetched as one byte range. Fetching is the caller's (mirror.ts); a server that answers a
 * range with the whole file (HTTP 200) gives the whole file. Whatever the sums said, the file
 * is only kept when its SHA-256 is the manifest's (Assembly.mismatch).
 */
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { CHUNK, type FileDigest } from '../digest.ts';
import { BlockSums, RollingSum, strongSum } from '../blockSums.ts';
import { UserError } from '../errors.ts';

/** Where the bytes written go: a file, or memory. */
export interface Store {
  write(chunk: Uint8Array, position: number): Promise<unknown>;
}

/** A new file as it is written, in order: hashed and counted as it goes, refused past its listed size. */
export class Assembly {
  private hash = createHash('sha256');
  private size = 0;
  private overflow = false;
  /** Bytes received from the site (over every attempt), and taken from the old file (this attempt). */
  fetched = 0;
  reused = 0;
  /** Byte ranges the site answered as such (206). */
  ranges = 0;

  constructor(readonly expected: FileDigest, private readonly store: Store) {}

  /** Appends `chunk`; false (and nothing written) once the file would exceed its listed size. */
  async add(chunk: Uint8Array, from: 'site' | 'old'): Promise<boolean> {
    if (from === 'site') this.fetched += chunk.length;
    else this.reused += chunk.length;
    if (this.size + chunk.length > this.expected.bytes) this.overflow = true;
    if (this.overflow) return false;
    this.hash.update(chunk);
    await this.store.write(chunk, this.size);
    this.size += chunk.length;
    return true;
  }

  /** Starts the file over (what was written is overwritten, and the size checked at the end). */
  restart(): void {
    [this.hash, this.size, this.overflow, this.reused] = [createHash('sha256'), 0, false, 0];
  }

  /** What the bytes written are, when not the listed ones; null when they are. */
  mismatch(): string | null {
    if (this.overflow) return `more than ${this.expected.bytes} bytes`;
    const digest = this.hash.copy().digest('hex');
    return digest === this.expected.sha256 && this.size === this.expected.bytes ? null : `${this.size} bytes with SHA-256 ${digest}`;
  }
}

/** A byte range as the site answered it: those bytes (206), or the whole file from a server that ignores Range (200). */
export type RangeAnswer = { range: AsyncIterable<Uint8Array> } | { whole: AsyncIterable<Uint8Array> };
/** Fetches bytes [start, end) of the new file. */
export type FetchRange = (start: number, end: number) => Promise<RangeAnswer>;

/** Bytes of the old file held at once while scanning, beyond one block. */
const WINDOW = CHUNK;

/**
 * Weak matches the strong sum refuses, allowed per file beyond one per block: each costs a block's
 * SHA-256. An honest site's sums meet a handful; a hostile one's, each set to the weak sum of the
 * all-zero window (0), met one at every byte of the old file's zero runs (the SQLite parts have
 * many), a SHA-256 of 8 KiB per byte: 81 s per 1,000 entries, hours at a site's size cap.
 */
const REFUSED_PER_FILE = 64;
/** Bytes hashed for refused weak matches over a whole mirror: past them, no old file is scanned (its blocks are fetched). */
const REFUSED_BYTES = 256 * 1024 * 1024;

/**
 * What scanning old files may spend on weak matches that prove false, per file (one per block of
 * the new file, and `perFile` more) and over every file of a mirror (`totalBytes` hashed). A scan
 * that reaches either stops; the blocks it has not found are fetched, which costs bytes, never
 * correctness (the assembled file's SHA-256 is checked in any case).
 */
export class MatchBudget {
  /** Bytes hashed so far for weak matches the strong sum refused. */
  spent = 0;

  constructor(readonly totalBytes = REFUSED_BYTES, readonly perFile = REFUSED_PER_FILE) {}

  get exhausted(): boolean {
    return this.spent >= this.totalBytes;
  }
}

/**
 * The offset in the old file of each block of the new one, -1 for a block it lacks (or that the
 * scan did not reach within `budget`).
 */
export function findBlocks(old: string, sums: BlockSums, budget = new MatchBudget()): number[] {
  const found = new Array<number>(sums.count).fill(-1);
  if (budget.exhausted) return found;
  const { blockSize } = sums;
  /** Refused weak matches this file may still have. */
  let refusals = sums.count + budget.perFile;
  /** Full blocks not found yet, by weak sum. */
  const wanted = new Map<number, number[]>();
  for (let i = 0; i < sums.count; i++) if (sums.length(i) === blockSize) (wanted.get(sums.weak(i)) ?? wanted.set(sums.weak(i), []).get(sums.weak(i))!).push(i);
  const fd = fs.openSync(old, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = Buffer.allocUnsafe(WINDOW + blockSize + 1);
    /** The old file's bytes [held, heldEnd) are in `buffer`. */
    let [held, heldEnd] = [0, 0];
    const holdFrom = (offset: number) => {
      buffer.copy(buffer, 0, offset - held, heldEnd - held);
      [held, heldEnd] = [offset, Math.max(offset, heldEnd)];
      for (let read = 1; read > 0 && heldEnd < size && heldEnd - held < buffer.length; heldEnd += read) {
        read = fs.readSync(fd, buffer, heldEnd - held, buffer.length - (heldEnd - held), heldEnd);
      }
    };
    const sum = new RollingSum();
    let fresh = true;
    for (let pos = 0; pos + blockSize <= size && wanted.size; ) {
      // The window and the byte after it (the next roll's) must be held.
      if (pos + blockSize + 1 > heldEnd && heldEnd < size) holdFrom(pos);
      const at = pos - held;
      if (fresh) sum.reset(buffer, at, at + blockSize);
      fresh = false;
      const candidates = wanted.get(sum.value);
      if (candidates) {
        const strong = strongSum(buffer.subarray(at, at + blockSize));
        const matched = candidates.filter((i) => sums.strongIs(i, strong));
        if (matched.length) {
          for (const i of matched) found[i] = pos;
          const left = candidates.filter((i) => found[i] < 0);
          if (left.length) wanted.set(sum.value, left);
          else wanted.delete(sum.value);
          [pos, fresh] = [pos + blockSize, true];
          continue;
        }
        budget.spent += blockSize;
        if (--refusals <= 0 || budget.exhausted) break;
      }
      if (pos + blockSize >= size) break;
      sum.roll(buffer[at], buffer[at + blockSize], blockSize);
      pos++;
    }
    // A short last block is looked for where it most likely is: at the old file's end.
    const last = sums.count - 1;
    const length = last >= 0 ? sums.length(last) : 0;
    if (length < blockSize && length > 0 && size >= length) {
      const tail = Buffer.alloc(length);
      fs.readSync(fd, tail, 0, length, size - length);
      if (new RollingSum().reset(tail, 0, length).value === sums.weak(last) && sums.strongIs(last, strongSum(tail))) found[last] = size - length;
    }
  } finally {
    fs.closeSync(fd);
  }
  return found;
}

/** What the new file is made of, in order: bytes [start, end) of the new file from the old file at `from`, or from the site. */
export interface Piece {
  start: number;
  end: number;
  from: number | 'site';
}

/** The pieces of the new file: runs of blocks found one after another in the old file, and runs of missing ones, each one piece. */
export function piecesOf(found: number[], sums: BlockSums): Piece[] {
  const pieces: Piece[] = [];
  found.forEach((offset, i) => {
    const [start, end] = [sums.start(i), sums.start(i) + sums.length(i)];
    const previous = pieces.at(-1);
    const from = offset < 0 ? 'site' : offset;
    const continues = from === 'site' ? previous?.from === 'site' : previous?.from !== 'site' && previous?.from !== undefined && previous.from + (previous.end - previous.start) === from;
    if (continues) previous!.end = end;
    else pieces.push({ start, end, from });
  });
  return pieces;
}

/** Copies bytes [from, from + length) of the open old file into `sink`, a chunk at a time. */
async function copyOld(old: fs.promises.FileHandle, from: number, length: number, sink: Assembly): Promise<boolean> {
  for (let done = 0; done < length; ) {
    const { buffer, bytesRead } = await old.read(Buffer.allocUnsafe(Math.min(CHUNK, length - done)), 0, Math.min(CHUNK, length - done), from + done);
    if (bytesRead === 0) throw new Error(`the old file ended before byte ${from + length}`);
    if (!(await sink.add(buffer.subarray(0, bytesRead), 'old'))) return false;
    done += bytesRead;
  }
  return true;
}

/**
 * Writes the new file into `sink` from the blocks the old file at `old` holds (as far as `budget`
 * lets the scan look) and byte ranges of the others (`url` names it in messages). The caller
 * checks the result (sink.mismatch).
 */
export async function syncBlocks(old: string, sums: BlockSums, sink: Assembly, fetchRange: FetchRange, url: URL, budget?: MatchBudget): Promise<void> {
  const pieces = piecesOf(findBlocks(old, sums, budget), sums);
  const file = await fs.promises.open(old, 'r');
  try {
    for (const { start, end, from } of pieces) {
      if (from !== 'site') {
        if (!(await copyOld(file, from, end - start, sink))) return;
        continue;
      }
      const answer = await fetchRange(start, end);
      if ('whole' in answer) {
        sink.restart();
        for await (const chunk of answer.whole) if (!(await sink.add(chunk, 'site'))) return;
        return;
      }
      sink.ranges++;
      let received = 0;
      for await (const chunk of answer.range) {
        received += chunk.length;
        if (received > end - start) throw new UserError(`${url} answered bytes ${start}-${end - 1} with more than ${end - start} bytes; nothing was published`);
        if (!(await sink.add(chunk, 'site'))) return;
      }
      if (received < end - start) throw new UserError(`${url} answered bytes ${start}-${end - 1} with ${received} bytes; nothing was published`);
    }
  } finally {
    await file.close();
  }
}
