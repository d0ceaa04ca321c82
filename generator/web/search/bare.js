// @ts-check
// Bare words: what a word typed without a field means. The parser (query.js) keeps bare words
// as they were typed; `resolveBare` gives them their meaning against one index, whose names
// (characters, groups, sub-units) come from the data:
//
//   - a run of bare words is read left to right, the longest known phrase first: the kind's field
//     words (cards: a rarity, n r sr ssr ur; an attribute, smile pure cool; a year, 2013-2023, the
//     release year; a skill word, "healer", "perfect lock", "score up"; a school year, "first
//     year", "year 3"; songs: a difficulty, "master"), a group or sub-unit name ("guilty kiss",
//     "μ's"), a character's name or a word of it (given or family, romanized or original) each mean
//     that field, so "perfect lock" is one term before "perfect" and "lock" are words;
//   - filler words (FILLERS: "all", "from", ...) are skipped: alone they match everything;
//     quoted, they are text ("the");
//   - any other word matches whole words of names and titles (`maki` does not match "Your");
//     a word in a script written without spaces (kanji, kana, hangul) matches a part of one;
//   - a quoted phrase is always text: its words, whole and in order, in a name or title;
//   - `field:value` on a text field takes the bare words after it while the longer value is
//     still a part of some value of that field (`unit:guilty kiss`).
import { normalize, textsOf } from './kinds.js';
import { CHARACTER_NAMES, FILLERS } from './words.js';

export { FILLERS };

/** @typedef {import('./kinds.js').Kind} Kind @typedef {import('./kinds.js').SearchIndex} SearchIndex */
/**
 * A term's test of one row; `rows`, where a test has it, gives every row it matches at once (a
 * list, which may name a row twice), which costs what it matches rather than a call per row, and
 * a negated or ANDed term that matches few rows no pass over all of them (query.js matching).
 * @typedef {((columns: Record<string, unknown[]>, row: number) => boolean) & { rows?: () => number[] }} Test
 */

