/**
 * Block sums: what lets a mirror rebuild a changed file from the blocks its old copy already
 * holds, fetching only the others (rsync's algorithm over HTTP Range, as zsync does it). A
 * file is cut into BLOCK_SIZE blocks (the last one shorter); each gets 12 bytes: a weak sum
 * that rolls (rsync's two 16-bit sums, so the sum of the window one byte further costs a few
 * additions, and a block is found at any offset of the old file), then the first 8 bytes of
 * the block's SHA-256, which confirms a weak match. Published base64-encoded; the whole
 * file's SHA-256 is still checked once it is assembled.
 */
import { BLOCK_SIZE, BLOCK_SUMS_MIN_BYTES } from '../contract/format.ts';
import { eachChunk, type FileDigest } from './digest.ts';
import { blockSumBytes, STRONG_BYTES, SUM_BYTES, weakSum } from './blockSumBytes.js';

export { strongSum } from './blockSumBytes.js';

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
    const sum = weakSum(bytes, start, end);
    [this.a, this.b] = [sum & 0xffff, sum >>> 16];
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

/** The block sums of `bytes`, base64. */
export const blockSums = (bytes: Uint8Array, blockSize = BLOCK_SIZE): string => blockSumBytes(bytes, blockSize).toString('base64');

/** The block sums of the file at `file`, read a chunk (a whole number of blocks) at a time. */
function fileBlockSums(file: string): string {
  const sums: Buffer[] = [];
  eachChunk(file, (chunk) => sums.push(blockSumBytes(chunk, BLOCK_SIZE)));
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
