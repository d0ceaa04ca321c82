/**
 * A pack member's check sum (generator/contract/packSum.ts), against its definition written
 * out here a byte at a time (the words it names, their two sums, MurmurHash3 of those): on random bytes and ranges, through the Uint32Array words of an
 * aligned pack and the assembled words of one that is not; and what it is for: any byte of the
 * member changed, or the member's offsets moved, gives another sum. The edge's refusals of
 * damaged packs are in test/unit/edge.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memberSum, packWords } from '../../generator/contract/packSum.ts';

/** MurmurHash3 (x86, 32-bit, seed 0) over 32-bit blocks, then `length`: written out from its reference (smhasher's MurmurHash3.cpp). */
function murmurOfWords(words: number[], length: number): number {
  const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));
  let h = 0;
  for (const word of words) {
    h ^= Math.imul(rotl(Math.imul(word, 0xcc9e2d51), 15), 0x1b873593);
    h = (Math.imul(rotl(h, 13), 5) + 0xe6546b64) | 0;
  }
  h ^= length;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The sum as its documentation defines it: the pack's little-endian words the range falls in, its own bytes only; their Fletcher sums, hashed. */
function definedSum(bytes: Uint8Array, start: number, end: number): number {
  const words = new Map<number, bigint>();
  for (let i = start; i < end; i++) {
    const k = Math.floor(i / 4);
    words.set(k, (words.get(k) ?? 0n) + (BigInt(bytes[i]) << BigInt(8 * (i % 4))));
  }
  const MOD = 2n ** 32n;
  let [a, b] = [0n, 0n];
  for (const k of [...words.keys()].sort((x, y) => x - y)) {
    a = (a + words.get(k)!) % MOD;
    b = (b + a) % MOD;
  }
  return murmurOfWords([Number(a) | 0, Number(b) | 0], end - start);
}

/** Random bytes and a range in them; `shift` places them 0-3 bytes into a larger buffer (a view that is not word-aligned). */
const packAndRange = fc.record({ bytes: fc.uint8Array({ minLength: 1, maxLength: 300 }), shift: fc.nat(3), at: fc.nat(), size: fc.nat() }).map(({ bytes, shift, at, size }) => {
  const start = at % bytes.length;
  const end = start + 1 + (size % (bytes.length - start));
  const holder = new Uint8Array(bytes.length + shift);
  holder.set(bytes, shift);
  return { pack: holder.subarray(shift), start, end };
});

describe('a pack member\'s sum', () => {
  it('hashes its two sums with MurmurHash3 as published ("test" as one block hashes to 0xba6bd213)', () => {
    expect(murmurOfWords([0x74736574], 4)).toBe(0xba6bd213);
    // One word: a and b are both the word.
    expect(memberSum(packWords(new TextEncoder().encode('test')), 0, 4)).toBe(murmurOfWords([0x74736574, 0x74736574], 4));
  });

  it('is its definition, on aligned packs and on packs that are not', () => {
    fc.assert(fc.property(packAndRange, ({ pack, start, end }) => {
      expect(memberSum(packWords(pack), start, end)).toBe(definedSum(pack, start, end));
    }), { numRuns: 2000 });
  });

  it('changes with any byte of the member changed, and with the member\'s offsets moved by a byte', () => {
    const member = fc.string({ unit: 'grapheme', minLength: 4, maxLength: 200 }).map((text) => new TextEncoder().encode(JSON.stringify({ text, n: text.length })));
    fc.assert(fc.property(member, fc.nat(3), fc.nat(), fc.integer({ min: 1, max: 255 }), (object, before, where, delta) => {
      const pack = new Uint8Array(before + object.length + 3).fill(0x2c);
      pack.set(object, before);
      const [start, end] = [before, before + object.length];
      const sum = memberSum(packWords(pack), start, end);
      const damaged = pack.slice();
      const at = start + (where % object.length);
      damaged[at] = (damaged[at] + delta) % 256;
      expect(memberSum(packWords(damaged), start, end)).not.toBe(sum);
      expect(memberSum(packWords(pack), start + 1, end + 1)).not.toBe(sum);
      if (start > 0) expect(memberSum(packWords(pack), start - 1, end - 1)).not.toBe(sum);
    }), { numRuns: 1000 });
  });
});