/** A text as its words: runs of letters and digits (so "μ's" is "μ s", "cyaron!" is "cyaron"). */
export const wordsOf = (/** @type {string} */ text) => normalize(text).match(WORD) ?? [];
const WORD = /[\p{L}\p{N}]+/gu;

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const escape = (/** @type {string} */ text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A regular expression finding one of `phrases` (each query words) in a normalized text, whole
 * and in order: a word is a whole word of the text, or a part of one in a script written without spaces.
 * @param {string[][]} phrases
 */
function phraseRegex(phrases) {
  const pattern = (/** @type {string[]} */ phrase) => phrase.map((w) => (UNSPACED.test(w) ? `[\\p{L}\\p{N}]*${escape(w)}[\\p{L}\\p{N}]*` : escape(w))).join('[^\\p{L}\\p{N}]+');
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${phrases.map(pattern).join('|')})(?![\\p{L}\\p{N}])`, 'u');
}

/**
 * A dictionary's texts (its entries: lists of normalized texts) as one text, entries joined by a
 * newline and an entry's texts by a tab (neither is a letter or digit), with where each entry
 * starts, made once per dictionary.
 * @type {WeakMap<unknown[], { text: string, starts: number[] }>}
 */
const JOINED = new WeakMap();
function joinedTexts(/** @type {unknown[]} */ dictionary) {
  let joined = JOINED.get(dictionary);
  if (!joined) {
    /** @type {number[]} */
    const starts = [];
    let length = 0;
    const text = dictionary.map((texts) => {
      const entry = `${/** @type {string[]} */ (texts).join('\t')}\n`;
      starts.push(length);
      length += entry.length;
      return entry;
    }).join('');
    JOINED.set(dictionary, (joined = { text, starts }));
  }
  return joined;
}

/**
 * Each word of a dictionary's texts with the entries holding it, built once per dictionary, when
 * every word is wanted (a suggestion's corrections list them): one pass of the word expression
 * over the texts joined, not a call per text.
 * @type {WeakMap<unknown[], Map<string, number[]>>}
 */
const WORD_ENTRIES = new WeakMap();
function wordEntries(/** @type {unknown[]} */ dictionary) {
  const kept = WORD_ENTRIES.get(dictionary);
  if (kept) return kept;
  const { text, starts } = joinedTexts(dictionary);
  /** @type {Map<string, number[]>} */
  const map = new Map();
  const words = new RegExp(WORD.source, 'gu');
  let entry = 0;
  for (let found = words.exec(text); found !== null; found = words.exec(text)) {
    while (entry + 1 < starts.length && starts[entry + 1] <= found.index) entry++;
    const word = found[0];
    let holders = map.get(word);
    if (!holders) map.set(word, (holders = []));
    if (holders[holders.length - 1] !== entry) holders.push(entry);
  }
  WORD_ENTRIES.set(dictionary, map);
  return map;
}

const LETTER_OR_DIGIT_BEFORE = /[\p{L}\p{N}]$/u;
const LETTER_OR_DIGIT_AFTER = /^[\p{L}\p{N}]/u;
/** Whether an ASCII code is a letter or digit; null for any other code unit (a word's letters may be of any script). */
const asciiWordCode = (/** @type {number} */ code) => (code < 0x80 ? (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) : null);
/**
 * Whether the text's `length` characters at `at` are a whole word of it: no letter or digit just
 * before or after. An ASCII neighbour (most of them) is told by its code; another by the Unicode
 * classes on two code units (a pair of surrogates).
 */
function isWholeWord(/** @type {string} */ text, /** @type {number} */ at, /** @type {number} */ length) {
  const end = at + length;
  const before = at > 0 ? asciiWordCode(text.charCodeAt(at - 1)) ?? LETTER_OR_DIGIT_BEFORE.test(text.slice(Math.max(0, at - 2), at)) : false;
  return !before && !(end < text.length && (asciiWordCode(text.charCodeAt(end)) ?? LETTER_OR_DIGIT_AFTER.test(text.slice(end, end + 2))));
}

/**
 * The entries found holding a word, by dictionary and word, with how many entries that is in all:
 * a query's word is looked up again by every query a suggestion tries, and by the test of whether
 * the word is known. At most MAX_HOLDERS_KEPT entries (a word counting one more) per dictionary,
 * then forgotten all at once. Never changed by those who get them.
 * @type {WeakMap<unknown[], { words: Map<string, number[]>, size: number }>}
 */
const HOLDERS = new WeakMap();
const MAX_HOLDERS_KEPT = 65_536;

/**
 * The entries of a dictionary holding `word` (letters and digits) as a whole word, in order: from
 * the word entries once they are built, else found by the engine's own substring search in the
 * texts joined. A query asks for a few words (64 at most), where building every word's entries
 * first would cost a pass of the word expression over every title, most of an instance's first search.
 * @param {unknown[]} dictionary @param {string} word @returns {number[]}
 */
function holdersOf(dictionary, word) {
  const built = WORD_ENTRIES.get(dictionary);
  if (built || !word) return built?.get(word) ?? [];
  let found = HOLDERS.get(dictionary);
  if (!found) HOLDERS.set(dictionary, (found = { words: new Map(), size: 0 }));
  const kept = found.words.get(word);
  if (kept) return kept;
  const { text, starts } = joinedTexts(dictionary);
  /** @type {number[]} */
  const holders = [];
  let entry = 0;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!isWholeWord(text, at, word.length)) continue;
    while (entry + 1 < starts.length && starts[entry + 1] <= at) entry++;
    if (holders[holders.length - 1] !== entry) holders.push(entry);
  }
  if (found.size + holders.length + 1 > MAX_HOLDERS_KEPT) {
    found.words.clear();
    found.size = 0;
  }
  found.words.set(word, holders);
  found.size += holders.length + 1;
  return holders;
}

/**
 * The entries of `dictionary` holding one of `phrases` whole: looked up by their words (the
 * entries holding every word of a phrase, then the phrase's own test on those alone); a word in
 * a script written without spaces, which may be part of a longer word, is matched on every entry.
 * @param {unknown[]} dictionary @param {string[][]} phrases @param {(texts: unknown) => boolean} has
 */
function entriesHolding(dictionary, phrases, has) {
  if (phrases.some((phrase) => phrase.some((w) => UNSPACED.test(w)))) return new Set(dictionary.flatMap((texts, entry) => (has(texts) ? [entry] : [])));
  const found = new Set();
  for (const phrase of phrases) {
    const [shortest, ...others] = phrase.map((w) => holdersOf(dictionary, w)).sort((a, b) => a.length - b.length);
    // The entries holding every word: the fewest checked against the others' sets (a common word's list holds thousands).
    const holding = others.map((list) => new Set(list));
    const candidates = shortest.filter((entry) => holding.every((set) => set.has(entry)));
    for (const entry of candidates) if (phrase.length === 1 || has(dictionary[entry])) found.add(entry);
  }
  return found;
}

/**
 * A test: some text of one of `columns` (list columns of `index`) holds `phrase` as whole words
 * (or one of several phrases, given as a list of them). Each column's entries holding it are
 * found when the test is first asked about a row (entriesHolding), not before: a term that an
 * AND never reaches (the terms before it matched nothing) costs nothing.
 * @param {SearchIndex} index @param {string[]} columns @param {string[] | string[][]} phrase @returns {Test}
 */
export function phraseTest(index, columns, phrase) {
  const phrases = Array.isArray(phrase[0]) ? /** @type {string[][]} */ (phrase) : [/** @type {string[]} */ (phrase)];
  /** @type {RegExp | undefined} */
  let re;
  const has = (/** @type {unknown} */ texts) => /** @type {string[]} */ (texts).some((t) => (re ??= phraseRegex(phrases)).test(t));
  /** @type {(Set<number> | null | undefined)[]} */
  const found = columns.map(() => undefined);
  const entries = (/** @type {number} */ i) => {
    if (found[i] === undefined) {
      const dictionary = /** @type {unknown[] | undefined} */ (index.dictionaries[columns[i]]);
      found[i] = dictionary ? entriesHolding(dictionary, phrases, has) : null;
    }
    return found[i];
  };
  /** @type {Test} */
  const test = (cols, row) => columns.some((c, i) => {
    const byEntry = entries(i);
    return byEntry ? byEntry.has(/** @type {number} */ (index.columns[c][row])) : has(cols[c][row]);
  });
  // Where every column has a dictionary, the rows it matches come from the entries' rows at once.
  if (columns.every((c) => index.dictionaries[c])) {
    test.rows = () => {
      /** @type {number[]} */
      const rows = [];
      columns.forEach((c, i) => {
        const held = /** @type {Set<number>} */ (entries(i));
        // A column's rows by entry only once an entry holds the phrase: a word that matches nothing costs nothing more.
        if (!held.size) return;
        const { starts, byEntry } = entryRows(/** @type {number[]} */ (index.columns[c]), index.dictionaries[c].length);
        for (const entry of held) for (let at = starts[entry], end = starts[entry + 1]; at < end; at++) rows.push(byEntry[at]);
      });
      return rows;
    };
  }
  return test;
}

/**
 * The rows of each entry of a dictionary column (the column holds each row's entry), built once
 * per column: every row by entry (`byEntry`, each entry's rows in order) and where each entry's
 * rows start there (`starts`, one more than the entries: an entry's rows end where the next one's
 * start). Three passes over two arrays of numbers, not a list per entry (a title column has thousands).
 * @type {WeakMap<number[], { starts: Uint32Array, byEntry: Uint32Array }>}
 */
const ENTRY_ROWS = new WeakMap();
function entryRows(/** @type {number[]} */ column, /** @type {number} */ entries) {
  let made = ENTRY_ROWS.get(column);
  if (!made) {
    // A row's entry is a whole number below `entries` (`>>> 0` keeps such a number as it is, and changes anything else).
    const starts = new Uint32Array(entries + 1);
    for (let row = 0; row < column.length; row++) {
      const entry = column[row];
      if (entry >>> 0 === entry && entry < entries) starts[entry + 1]++;
    }
    for (let entry = 0; entry < entries; entry++) starts[entry + 1] += starts[entry];
    const byEntry = new Uint32Array(starts[entries]);
    const next = starts.slice(0, entries);
    for (let row = 0; row < column.length; row++) {
      const entry = column[row];
      if (entry >>> 0 === entry && entry < entries) byEntry[next[entry]++] = row;
    }
    ENTRY_ROWS.set(column, (made = { starts, byEntry }));
  }
  return made;
}
/**
 * @typedef {object} Known the words a bare word may be corrected to (for suggestions)
 * @property {string[]} fields words of the known phrases (field words, group and character names; the words of 3 letters or more of a phrase of several)
 * @property {string[]} texts the other words of the texts bare words search (titles; a song's name)
 * @property {Set<string>} all every word of the known phrases and of those texts: a bare word that is one is never corrected
 */

/**
 * @typedef {object} Lexicon what bare words can mean in one index
 * @property {Map<string, () => Test>} phrases known phrases (words joined by one space), each with the maker of its test
 * @property {number} longest the most words of a known phrase
 * @property {() => string[]} fields `known().fields` alone, without the words of every text (made on first use)
 * @property {() => Known} known the words a bare word may be corrected to, made on first use
 * @property {(word: string) => boolean} knows whether a word is one of `known().all`, without making the lists
 *   (a word of the known phrases, or a word of a text bare words search: a key of that text column's word entries)
 */

/** @type {WeakMap<SearchIndex, Lexicon>} */
const lexicons = new WeakMap();

/** The table's romanized names by the Japanese name's words run together. */
const ROMANIZED = new Map(CHARACTER_NAMES.map(([japanese, ...romanized]) => [wordsOf(japanese).join(''), romanized]));

/**
 * The lexicon of an index: the kind's field words (cards: rarity, attribute, release year, skill,
 * school year; songs: difficulty), then the names in its name columns (group, sub-unit,
 * character), the first meaning of a phrase winning. Tests are made when a query uses them, so a
 * query pays only for the words it holds (a field word's test is its field term's).
 * @param {Kind} kind @param {SearchIndex} index
 */
export function lexiconOf(kind, index) {
  let lexicon = lexicons.get(index);
  if (lexicon) return lexicon;
  /** @type {Map<string, () => Test>} */
  const phrases = new Map();
  const add = (/** @type {string} */ phrase, /** @type {() => Test} */ test) => { if (phrase && !phrases.has(phrase)) phrases.set(phrase, once(test)); };
  for (const { field, words, plurals } of kind.bare?.values ?? []) {
    const f = kind.fields.find((x) => x.name === field);
    if (!f) throw new Error(`no ${kind.name} field ${field}`);
    for (const word of words) {
      const test = () => f.compile(':', word, (m) => new Error(m));
      const phrase = wordsOf(word).join(' '); // as a query's words read: "μ's" is "μ s"
      add(phrase, test);
      if (plurals && word.length > 1 && !word.endsWith('s')) add(`${phrase}s`, test);
    }
  }
  /** Romanized names and their words (the table's), with the Japanese names they stand for. @type {Map<string, string[][]>} */
  const romanized = new Map();
  for (const column of kind.bare?.names ?? []) {
    const person = column === kind.bare?.person;
    for (const text of textsOf(index, column)) {
      const words = wordsOf(text);
      add(words.join(' '), () => phraseTest(index, [column], words));
      if (!person) continue;
      // A character is also found by each word of its name (given or family name).
      for (const word of words) add(word, () => phraseTest(index, [column], [word]));
      for (const name of ROMANIZED.get(words.join('')) ?? []) {
        for (const key of [name, ...name.split(' ')]) romanized.set(key, [...(romanized.get(key) ?? []), words]);
      }
    }
    // Then the table's romanized names of the Japanese names the data holds, a shared family name standing for each.
    for (const [key, names] of romanized) add(key, () => phraseTest(index, [column], names));
    romanized.clear();
  }
  // Index texts are normalized already: their words need no second normalization. The words of
  // known phrases (field words and names) come first, so a correction prefers them to a title's.
  // A word of a phrase of several is a correction only when it says something alone ("perfct" ->
  // "perfect", not "sp" -> the "s" of "μ's"), but each is known: never corrected itself.
  const fields = once(() => [...new Set([...phrases.keys()].flatMap((p) => (p.includes(' ') ? p.split(' ').filter((w) => w.length >= 3) : [p])))]);
  const known = once(() => {
    const all = new Set([...phrases.keys()].flatMap((p) => p.split(' ')));
    const texts = new Set();
    // The texts' words in the order they first appear: their word entries' keys (made once per dictionary, which a search has most likely made).
    for (const column of kind.words) {
      const dictionary = index.dictionaries[column];
      if (dictionary) for (const w of wordEntries(dictionary).keys()) if (!all.has(w)) texts.add(w);
    }
    for (const w of texts) all.add(w);
    return { fields: fields(), texts: [...texts], all };
  });
  const phraseWords = once(() => new Set([...phrases.keys()].flatMap((p) => p.split(' '))));
  // known().all without its lists: a query of many unknown words (which gets no suggestion) never makes them.
  const knows = (/** @type {string} */ word) => phraseWords().has(word)
    || kind.words.some((column) => { const dictionary = index.dictionaries[column]; return !!dictionary && holdersOf(dictionary, word).length > 0; });
  const longest = Math.max(1, ...[...phrases.keys()].map((p) => p.split(' ').length));
  lexicon = { phrases, longest, fields, known, knows };
  lexicons.set(index, lexicon);
  return lexicon;
}

/** @template T @param {() => T} make @returns {() => T} */
function once(make) {
  /** @type {{ value: T } | null} */
  let made = null;
  return () => (made ??= { value: make() }).value;
}

/**
 * @typedef {object} Part one meaning in a run of bare words
 * @property {'known' | 'filler' | 'text'} type a known phrase (a field word or a name), a filler word, or words of names and titles
 * @property {string[]} words its words
 * @property {number} from the position in the run of the bare word it starts in
 * @property {number} to the position of the bare word it ends in
 * @property {() => Test} [test] a known phrase's test
 */

/**
 * A run of bare words read left to right: known phrases, longest first ("perfect lock" before
 * "perfect"); fillers; the other words of one bare word together as text.
 * @param {{ text: string }[]} run @param {Lexicon} lexicon @returns {Part[]}
 */
export function readRun(run, lexicon) {
  const tokens = run.flatMap((word, at) => wordsOf(word.text).map((w) => ({ w, at })));
  const words = tokens.map((t) => t.w);
  /** @type {Part[]} */
  const parts = [];
  for (let i = 0; i < tokens.length;) {
    const found = knownAt(words, i, lexicon);
    const at = tokens[i].at;
    const last = parts.at(-1);
    if (found) {
      parts.push({ type: 'known', words: words.slice(i, i + found.length), from: at, to: tokens[i + found.length - 1].at, test: found.test });
      i += found.length;
    } else if (FILLERS.includes(words[i])) parts.push({ type: 'filler', words: [words[i++]], from: at, to: at });
    else if (last?.type === 'text' && last.from === at) last.words.push(words[i++]);
    else parts.push({ type: 'text', words: [words[i++]], from: at, to: at });
  }
  return parts;
}

/**
 * The tests a run of bare words stands for (ANDed; none matches everything): known phrases,
 * longest first; fillers skipped; the remaining words of one bare word as one text phrase.
 * @param {{ text: string }[]} run @param {Lexicon} lexicon @param {SearchIndex} index @param {string[]} textColumns
 * @returns {Test[]}
 */
export function runTests(run, lexicon, index, textColumns) {
  return readRun(run, lexicon).flatMap((part) => {
    if (part.type === 'filler') return [];
    return [part.test ? part.test() : phraseTest(index, textColumns, part.words)];
  });
}

/** The longest known phrase starting at word `i`. @param {string[]} words @param {number} i @param {Lexicon} lexicon */
function knownAt(words, i, lexicon) {
  for (let length = Math.min(lexicon.longest, words.length - i); length > 0; length--) {
    const test = lexicon.phrases.get(words.slice(i, i + length).join(' '));
    if (test) return { test, length };
  }
  return null;
}

/** Edits (insert, delete, replace) between two words, counted up to `limit` + 1 (it stops once a row passes the limit). */
function distance(/** @type {string} */ a, /** @type {string} */ b, /** @type {number} */ limit) {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // Two rows of the table, reused: no array per row (a correction compares a word with every known word).
  let previous = new Uint16Array(b.length + 1);
  let current = new Uint16Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      current[j] = cost;
      if (cost < rowMin) rowMin = cost;
    }
    if (rowMin > limit) return limit + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}

/**
 * The known word closest to a word nothing knows: one it starts (`hono` -> `honoka`), else one
 * within an edit or two (`kotory` -> `kotori`); null when none is close. The words of field
 * words and names are looked at before the other words of titles, so a word close to a skill
 * word (`healr`) is corrected to it, not to a title's word as close or closer (`helper`).
 * @param {string} word @param {Lexicon} lexicon
 */
export function correction(word, lexicon) {
  const w = normalize(word);
  const limit = w.length <= 4 ? 1 : 2;
  // The texts' words only when no field word is close: listing them is a pass over every title.
  for (const listed of [lexicon.fields, () => lexicon.known().texts]) {
    const words = listed();
    const longer = w.length >= 3 ? words.find((k) => k.length > w.length && k.startsWith(w)) : undefined;
    if (longer) return longer;
    let best = null;
    let bestDistance = limit + 1;
    for (const k of words) {
      const d = distance(w, k, limit);
      if (d < bestDistance) [best, bestDistance] = [k, d];
    }
    if (best !== null) return best;
  }
  return null;
}
