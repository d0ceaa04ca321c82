/**
 * Whether bytes are the UTF-8 of one JSON object, checked without decoding or parsing them: a
 * state machine over bytes (a table of the next state by state and byte, as JSON_checker does)
 * with a stack of the open objects and arrays. The edge checks the objects of a long list it
 * slices out of packs so (edge/objects.ts): decoding and parsing them cost as much again as
 * reading the packs (a cold 1,000-card list checks 2.9 MB), where a loop of table look-ups costs
 * less once the engine has optimized it; a few objects are checked by the engine's own decoding
 * and parsing (parsesAsObject), which needs no warming up.
 *
 * It accepts what `JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes))`
 * accepts and gives an object for: RFC 8259's grammar with its four whitespace bytes, and
 * well-formed UTF-8 (no overlong forms, no encoded surrogates, nothing past U+10FFFF), which
 * test/unit/jsonCheck.test.ts compares on damaged and random inputs. (A byte order mark is refused,
 * as it would be inside an answer; the decoding it replaced dropped one.)
 *
 * Most bytes move from state to state by the table alone: what comes after a value (`,`) is
 * known from the state, since values inside an object and inside an array have states of their
 * own; only opening or closing an object or array, and the end of a string value, look at the stack.
 */

/** States are numbered as they are made; the table holds the next state by state and byte, or an action (negative). */
let states = 0;
const state = () => states++;

// Actions: what a byte does besides moving to a state.
const ERROR = -1, OPEN_OBJECT = -2, OPEN_ARRAY = -3, CLOSE_OBJECT = -4, CLOSE_ARRAY = -5, VALUE_STRING_END = -6;

/**
 * Before the document's object; after it (whitespace only); after `{` (a key or `}`); after `,`
 * in an object (a key); after a key (`:`); after `[` (a value or `]`).
 */
const GO = state(), DONE = state(), OBJECT = state(), KEY = state(), COLON = state(), ARRAY = state();

/** A value's states where it ends inside an object or inside an array: after it (`OK`), and before it (`VALUE`: after `:`, or `,` in an array). */
interface Context {
  ok: number;
  value: number;
  numbers: { minus: number; zero: number; integer: number; point: number; fraction: number; exponent: number; sign: number; exponentDigits: number };
  literals: number[][];
}
const context = (): Context => ({
  ok: state(),
  value: state(),
  numbers: { minus: state(), zero: state(), integer: state(), point: state(), fraction: state(), exponent: state(), sign: state(), exponentDigits: state() },
  literals: ['rue', 'alse', 'ull'].map((rest) => Array.from(rest, state)),
});
const IN_OBJECT = context();
const IN_ARRAY = context();

/** A string's states: in it, after a backslash, after `\u` and 0-3 hex digits, and inside a UTF-8 sequence (the narrower ranges after E0, ED, F0, F4). */
const stringStates = () => ({
  string: state(), escape: state(), hex: [state(), state(), state(), state()],
  utf1: state(), utf2: state(), utf2E0: state(), utf2ED: state(), utf3: state(), utf3F0: state(), utf3F4: state(),
});
const KEY_STRING = stringStates();
const VALUE_STRING = stringStates();

// Int8Array: at most 127 states (there are 72).
const TABLE = new Int8Array(states * 256).fill(ERROR);

const codes = (chars: string) => Array.from(chars, (c) => c.charCodeAt(0));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const on = (from: number, bytes: number[], next: number) => {
  for (const byte of bytes) TABLE[from * 256 + byte] = next;
};

const SPACE = codes(' \t\n\r');
const DIGITS = range(0x30, 0x39);
const NONZERO = range(0x31, 0x39);
const HEX = [...DIGITS, ...range(0x41, 0x46), ...range(0x61, 0x66)];
const CONTINUATION = range(0x80, 0xbf);

for (const s of [GO, DONE, OBJECT, KEY, COLON, ARRAY, IN_OBJECT.ok, IN_OBJECT.value, IN_ARRAY.ok, IN_ARRAY.value]) on(s, SPACE, s);
on(GO, codes('{'), OPEN_OBJECT);
on(OBJECT, codes('"'), KEY_STRING.string);
on(OBJECT, codes('}'), CLOSE_OBJECT);
on(KEY, codes('"'), KEY_STRING.string);
on(COLON, codes(':'), IN_OBJECT.value);
on(ARRAY, codes(']'), CLOSE_ARRAY);

