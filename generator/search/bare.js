// @ts-check
// Bare words: what a word typed without a field means. The parser (query.js) keeps bare words
// as they were typed; `resolveBare` gives them their meaning against one index, whose names
// (characters, groups, sub-units) come from the data:
//
//   - a run of bare words is read left to right, the longest known phrase first: a rarity
//     (n r sr ssr ur), an attribute (smile pure cool), a year (2013-2023: the release year), a
//     group or sub-unit name ("guilty kiss", "μ's"), a character's name or a word of it (given or
//     family, romanized or original) each mean that field;
//   - filler words (FILLERS: "all", "from", ...) are skipped: alone they match everything;
//     quoted, they are text ("the");
//   - any other word matches whole words of names and titles (`maki` does not match "Your");
//     a word in a script written without spaces (kanji, kana, hangul) matches a part of one;
//   - a quoted phrase is always text: its words, whole and in order, in a name or title;
//   - `field:value` on a text field takes the bare words after it while the longer value is
//     still a part of some value of that field (`unit:guilty kiss`).
import { normalize } from './kinds.js';
import { FILLERS } from './words.js';

export { FILLERS };

/** @typedef {import('./kinds.js').Kind} Kind @typedef {import('./kinds.js').SearchIndex} SearchIndex */
/** @typedef {(columns: Record<string, unknown[]>, row: number) => boolean} Test */

/** A text as its words: runs of letters and digits (so "μ's" is "μ s", "cyaron!" is "cyaron"). */
export const wordsOf = (/** @type {string} */ text) => normalize(text).match(/[\p{L}\p{N}]+/gu) ?? [];

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A query word matches a word of a text: whole, or a part of it in a script written without spaces. */
const wordMatches = (/** @type {string} */ query, /** @type {string} */ word) => query === word || (UNSPACED.test(query) && word.includes(query));

/** True when `phrase` (query words) appears in `words` whole and in order. */
function hasPhrase(/** @type {string[]} */ words, /** @type {string[]} */ phrase) {
  for (let i = 0; i + phrase.length <= words.length; i++) {
    if (phrase.every((q, j) => wordMatches(q, words[i + j]))) return true;
  }
  return false;
}

/** The words of each text of a list column, made once per index. @type {WeakMap<unknown[], string[][][]>} */
const columnWords = new WeakMap();
/** @param {unknown[]} values a decoded list column: one list of texts per row */
function wordsPerRow(values) {
  let rows = columnWords.get(values);
  if (!rows) {
    /** @type {Map<unknown, string[][]>} */
    const lists = new Map();
    rows = values.map((texts) => {
      let list = lists.get(texts);
      if (!list) lists.set(texts, (list = /** @type {string[]} */ (texts).map(wordsOf)));
      return list;
    });
    columnWords.set(values, rows);
  }
  return rows;
}

/** A test: some text of one of `columns` holds `phrase` as whole words. @param {string[]} columns @param {string[]} phrase @returns {Test} */
export const phraseTest = (columns, phrase) => (cols, row) => columns.some((c) => wordsPerRow(cols[c])[row].some((words) => hasPhrase(words, phrase)));

/**
 * @typedef {object} Lexicon what bare words can mean in one index
 * @property {Map<string, Test>} phrases known phrases (words joined by one space) and their tests
 * @property {number} longest the most words of a known phrase
 * @property {string[]} known every word a bare word may be corrected to (for suggestions)
 */

/** @type {WeakMap<SearchIndex, Lexicon>} */
const lexicons = new WeakMap();

/**
 * The lexicon of an index: the kind's field words (rarity, attribute, year), then the names in
 * its name columns (group, sub-unit, character), the first meaning of a phrase winning.
 * @param {Kind} kind @param {SearchIndex} index
 */
