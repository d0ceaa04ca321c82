/**
 * The check sum of a pack member (render/packs.ts writes it as the third number of each object's
 * offsets; the edge compares it before it serves the object's bytes, edge/objects.ts). The JSON
 * in a pack is the build's own (JSON.stringify), so what is left to catch is damage after it was
 * written: a byte changed inside an object, a pack cut short, offsets that no longer fall where
 * the objects do. A sum over the object's bytes catches each of them, where a check of the JSON
 * itself (what the edge ran before) cost 20-40 ms of a cold 1,000-card list's CPU and the sum
 * costs 2-9 in a profile of that request (docs/benchmark.md, "Packs' sums").
 *
 * Defined over the little-endian 32-bit words of the pack, counted from its first byte, that the
 * object's bytes fall in (the bytes of a word outside the object counted as 0), in order: their
 * two running sums, Fletcher's (a: the words, b: each a so far, the order counting), both modulo
 * 2^32; then those two as the blocks of MurmurHash3 (x86, 32-bit, seed 0) with the object's length
 * in bytes. A changed byte always changes a (carries run upward, never out of a word's own
 * change), and Murmur's mixing carries any change of a or b into the whole sum, where combining
 * them by arithmetic alone left a changed top byte in the sum's top byte (one in 256 such damages
 * unseen). Words, not bytes: a quarter of the steps, and two additions a word, the loop every object the
 * edge serves runs through.
 */

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** A pack's bytes and its whole words (packWords): made once per pack, for the sums of its members. */
export interface PackWords {
  bytes: Uint8Array;
  words: Uint32Array;
}

/** The word of the pack at `k` with only its bytes in [start, end) (the rest as 0). */
function partialWord(bytes: Uint8Array, k: number, start: number, end: number): number {
  const to = 4 * k + 4 < end ? 4 * k + 4 : end;
  let word = 0;
  for (let i = 4 * k > start ? 4 * k : start; i < to; i++) word |= bytes[i] << ((i & 3) << 3);
  return word;
}

/**
 * The pack's whole words, little-endian from its first byte: its own bytes seen as a Uint32Array
 * where they allow one (aligned, on a little-endian machine: every host), else a copy.
 */
function wordsOf(bytes: Uint8Array): Uint32Array {
  const count = bytes.byteLength >>> 2;
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Uint32Array.from({ length: count }, (_, k) => view.getUint32(4 * k, true));
}

/** MurmurHash3's step of one 32-bit block. */
function mixed(hash: number, word: number): number {
  const k = Math.imul(rotated(Math.imul(word, 0xcc9e2d51), 15), 0x1b873593);
  return (Math.imul(rotated(hash ^ k, 13), 5) + 0xe6546b64) | 0;
}

const rotated = (x: number, r: number) => (x << r) | (x >>> (32 - r));

/** MurmurHash3's finalization, after the length (in bytes). */
function finalized(hash: number, length: number): number {
  let h = hash ^ length;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The pack `bytes` (the whole file, from its first byte) made ready for its members' sums. */
export const packWords = (bytes: Uint8Array): PackWords => ({ bytes, words: wordsOf(bytes) });

/** The sum of the member at bytes [start, end) of a pack (0 <= start < end <= its length). */
export function memberSum({ bytes, words }: PackWords, start: number, end: number): number {
  const first = start >>> 2;
  const last = (end - 1) >>> 2;
  // The first and the last word may hold bytes of the neighbouring objects: only this one's count.
  let a = partialWord(bytes, first, start, end);
  let b = a;
  for (let k = first + 1; k < last; k++) {
    a = (a + words[k]) | 0;
    b = (b + a) | 0;
  }
  if (last > first) {
    a = (a + partialWord(bytes, last, start, end)) | 0;
    b = (b + a) | 0;
  }
  return finalized(mixed(mixed(0, a), b), end - start);
}