/** A string's bytes; at its closing quote, `end`. */
function stringMachine(s: ReturnType<typeof stringStates>, end: number): void {
  on(s.string, range(0x20, 0x7f), s.string);
  on(s.string, codes('"'), end);
  on(s.string, codes('\\'), s.escape);
  on(s.string, range(0xc2, 0xdf), s.utf1);
  on(s.string, [0xe0], s.utf2E0);
  on(s.string, [...range(0xe1, 0xec), 0xee, 0xef], s.utf2);
  on(s.string, [0xed], s.utf2ED);
  on(s.string, [0xf0], s.utf3F0);
  on(s.string, range(0xf1, 0xf3), s.utf3);
  on(s.string, [0xf4], s.utf3F4);
  on(s.utf1, CONTINUATION, s.string);
  on(s.utf2, CONTINUATION, s.utf1);
  on(s.utf2E0, range(0xa0, 0xbf), s.utf1);
  on(s.utf2ED, range(0x80, 0x9f), s.utf1);
  on(s.utf3, CONTINUATION, s.utf2);
  on(s.utf3F0, range(0x90, 0xbf), s.utf2);
  on(s.utf3F4, range(0x80, 0x8f), s.utf2);
  on(s.escape, codes('"\\/bfnrt'), s.string);
  on(s.escape, codes('u'), s.hex[0]);
  s.hex.forEach((h, i) => on(h, HEX, i < 3 ? s.hex[i + 1] : s.string));
}
stringMachine(KEY_STRING, COLON);
stringMachine(VALUE_STRING, VALUE_STRING_END);

/** The values of one context: `,` goes on to the next key (object) or value (array), `}` and `]` close. */
function valueMachine(c: Context, next: number, starts: number[]): void {
  const { numbers: n } = c;
  const ended = (s: number) => {
    on(s, SPACE, c.ok);
    on(s, codes(','), next);
    on(s, codes('}'), CLOSE_OBJECT);
    on(s, codes(']'), CLOSE_ARRAY);
  };
  ended(c.ok);
  on(c.ok, SPACE, c.ok);
  for (const s of starts) {
    on(s, codes('{'), OPEN_OBJECT);
    on(s, codes('['), OPEN_ARRAY);
    on(s, codes('"'), VALUE_STRING.string);
    on(s, codes('-'), n.minus);
    on(s, codes('0'), n.zero);
    on(s, NONZERO, n.integer);
    ['t', 'f', 'n'].forEach((first, i) => on(s, codes(first), c.literals[i][0]));
  }
  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  on(n.minus, codes('0'), n.zero);
  on(n.minus, NONZERO, n.integer);
  on(n.integer, DIGITS, n.integer);
  for (const s of [n.zero, n.integer]) on(s, codes('.'), n.point);
  on(n.point, DIGITS, n.fraction);
  on(n.fraction, DIGITS, n.fraction);
  for (const s of [n.zero, n.integer, n.fraction]) on(s, codes('eE'), n.exponent);
  on(n.exponent, codes('+-'), n.sign);
  for (const s of [n.exponent, n.sign, n.exponentDigits]) on(s, DIGITS, n.exponentDigits);
  for (const s of [n.zero, n.integer, n.fraction, n.exponentDigits]) ended(s);
  ['rue', 'alse', 'ull'].forEach((rest, i) => c.literals[i].forEach((s, k) => on(s, codes(rest[k]), k + 1 < rest.length ? c.literals[i][k + 1] : c.ok)));
}
valueMachine(IN_OBJECT, KEY, [IN_OBJECT.value]);
valueMachine(IN_ARRAY, IN_ARRAY.value, [IN_ARRAY.value, ARRAY]);

/** The stack's entries: an open object, an open array. */
const OPEN_IN_OBJECT = 1;
const OPEN_IN_ARRAY = 2;

/** A check that `bytes` (or its part [start, end)) is the UTF-8 of one JSON object, whitespace around it allowed. */
export type ObjectCheck = (bytes: Uint8Array, start?: number, end?: number) => boolean;

// ignoreBOM keeps a leading byte order mark as a character, which JSON.parse refuses: an object sliced
// out of a pack that began with one would put it inside an answer, where it is no JSON.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The same check by the engine's own strict decoding and JSON.parse, which the machine must agree
 * with: it costs more per byte than the machine once the engine has optimized the machine, but has
 * nothing to warm up, so it is the cheaper check of a few objects in a fresh instance (objects.ts).
 */
export const parsesAsObject: ObjectCheck = (bytes, start = 0, end = bytes.length) => {
  try {
    const value: unknown = JSON.parse(strictUtf8.decode(bytes.subarray(start, end)));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};

/** Whether `bytes` (or its part [start, end)) is the UTF-8 of one JSON object, whitespace around it allowed. */
export const isJsonObjectBytes: ObjectCheck = (bytes, start = 0, end = bytes.length) => {
  const open: number[] = [];
  let state = GO;
  for (let i = start; i < end; i++) {
    const next = TABLE[(state << 8) | bytes[i]];
    if (next >= 0) {
      state = next;
      continue;
    }
    if (next === OPEN_OBJECT) {
      open.push(OPEN_IN_OBJECT);
      state = OBJECT;
      continue;
    }
    if (next === OPEN_ARRAY) {
      open.push(OPEN_IN_ARRAY);
      state = ARRAY;
      continue;
    }
    if (next === CLOSE_OBJECT || next === CLOSE_ARRAY) {
      if (open.pop() !== (next === CLOSE_OBJECT ? OPEN_IN_OBJECT : OPEN_IN_ARRAY)) return false;
    } else if (next !== VALUE_STRING_END) return false;
    // After a value: where it stands (after the document, a value in the context now innermost).
    const inner = open[open.length - 1];
    state = inner === undefined ? DONE : inner === OPEN_IN_OBJECT ? IN_OBJECT.ok : IN_ARRAY.ok;
  }
  return state === DONE;
};
