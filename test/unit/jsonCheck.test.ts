/**
 * The edge's check of the objects it slices out of packs (generator/runtime/edge/jsonCheck.ts):
 * it must accept exactly what a strict UTF-8 decoding and JSON.parse accept as one object, on
 * hand-written cases, on random objects, and on those objects damaged a byte at a time.
 */
import { describe, expect, it } from 'vitest';
import { isJsonObjectBytes } from '../../generator/runtime/edge/jsonCheck.ts';

// ignoreBOM keeps a leading byte order mark as a character, which JSON.parse refuses: an object sliced
// out of a pack that began with one would put it inside an answer, where it is no JSON.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** What the check replaced (but for a leading byte order mark): a strict decoding, a parse, and an object (not an array, not null). */
function parsesAsObject(bytes: Uint8Array): boolean {
  try {
    const value: unknown = JSON.parse(strict.decode(bytes));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text);

/** A generator of numbers in [0, 1) from a seed (mulberry32), so every run tries the same inputs. */
function seeded(seed: number) {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A random JSON value: objects, arrays, strings with escapes and characters of one to four UTF-8 bytes, numbers of every form, literals. */
function randomValue(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 4 : 6));
  const chars = ['a', 'Z', ' ', '"', '\\', '/', '\n', '\t', '\u0001', '\u007f', 'é', 'ß', '星', 'あ', '\uffff', '😀', '\u{10ffff}'];
  switch (pick) {
    case 0: return Array.from({ length: Math.floor(next() * 6) }, () => chars[Math.floor(next() * chars.length)]).join('');
    case 1: return [0, -0, 1, -17, 3.25, -1e21, 1e-7, 123456789012, 2 ** 53, 0.1][Math.floor(next() * 10)];
    case 2: return [true, false, null][Math.floor(next() * 3)];
    case 3: return Math.floor(next() * 1e6) / (next() < 0.5 ? 1 : 1000);
    case 4: return Array.from({ length: Math.floor(next() * 5) }, () => randomValue(next, depth + 1));
    default: return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, (_, i) => [`${randomValue(next, 4)}${i}`, randomValue(next, depth + 1)]));
  }
}

/** JSON text with whitespace where the grammar allows it, and numbers written with exponents. */
const spaced = (text: string) => text.replace(/([,:[\]{}])/g, (c, _m, at) => (at % 3 ? `${c} ` : `\t${c}\r\n`));

