/**
 * Block sums: what lets a mirror rebuild a changed file from the blocks its old copy already
 * holds, fetching only the others (rsync's algorithm over HTTP Range, as zsync does it). A
 * file is cut into BLOCK_SIZE blocks (the last one shorter); each gets 12 bytes: a weak sum
 * that rolls (rsync's two 16-bit sums, so the sum of the window one byte further costs a few
 * additions, and a block is found at any offset of the old file), then the first 8 bytes of
 * the block's SHA-256, which confirms a weak match. Published base64-encoded; the whole
 * file's SHA-256 is still checked once it is assembled.
 */
import { hash } from 'node:crypto';
import { BLOCK_SIZE, BLOCK_SUMS_MIN_BYTES } from '../contract/format.ts';
import { eachChunk, type FileDigest } from './digest.ts';

const STRONG_BYTES = 8;
/** Bytes per block: the weak sum (uint32, big-endian), then the strong one. */
const SUM_BYTES = 4 + STRONG_BYTES;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const blockCount = (bytes: number, blockSize = BLOCK_SIZE) => Math.ceil(bytes / blockSize);

/**
 * rsync's weak sum of a window, kept as it slides: `a` the sum of its bytes, `b` the sum of
 * the running values of `a` (each byte weighted by its distance from the window's end), both
 * modulo 2^16; the sum is b in the high half and a in the low one.
 */
export class RollingSum {
  private a = 0;
  private b = 0;

  /** The sum of bytes[start, end). */
  reset(bytes: Uint8Array, start: number, end: number): this {
    // In locals, four bytes a turn: the loop runs once per byte of every large file (2.5 times
    // faster than a byte a turn). Both sums wrap modulo 2^32 (`| 0`), whose low 16 bits are theirs modulo 2^16.
    let a = 0;
    let b = 0;
    let i = start;
    for (const stop = end - 3; i < stop; i += 4) {
      const x0 = bytes[i];
      const x1 = bytes[i + 1];
      const x2 = bytes[i + 2];
      const x3 = bytes[i + 3];
      b = (b + 4 * a + 4 * x0 + 3 * x1 + 2 * x2 + x3) | 0;
      a = (a + x0 + x1 + x2 + x3) | 0;
    }
    for (; i < end; i++) {
      a = (a + bytes[i]) | 0;
      b = (b + a) | 0;
    }
    [this.a, this.b] = [a & 0xffff, b & 0xffff];
    return this;
  }

  /** Slides a window of `length` bytes by one: `out` leaves it at the front, `into` joins it at the end. */
  roll(out: number, into: number, length: number): void {
    this.a = (this.a - out + into) & 0xffff;
    this.b = (this.b - length * out + this.a) & 0xffff;
  }

  get value(): number {
    return ((this.b << 16) | this.a) >>> 0;
  }
}

/** The first bytes of the SHA-256 of `block`: what confirms a weak match. */
export const strongSum = (block: Uint8Array): Buffer => hash('sha256', block, 'buffer').subarray(0, STRONG_BYTES);

function writeSums(sums: Buffer, index: number, block: Uint8Array): void {
  sums.writeUInt32BE(new RollingSum().reset(block, 0, block.length).value, index * SUM_BYTES);
  strongSum(block).copy(sums, index * SUM_BYTES + 4);
}

/** The block sums of `bytes`. */
function sumsOf(bytes: Uint8Array, blockSize: number): Buffer {
  const sums = Buffer.alloc(blockCount(bytes.length, blockSize) * SUM_BYTES);
  for (let i = 0; i * blockSize < bytes.length; i++) writeSums(sums, i, bytes.subarray(i * blockSize, (i + 1) * blockSize));
  return sums;
}

/** The block sums of `bytes`, base64. */
export const blockSums = (bytes: Uint8Array, blockSize = BLOCK_SIZE): string => sumsOf(bytes, blockSize).toString('base64');

/** The block sums of the file at `file`, read a chunk (a whole number of blocks) at a time. */
function fileBlockSums(file: string): string {
  const sums: Buffer[] = [];
  eachChunk(file, (chunk) => sums.push(sumsOf(chunk, BLOCK_SIZE)));
  return Buffer.concat(sums).toString('base64');
}

/** `digest` with its file's block sums when the file is large enough to be listed with them (`content`: its bytes, or where it is). */
export function withBlockSums(digest: FileDigest, content: Uint8Array | string): FileDigest {
  if (digest.bytes < BLOCK_SUMS_MIN_BYTES || digest.blocks !== undefined) return digest;
  return { ...digest, blocks: typeof content === 'string' ? fileBlockSums(content) : blockSums(content) };
}

/** Published block sums, read back: the blocks of `blockSize` bytes of a file of `bytes` bytes. */
export class BlockSums {
  private constructor(private readonly sums: Buffer, readonly bytes: number, readonly blockSize: number) {}

  /** The sums `base64` gives for a file of `bytes` bytes; null when it is not such a list. */
  static parse(base64: unknown, bytes: number, blockSize = BLOCK_SIZE): BlockSums | null {
    if (typeof base64 !== 'string' || !BASE64.test(base64)) return null;
    const sums = Buffer.from(base64, 'base64');
    return sums.length === blockCount(bytes, blockSize) * SUM_BYTES && sums.toString('base64') === base64 ? new BlockSums(sums, bytes, blockSize) : null;
  }

  get count(): number {
    return this.sums.length / SUM_BYTES;
  }

  /** Where block `index` starts in the file, and how long it is. */
  start = (index: number) => index * this.blockSize;
  length = (index: number) => Math.min(this.blockSize, this.bytes - index * this.blockSize);

  weak = (index: number) => this.sums.readUInt32BE(index * SUM_BYTES);

  /** Whether `strong` (strongSum of some bytes) is block `index`'s. */
  strongIs(index: number, strong: Buffer): boolean {
    const at = index * SUM_BYTES + 4;
    return strong.equals(this.sums.subarray(at, at + STRONG_BYTES));
  }
}
