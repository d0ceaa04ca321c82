/**
 * The edge's check of the objects it slices out of packs (generator/runtime/edge/jsonCheck.ts):
 * it must accept exactly what a strict UTF-8 decoding and JSON.parse accept as one object, on
 * hand-written cases, on random objects (fast-check), and on those objects damaged a byte at a time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonObjectBytes, parsesAsObject } from '../../generator/runtime/edge/jsonCheck.ts';

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text);

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
    const alphabet = bytesOf('{}[]",:\\-+.0123456789eEtrufalsn \t\nxué');
    // Any code point in strings (lone surrogates too, which JSON.stringify escapes), numbers of every form, nesting.
    // The code points drawn as test/unit/fuzz.test.ts draws them, not by stringUnit 'binary': its first use maps all
    // 1.1 million code points back to their index, 2-5 s of CPU (four fifths of this file) for no other input.
    const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code));
    const value = fc.jsonValue({ maxDepth: 4, stringUnit: anyCodePoint });
    const damage = fc.record({ at: fc.nat(), kind: fc.nat(99), byte: fc.nat(255) });
    let refused = 0;
    fc.assert(fc.property(value, value, fc.array(damage, { minLength: 20, maxLength: 20 }), (first, more, damages) => {
      const compact = bytesOf(JSON.stringify({ k: first, more }));
      for (const bytes of [compact, bytesOf(spaced(JSON.stringify({ k: first, more })))]) {
        expect(isJsonObjectBytes(bytes)).toBe(true);
        expect(parsesAsObject(bytes)).toBe(true);
      }
      for (const { at: anywhere, kind, byte } of damages) {
        const at = anywhere % compact.length;
        let damaged: Uint8Array;
        if (kind < 40) (damaged = compact.slice())[at] = alphabet[byte % alphabet.length];
        else if (kind < 60) (damaged = compact.slice())[at] = byte;
        else if (kind < 80) damaged = compact.slice(0, at);
        else damaged = Uint8Array.from([...compact.subarray(0, at), ...compact.subarray(at + 1)]);
        const expected = parsesAsObject(damaged);
        if (!expected) refused++;
        expect(isJsonObjectBytes(damaged), new TextDecoder().decode(damaged)).toBe(expected);
      }
    }), { seed: 2026, numRuns: 300 });
    expect(refused).toBeGreaterThan(1000); // most damage breaks the object: the comparison covered refusals, not only acceptances
  });

  it('checks a part of a larger array in place, nothing before or after it (and so does the engine\'s check)', () => {
    const bytes = bytesOf('xx{"a":[1,2]}{"b":"c"}yy');
    for (const check of [isJsonObjectBytes, parsesAsObject]) {
      expect(check(bytes, 2, 13)).toBe(true);
      expect(check(bytes, 13, 22)).toBe(true);
      expect(check(bytes, 2, 12)).toBe(false);
      expect(check(bytes, 2, 22)).toBe(false);
      expect(check(bytes, 1, 13)).toBe(false);
    }
  });
});