describe('isJsonObjectBytes', () => {
  it('agrees with a strict decoding and JSON.parse on hand-written cases', () => {
    const cases = [
      '{}', ' {} ', '\t{"a":1}\n', '{"a":[1,2,{"b":null}],"c":true,"d":false,"e":-0.5e+10,"f":"x\\u00e9\\n\\"y\\/"}',
      '{"k":"星野あおい 😀"}', '{"a":1E+2,"b":0e0,"c":-0,"d":1.5E-3}', '{"a":[[[[]]]],"b":{"c":{}}}', '{ "a" : [ 1 , 2 ] }',
      '{"\u007f":1}', '{"a":"\\ud800"}',
      // Not JSON, or not one object.
      '', ' ', '[]', '1', '"x"', 'null', '{', '}', '{}{}', '{} 1', '{"a":1}}', '{"a":01}', '{"a":1.}', '{"a":.5}', '{"a":1e}',
      '{"a":1e+}', '{"a":-}', '{"a":--1}', '{"a":+1}', '{"a":[1,]}', '{"a":1,}', '{,}', '{"a"}', '{"a" 1}', '{"a"::1}', '{a:1}',
      '{"a":tru}', '{"a":truee}', '{"a":nul}', '{"a":"\\x"}', '{"a":"\\u12g4"}', '{"a":"\t"}', '{"a":[}', '{"a":{]}', '{"a":[1 2]}',
      '{"a":1 "b":2}', '{"a":\'x\'}', '{"a":NaN}', '{"a":Infinity}', '{"a":1}\u00a0', '\ufeff{}', '{"a":"x}', '{"a":"x\\"}',
    ];
    for (const text of cases) expect(isJsonObjectBytes(bytesOf(text)), JSON.stringify(text)).toBe(parsesAsObject(bytesOf(text)));
    expect(isJsonObjectBytes(bytesOf('{"a":[1,{"b":"c"}]}'))).toBe(true);
    expect(isJsonObjectBytes(bytesOf('{"id"!1}'))).toBe(false);
  });

  it('refuses malformed UTF-8 where a strict decoding does: overlong forms, surrogates, past U+10FFFF, cut sequences', () => {
    const around = (...inner: number[]) => Uint8Array.from([0x7b, 0x22, ...inner, 0x22, 0x3a, 0x31, 0x7d]); // {"<inner>":1}
    const cases = [
      around(0xc3, 0xa9), around(0xe6, 0x98, 0x9f), around(0xf0, 0x9f, 0x98, 0x80), around(0xf4, 0x8f, 0xbf, 0xbf), around(0xee, 0x80, 0x80),
      around(0xc0, 0x80), around(0xc1, 0xbf), around(0xe0, 0x80, 0x80), around(0xe0, 0x9f, 0xbf), around(0xed, 0xa0, 0x80), around(0xed, 0xbf, 0xbf),
      around(0xf0, 0x80, 0x80, 0x80), around(0xf0, 0x8f, 0xbf, 0xbf), around(0xf4, 0x90, 0x80, 0x80), around(0xf5, 0x80, 0x80, 0x80), around(0xff),
      around(0x80), around(0xe6, 0x98), around(0xf0, 0x9f, 0x98), around(0xc3), around(0x01), around(0x1f),
      Uint8Array.from([0x7b, 0x7d, 0xc3, 0xa9]), Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xc3, 0xa9, 0x7d]),
    ];
    for (const bytes of cases) expect(isJsonObjectBytes(bytes), Array.from(bytes, (b) => b.toString(16)).join(' ')).toBe(parsesAsObject(bytes));
    expect(isJsonObjectBytes(around(0xed, 0xa0, 0x80))).toBe(false);
  });

  it('agrees on random objects, written compact and spaced, and on each damaged by a byte changed, dropped or cut', () => {
    const next = seeded(2026);
    const alphabet = bytesOf('{}[]",:\\-+.0123456789eEtrufalsn \t\nxué');
    let refused = 0;
    for (let n = 0; n < 300; n++) {
      const value = Object.fromEntries([[`k${n}`, randomValue(next)], ['more', randomValue(next)]]);
      const compact = bytesOf(JSON.stringify(value));
      for (const bytes of [compact, bytesOf(spaced(JSON.stringify(value)))]) {
        expect(isJsonObjectBytes(bytes)).toBe(true);
        expect(parsesAsObject(bytes)).toBe(true);
      }
      for (let k = 0; k < 20; k++) {
        const at = Math.floor(next() * compact.length);
        const kind = next();
        let damaged: Uint8Array;
        if (kind < 0.4) (damaged = compact.slice())[at] = alphabet[Math.floor(next() * alphabet.length)];
        else if (kind < 0.6) (damaged = compact.slice())[at] = Math.floor(next() * 256);
        else if (kind < 0.8) damaged = compact.slice(0, at);
        else damaged = Uint8Array.from([...compact.subarray(0, at), ...compact.subarray(at + 1)]);
        const expected = parsesAsObject(damaged);
        if (!expected) refused++;
        expect(isJsonObjectBytes(damaged), new TextDecoder().decode(damaged)).toBe(expected);
      }
    }
    expect(refused).toBeGreaterThan(1000); // most damage breaks the object: the comparison covered refusals, not only acceptances
  });

  it('checks a part of a larger array in place, nothing before or after it', () => {
    const bytes = bytesOf('xx{"a":[1,2]}{"b":"c"}yy');
    expect(isJsonObjectBytes(bytes, 2, 13)).toBe(true);
    expect(isJsonObjectBytes(bytes, 13, 22)).toBe(true);
    expect(isJsonObjectBytes(bytes, 2, 12)).toBe(false);
    expect(isJsonObjectBytes(bytes, 2, 22)).toBe(false);
    expect(isJsonObjectBytes(bytes, 1, 13)).toBe(false);
  });
});
