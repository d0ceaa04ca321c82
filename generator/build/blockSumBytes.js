// The arithmetic of block sums (blockSums.ts tells what they are for), in plain JavaScript: the
// staging writers (publish/stagingWorker.js) run outside the TypeScript loader and take the sums of
// the files they write, so the main thread, which renders, does not.
import { hash } from 'node:crypto';

/** Bytes of a block's SHA-256 kept: what confirms a weak match. */
export const STRONG_BYTES = 8;
/** Bytes per block: the weak sum (uint32, big-endian), then the strong one. */
export const SUM_BYTES = 4 + STRONG_BYTES;

/**
 * rsync's weak sum of bytes[start, end): `a` the sum of the bytes, `b` the sum of the running
 * values of `a`, both modulo 2^16; b in the high half and a in the low one.
 * @param {Uint8Array} bytes @param {number} start @param {number} end
 * @returns {number}
 */
export function weakSum(bytes, start, end) {
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
  return (((b & 0xffff) << 16) | (a & 0xffff)) >>> 0;
}

/**
 * The first bytes of the SHA-256 of `block`.
 * @param {Uint8Array} block
 * @returns {Buffer}
 */
export const strongSum = (block) => hash('sha256', block, 'buffer').subarray(0, STRONG_BYTES);

/**
 * The block sums of `bytes` in blocks of `blockSize` (the last one shorter), SUM_BYTES each.
 * @param {Uint8Array} bytes @param {number} blockSize
 * @returns {Buffer}
 */
export function blockSumBytes(bytes, blockSize) {
  const sums = Buffer.alloc(Math.ceil(bytes.length / blockSize) * SUM_BYTES);
  for (let i = 0; i * blockSize < bytes.length; i++) {
    const block = bytes.subarray(i * blockSize, (i + 1) * blockSize);
    sums.writeUInt32BE(weakSum(block, 0, block.length), i * SUM_BYTES);
    strongSum(block).copy(sums, i * SUM_BYTES + 4);
  }
  return sums;
}