export function lexiconOf(kind, index) {
  let lexicon = lexicons.get(index);
  if (lexicon) return lexicon;
  /** @type {Map<string, Test>} */
  const phrases = new Map();
  const add = (/** @type {string} */ phrase, /** @type {() => Test} */ test) => { if (phrase && !phrases.has(phrase)) phrases.set(phrase, test()); };
  for (const { field, words } of kind.bare?.values ?? []) {
    const f = kind.fields.find((x) => x.name === field);
    if (!f) throw new Error(`no ${kind.name} field ${field}`);
    for (const word of words) add(word, () => f.compile(':', word, (m) => new Error(m)));
  }
  /** Every word of the texts of the words columns, for corrections. */
  const known = new Set(phrases.keys());
  for (const column of kind.bare?.names ?? []) {
    for (const texts of index.dictionaries[column] ?? []) {
      for (const text of /** @type {string[]} */ (texts)) {
        const words = wordsOf(text);
        add(words.join(' '), () => phraseTest([column], words));
        // A character is also found by each word of its name (given or family name).
        if (column === kind.bare?.person) for (const word of words) add(word, () => phraseTest([column], [word]));
        for (const word of words) known.add(word);
      }
    }
  }
  for (const column of kind.words) for (const texts of index.dictionaries[column] ?? []) for (const text of /** @type {string[]} */ (texts)) for (const w of wordsOf(text)) known.add(w);
  const longest = Math.max(1, ...[...phrases.keys()].map((p) => p.split(' ').length));
  lexicon = { phrases, longest, known: [...known].sort() };
  lexicons.set(index, lexicon);
  return lexicon;
}

/**
 * The tests a run of bare words stands for (ANDed; none matches everything): known phrases,
 * longest first; fillers skipped; the remaining words of one bare word as one text phrase.
 * @param {{ text: string }[]} run @param {Lexicon} lexicon @param {string[]} textColumns
 * @returns {Test[]}
 */
export function runTests(run, lexicon, textColumns) {
  const tokens = run.flatMap((word, at) => wordsOf(word.text).map((w) => ({ w, at })));
  /** @type {Test[]} */
  const tests = [];
  /** @type {{ w: string, at: number }[]} */
  let text = [];
  const flush = () => {
    if (text.length) tests.push(phraseTest(textColumns, text.map((t) => t.w)));
    text = [];
  };
  for (let i = 0; i < tokens.length;) {
    const found = knownAt(tokens.map((t) => t.w), i, lexicon);
    if (found) {
      flush();
      tests.push(found.test);
      i += found.length;
    } else if (FILLERS.includes(tokens[i].w)) {
      flush();
      i++;
    } else {
      if (text.length && text[0].at !== tokens[i].at) flush();
      text.push(tokens[i++]);
    }
  }
  flush();
  return tests;
}

/** The longest known phrase starting at word `i`. @param {string[]} words @param {number} i @param {Lexicon} lexicon */
function knownAt(words, i, lexicon) {
  for (let length = Math.min(lexicon.longest, words.length - i); length > 0; length--) {
    const test = lexicon.phrases.get(words.slice(i, i + length).join(' '));
    if (test) return { test, length };
  }
  return null;
}

/** Edits (insert, delete, replace) between two words, counted up to `limit` + 1. */
function distance(/** @type {string} */ a, /** @type {string} */ b, /** @type {number} */ limit) {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

/**
 * The known word closest to a word nothing knows: one it starts (`hono` -> `honoka`), else one
 * within an edit or two (`kotory` -> `kotori`); null when none is close.
 * @param {string} word @param {Lexicon} lexicon
 */
export function correction(word, lexicon) {
  const w = normalize(word);
  if (w.length >= 3) {
    const longer = lexicon.known.find((k) => k.length > w.length && k.startsWith(w));
    if (longer) return longer;
  }
  const limit = w.length <= 4 ? 1 : 2;
  let best = null;
  let bestDistance = limit + 1;
  for (const k of lexicon.known) {
    const d = distance(w, k, limit);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}
