// @ts-check
// The search language, parsed and evaluated by this one module, which both the edge handler and
// the browse page run (plain JavaScript, no package, no Node or DOM API):
//
//   query   = or?                        an empty query matches everything
//   or      = and ("or" and)*            AND binds tighter than or
//   and     = unary+                     juxtaposed terms are ANDed
//   unary   = "-" unary | "(" or ")" | term
//   term    = field op value | word | "quoted words"
//   op      = ":" | "=" | ">" | ">=" | "<" | "<="
//
// Field names and values are case-insensitive and NFKC-normalized (full-width and half-width
// forms are the same). Bare words are kept as typed and given their meaning against the index
// searched (bare.js: a rarity, a name, a year, else whole words of names and titles); "#12" is
// the ordinal (cards) or id. Errors name the column (1-based, in characters) and what was expected.
import { KINDS, indexColumns, normalize, textsOf } from './kinds.js';
import { correction, lexiconOf, phraseTest, readRun, runTests, wordsOf } from './bare.js';

export { normalize };

/** @typedef {import('./kinds.js').Kind} Kind @typedef {import('./kinds.js').Field} Field @typedef {import('./kinds.js').SearchIndex} SearchIndex */
/** @typedef {import('./bare.js').Test} Test */
/**
 * A term on a text field keeps what it was written with, so the bare words after it may extend
 * its value (`unit:guilty kiss`); a node of the parsed query knows where it was written
 * (`start`, `end`: positions in code points), so a suggestion can rewrite the query around it.
 * @typedef {{ field: Field, op: string, value: string }} Written
 * @typedef {{ type: 'all' } | { type: 'term', test: Test, written?: Written } | { type: 'bare', text: string, quoted: boolean }
 *   | { type: 'not', item: Node } | { type: 'and' | 'or', items: Node[] }} Parsed
 * @typedef {Parsed & { start?: number, end?: number }} Node
 */

/** @param {Test} test @param {Written} [written] @returns {Node} */
const term = (test, written) => ({ type: 'term', test, written });

/** A malformed query or search parameter; `column` is 1-based, null for a parameter. */
export class QueryError extends Error {
  /** @param {string} message @param {number | null} column */
  constructor(message, column) {
    super(column === null ? message : `query column ${column}: ${message}`);
    this.name = 'QueryError';
    this.column = column;
  }
}

/** The characters with a meaning in the grammar, after NFKC (so full-width forms count). */
const QUOTES = new Set(['"', '\u201c', '\u201d']);
/** @param {string} char */
function role(char) {
  const c = char.normalize('NFKC');
  if (/^\s+$/u.test(c)) return ' ';
  if (QUOTES.has(c)) return '"';
  return ['(', ')', ':', '=', '<', '>', '-'].includes(c) ? c : '';
}
const OPERATOR_START = new Set([':', '=', '<', '>']);
/** Deeper nesting of groups and negations is refused, so no query can exhaust the stack. */
export const MAX_DEPTH = 64;
/** More terms are refused, so no query costs more than this many tests per object. */
// 64: a query is evaluated a term at a time over every object, so terms are its cost (200 negated words took
// 24-46 ms of CPU warm on the 4,000-card site, over the 10 ms a Cloudflare Free request may take); no query fans type comes near.
export const MAX_TERMS = 64;

class Parser {
  /** @param {string} query @param {Kind} kind */
  constructor(query, kind) {
    /** Code points, so columns count characters as people see them. */
    this.chars = Array.from(query);
    this.roles = this.chars.map(role);
    this.kind = kind;
    this.pos = 0;
    this.depth = 0;
    this.terms = 0;
  }

  get column() {
    return this.pos + 1;
  }

  /** @param {string} message @param {number} [column] */
  fail(message, column = this.column) {
    return new QueryError(message, column);
  }

  atEnd() {
    return this.pos >= this.chars.length;
  }

  skipSpaces() {
    while (!this.atEnd() && this.roles[this.pos] === ' ') this.pos++;
  }

  /** What a person sees at the current position, for messages. */
  found() {
    return this.atEnd() ? 'the end of the query' : `"${this.chars.slice(this.pos, this.pos + 12).join('')}"`;
  }

  /** @returns {Node} */
  parseQuery() {
    this.skipSpaces();
    if (this.atEnd()) return { type: 'all' };
    const node = this.parseOr();
    this.skipSpaces();
    if (!this.atEnd()) throw this.fail(this.roles[this.pos] === ')' ? 'expected a term or the end of the query, found ")" without a "(" before it' : `expected the end of the query, found ${this.found()}`);
    return node;
  }

  /** True when the word `or` (any case or width) stands alone at the current position. */
  atOr() {
    const word = this.chars.slice(this.pos, this.pos + 2).join('');
    const next = this.roles[this.pos + 2];
    return normalize(word) === 'or' && (next === undefined || next === ' ' || next === '(' || next === '"' || next === '-');
  }

  /** @returns {Node} */
  parseOr() {
    const items = [this.parseAnd()];
    for (;;) {
      this.skipSpaces();
      if (!this.atOr()) break;
      this.pos += 2;
      items.push(this.parseAnd());
    }
    return items.length === 1 ? items[0] : { type: 'or', items };
  }

  /** @returns {Node} */
  parseAnd() {
    /** @type {Node[]} */
    const items = [];
    for (;;) {
      this.skipSpaces();
      if (this.atEnd() || this.roles[this.pos] === ')' || this.atOr()) break;
      items.push(this.parseUnary());
    }
    if (!items.length) {
      const what = this.atEnd() ? 'the end of the query' : this.atOr() ? '"or"' : '")"';
      throw this.fail(`expected a term (a word, "quoted words", field:value or a parenthesised group), found ${what}`);
    }
    return items.length === 1 ? items[0] : { type: 'and', items };
  }

  /** @returns {Node} */
  parseUnary() {
    // Groups and negations count toward the limit, not the term they end in: 64 of them are taken.
    const nests = this.roles[this.pos] === '-' || this.roles[this.pos] === '(';
    if (nests && ++this.depth > MAX_DEPTH) throw this.fail(`expected at most ${MAX_DEPTH} nested groups and negations`);
    const start = this.pos;
    try {
      return { ...this.unary(), start, end: this.pos };
    } finally {
      if (nests) this.depth--;
    }
  }

  /** @returns {Node} */
  unary() {
    const role = this.roles[this.pos];
    if (role === '-') {
      this.pos++;
      if (this.atEnd() || this.roles[this.pos] === ' ') throw this.fail('expected a term right after "-"');
      return { type: 'not', item: this.parseUnary() };
    }
    if (role === '(') {
      const open = this.column;
      this.pos++;
      this.skipSpaces();
      if (this.roles[this.pos] === ')') throw this.fail('expected a term inside "( )"');
      const node = this.parseOr();
      this.skipSpaces();
      if (this.roles[this.pos] !== ')') throw this.fail(`expected ")" to close the "(" at column ${open}, found ${this.found()}`);
      this.pos++;
      return node;
    }
    if (++this.terms > MAX_TERMS) throw this.fail(`expected at most ${MAX_TERMS} terms`);
    if (role === '"') return this.bare(this.quoted(), this.column, true);
    return this.term();
  }

  /** A double-quoted value, without its quotes. */
  quoted() {
    const open = this.column;
    this.pos++;
    const start = this.pos;
    while (!this.atEnd() && this.roles[this.pos] !== '"') this.pos++;
    if (this.atEnd()) throw this.fail(`expected a closing quote for the quote at column ${open}`, open);
    const text = this.chars.slice(start, this.pos).join('');
    this.pos++;
    return text;
  }

  /** Characters up to a space, parenthesis or quote (and, for a field name, an operator). */
  /** @param {boolean} name */
  word(name) {
    const start = this.pos;
    while (!this.atEnd()) {
      const r = this.roles[this.pos];
      if (r === ' ' || r === '(' || r === ')' || r === '"' || (name && OPERATOR_START.has(r))) break;
      this.pos++;
    }
    return this.chars.slice(start, this.pos).join('');
  }

  /** @returns {Node} */
  term() {
    const column = this.column;
    const word = this.word(true);
    if (!OPERATOR_START.has(this.roles[this.pos])) return this.bare(word, column);
    if (!word) throw this.fail(`expected a field name before "${this.chars[this.pos]}"`);
    const field = fieldOf(this.kind, word, column);
    const opColumn = this.column;
    let op = this.roles[this.pos++];
    if ((op === '<' || op === '>') && this.roles[this.pos] === '=') {
      op += '=';
      this.pos++;
    }
    const written = this.chars.slice(column - 1, this.pos).join('');
    const valueColumn = this.column;
    const value = this.roles[this.pos] === '"' ? this.quoted() : this.word(false);
    if (!value.trim()) throw this.fail(`expected a value after "${written}"`, valueColumn);
    if (!field.ops.includes(op)) throw this.fail(`${field.name} takes ${field.ops.map((o) => `"${o}"`).join(' or ')}, not "${op}"`, opColumn);
    const problem = (/** @type {string} */ message) => this.fail(message, valueColumn);
    const normalized = normalize(value).trim();
    return term(field.compile(op, normalized, problem), { field, op, value: normalized });
  }

  /**
   * A bare word or quoted phrase, kept for `resolve`; "#<n>" the ordinal or id.
   * @param {string} text @param {number} column @param {boolean} [quoted] @returns {Node}
   */
  bare(text, column, quoted = false) {
    const value = normalize(text).trim();
    if (!value) throw this.fail('expected words inside the quotes', column);
    const number = /^#(\d+)$/.exec(value);
    if (number) {
      const [field] = this.kind.fields.filter((f) => f.name === this.kind.identity);
      return term(field.compile('=', number[1], (m) => this.fail(m, column)));
    }
    return { type: 'bare', text: value, quoted };
  }
}

/** @param {Kind} kind @param {string} name @param {number} column */
function fieldOf(kind, name, column) {
  const key = normalize(name);
  const field = kind.fields.find((f) => f.name === key || f.aliases.includes(key));
  if (field) return field;
  const known = kind.fields.flatMap((f) => [f.name, ...f.aliases]).join(', ');
  throw new QueryError(`unknown field "${name}"; the ${kind.name} fields are ${known}`, column);
}

/**
 * Queries kept parsed (by kind and text) and resolved (by index and text), at most this many of
 * each: a request parses its query to check it, searches it and may suggest another, and an edge
 * instance or a page asks the same queries again; a query's meaning never changes for one index.
 */
const KEPT_QUERIES = 256;
/** @template T @param {Map<string, T>} kept @param {string} key @param {() => T} make @returns {T} */
function keptQuery(kept, key, make) {
  let value = kept.get(key);
  if (value === undefined) {
    if (kept.size >= KEPT_QUERIES) kept.delete(/** @type {string} */ (kept.keys().next().value));
    kept.set(key, (value = make()));
  }
  return value;
}
/** @type {Map<string, Node>} */
const parsedQueries = new Map();

/**
 * The query parsed against the fields of `kind`; throws a QueryError naming the column at fault.
 * The node is kept and shared (never change it).
 */
export function parseQuery(/** @type {string} */ query, /** @type {Kind} */ kind) {
  return keptQuery(parsedQueries, `${kind.name}\n${query}`, () => new Parser(query, kind).parseQuery());
}


/**
 * The parsed query with its bare words given their meaning against `index` (bare.js): each
 * run of bare words side by side becomes the tests it stands for, and a text field's value
 * takes the bare words after it while the longer value is still a part of one of its texts.
 * @param {Node} node @param {Kind} kind @param {SearchIndex} index @returns {Node}
 */
function resolve(node, kind, index) {
  switch (node.type) {
    case 'bare': {
      const items = resolveAnd([node], kind, index);
      return items.length === 1 ? items[0] : { type: 'and', items };
    }
    case 'and': return { type: 'and', items: resolveAnd(node.items, kind, index) };
    case 'or': return { type: 'or', items: node.items.map((item) => resolve(item, kind, index)) };
    case 'not': return { type: 'not', item: resolve(node.item, kind, index) };
    default: return node;
  }
}

/** @param {Node[]} items terms side by side @param {Kind} kind @param {SearchIndex} index @returns {Node[]} */
function resolveAnd(items, kind, index) {
  const lexicon = lexiconOf(kind, index);
  /** @type {Node[]} */
  const out = [];
  /** @type {{ text: string }[]} */
  let run = [];
  const flush = () => {
    out.push(...runTests(run, lexicon, index, kind.words).map((test) => term(test)));
    run = [];
  };
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (isBareWord(item)) {
      run.push(/** @type {{ text: string }} */ (item));
      continue;
    }
    flush();
    const negated = item.type === 'not' ? item.item : null;
    if (item.type === 'bare') out.push(term(textTest(kind, index, item.text)));
    else if (item.type === 'term' || negated?.type === 'term') {
      const [extended, taken] = extendedTerm(/** @type {Node} */ (negated ?? item), items.slice(i + 1), index);
      out.push(negated ? { type: 'not', item: extended } : extended);
      i += taken;
    } else out.push(resolve(item, kind, index));
  }
  flush();
  return out;
}

/** A bare word read with the bare words beside it (a word of letters or digits, not quoted). @param {Node} item */
const isBareWord = (item) => item.type === 'bare' && !item.quoted && wordsOf(item.text).length > 0;

/**
 * A text field's term with the bare words after it taken into its value while the longer value
 * is still a part of one of the field's texts (`unit:guilty kiss`, `-unit:guilty kiss`), and
 * how many words it took; any other term as it is.
 * @param {Node} node a term @param {Node[]} after the terms after it @param {SearchIndex} index
 * @returns {[Node, number]}
 */
function extendedTerm(node, after, index) {
  if (node.type !== 'term' || !node.written?.field.text) return [node, 0];
  const { field, op } = node.written;
  const texts = textsOf(index, field.column);
  let value = node.written.value;
  let taken = 0;
  for (const next of after) {
    const longer = next.type === 'bare' && !next.quoted ? `${value} ${next.text}` : null;
    if (longer === null || !texts.some((t) => t.includes(longer))) break;
    value = longer;
    taken++;
  }
  return [taken ? term(field.compile(op, value, (m) => new Error(m))) : node, taken];
}

/** A quoted phrase (or a bare word of no letters): its words whole and in order in a name or title; a part of one when it has no words. */
function textTest(/** @type {Kind} */ kind, /** @type {SearchIndex} */ index, /** @type {string} */ text) {
  const words = wordsOf(text);
  if (words.length) return phraseTest(index, kind.words, words);
  return /** @type {Test} */ ((cols, row) => kind.words.some((c) => /** @type {string[][]} */ (cols[c])[row].some((t) => t.includes(text))));
}

/**
 * A set of rows as bits: row `r` is bit `r & 31` of word `r >>> 5`, and the bits past the last
 * row are 0. A step over every row (and, or, not, "is any row left?") is a pass over a word per
 * 32 rows: 125 for 4,000 cards, which an engine's first, interpreted run of it does in no time.
 * @typedef {Uint32Array} Rows
 */

/** Every row of an index of `count` rows. @param {number} count @returns {Rows} */
function allRows(count) {
  const rows = new Uint32Array((count + 31) >>> 5).fill(0xffffffff);
  if (count & 31) rows[rows.length - 1] = 2 ** (count & 31) - 1;
  return rows;
}

/** The row of a set's word `word` whose bit is `bit` (a single bit, as `bits & -bits` gives it). @param {number} word @param {number} bit */
const rowOf = (word, bit) => (word << 5) | (31 - Math.clz32(bit));

/** Whether a set holds any row. @param {Rows} rows */
function anyRow(rows) {
  for (let word = 0; word < rows.length; word++) if (rows[word] !== 0) return true;
  return false;
}

/**
 * The rows among `alive` that `node` matches, as a new set. Whole sets, not a walk of the tree
 * per row: an AND stops once no row is left, a term that gives its rows at once (a phrase:
 * bare.js phraseTest) costs what it matches, a term tested per row is asked about the rows
 * alive only, and every other step is a pass over the words of the set, so a query of 64 negated
 * or ORed words costs 64 such passes, not 64 tests per row.
 * @param {Node} node @param {Record<string, unknown[]>} columns @param {Rows} alive @returns {Rows}
 */
function matching(node, columns, alive) {
  switch (node.type) {
    case 'all': return alive.slice();
    case 'term': {
      const { test } = node;
      const out = new Uint32Array(alive.length);
      if (test.rows) {
        for (const row of test.rows()) out[row >>> 5] |= alive[row >>> 5] & (1 << (row & 31));
        return out;
      }
      for (let word = 0; word < alive.length; word++) {
        // Each row alive in this word, lowest first.
        for (let bits = alive[word] | 0; bits !== 0; bits ^= bits & -bits) {
          const bit = bits & -bits;
          if (test(columns, rowOf(word, bit))) out[word] |= bit;
        }
      }
      return out;
    }
    case 'not': {
      // A term that gives its rows: the rows alive but those, at the cost of what it matches (a word matching nothing costs a copy).
      if (node.item.type === 'term' && node.item.test.rows) {
        const out = alive.slice();
        for (const row of node.item.test.rows()) out[row >>> 5] &= ~(1 << (row & 31));
        return out;
      }
      const inner = matching(node.item, columns, alive);
      for (let word = 0; word < alive.length; word++) inner[word] = alive[word] & ~inner[word];
      return inner;
    }
    case 'and': {
      let left = alive;
      for (const item of node.items) {
        left = matching(item, columns, left);
        if (!anyRow(left)) break;
      }
      return left === alive ? alive.slice() : left;
    }
    case 'or': {
      const out = new Uint32Array(alive.length);
      const rest = new Uint32Array(alive.length);
      for (const item of node.items) {
        for (let word = 0; word < alive.length; word++) rest[word] = alive[word] & ~out[word];
        if (!anyRow(rest)) break;
        const found = matching(item, columns, rest);
        for (let word = 0; word < out.length; word++) out[word] |= found[word];
      }
      return out;
    }
    case 'bare': throw new Error('a bare word is tested only once resolved');
  }
}

/**
 * The fields `q` names that `index` has no column for: optional fields (kinds.js; the regions of
 * an archive site) on a site whose objects lack them, where they match nothing. The page says so
 * beside its results; empty for a malformed query.
 * @param {SearchIndex} index @param {string} q @returns {string[]}
 */
export function absentFields(index, q) {
  let node;
  try {
    node = parseQuery(q, kindOf(index.kind));
  } catch {
    return [];
  }
  /** @type {Set<string>} */
  const names = new Set();
  const walk = (/** @type {Node} */ n) => {
    if (n.type === 'term' && n.written?.field.optional && !(n.written.field.column in index.columns)) names.add(n.written.field.name);
    else if (n.type === 'not') walk(n.item);
    else if (n.type === 'and' || n.type === 'or') n.items.forEach(walk);
  };
  walk(node);
  return [...names];
}

/** @typedef {{ q: string, order: string, dir: 'asc' | 'desc', seed: number | null }} SearchOptions */

/** A generator of numbers in [0, 1) from a 32-bit seed (mulberry32): the same seed, the same order. */
function seeded(/** @type {number} */ seed) {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** @param {number[]} rows @param {number} seed */
function shuffle(rows, seed) {
  const next = seeded(seed);
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return rows;
}

/**
 * What is kept of one sort per index, by query text (keptQuery): a map per index, dropped with it.
 * @template T @param {WeakMap<SearchIndex, Map<string, T>>} kept @param {SearchIndex} index @returns {Map<string, T>}
 */
function keptOf(kept, index) {
  let byQuery = kept.get(index);
  if (!byQuery) kept.set(index, (byQuery = new Map()));
  return byQuery;
}

/** Queries resolved against an index (their tests keep what they found in it), by index and text. @type {WeakMap<SearchIndex, Map<string, Node>>} */
const resolvedQueries = new WeakMap();

/** The rows of `index` that `q` matches. @param {SearchIndex} index @param {string} q @returns {Rows} */
function matchedRows(index, q) {
  const kind = kindOf(index.kind);
  const node = keptQuery(keptOf(resolvedQueries, index), q, () => resolve(parseQuery(q, kind), kind, index));
  return matching(node, indexColumns(index), allRows(index.count));
}

/** Whether `q` matches a row of `index`: a suggestion's try, which needs no rows listed or ordered. @param {SearchIndex} index @param {string} q */
const matchesAny = (index, q) => anyRow(matchedRows(index, q));

/**
 * The rows of `index` matching the query, in the asked order: by a numeric or date field
 * (ties and missing values keep the index's own order, missing values last), or shuffled by
 * `seed` for order=random.
 * @param {SearchIndex} index
 * @param {SearchOptions} options
 */
export function search(index, options) {
  const kind = kindOf(index.kind);
  const columns = indexColumns(index);
  const matched = matchedRows(index, options.q);
  /** @type {number[]} */
  const rows = [];
  for (let word = 0; word < matched.length; word++) {
    for (let bits = matched[word] | 0; bits !== 0; bits ^= bits & -bits) rows.push(rowOf(word, bits & -bits));
  }
  if (options.order === 'random') return shuffle(rows, options.seed ?? 0);
  const field = orderField(kind, options.order);
  const key = field.sortKey;
  if (!key) return rows;
  const values = columns[field.column] ?? []; // an optional column absent from this index: no row has a value
  // Rows come in the index's order, which is the identity's: the default order needs no sort (nor its reverse one).
  if (rising(index, field, values)) return options.dir === 'desc' ? rows.reverse() : rows;
  const sign = options.dir === 'desc' ? -1 : 1;
  /** @type {(number | null)[]} each row's key, computed once, not once per comparison */
  const keys = [];
  for (const row of rows) keys[row] = key(values[row]);
  const compare = (/** @type {number} */ a, /** @type {number} */ b) => {
    const x = keys[a];
    const y = keys[b];
    if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
    return (x - y) * sign || a - b;
  };
  return rows.sort(compare);
}

/**
 * Whether the sort keys of `field` rise strictly from each row of `index` to the next (none null):
 * then its rows in their own order are in that field's order already. Found once per index and field.
 * @type {WeakMap<SearchIndex, Map<string, boolean>>}
 */
const RISING = new WeakMap();
/** @param {SearchIndex} index @param {Field} field @param {unknown[]} values */
function rising(index, field, values) {
  let byField = RISING.get(index);
  if (!byField) RISING.set(index, (byField = new Map()));
  let rises = byField.get(field.name);
  if (rises === undefined) {
    const key = /** @type {(value: unknown) => number | null} */ (field.sortKey);
    let previous = -Infinity;
    rises = values.length === index.count;
    for (let row = 0; rises && row < index.count; row++) {
      const next = key(values[row]);
      rises = next !== null && next > previous;
      previous = next ?? previous;
    }
    byField.set(field.name, rises);
  }
  return rises;
}

/** @param {string} name */
export function kindOf(name) {
  const kind = KINDS.find((k) => k.name === name);
  if (!kind) throw new Error(`no search kind ${name}`);
  return kind;
}

/** The fields `order` takes for a kind: its numeric and date fields, and random. @param {Kind} kind */
export const orderNames = (kind) => [...kind.fields.filter((f) => f.sortKey).map((f) => f.name), 'random'];

/** @param {Kind} kind @param {string} name */
function orderField(kind, name) {
  const field = kind.fields.find((f) => f.sortKey && (f.name === name || f.aliases.includes(name)));
  if (!field) throw new QueryError(`order must be one of ${orderNames(kind).join(', ')}, not "${name}"`, null);
  return field;
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
/** The highest page a request may ask for (pages past the results are empty). */
export const MAX_PAGE = 1e9;
/** The highest shuffle seed: a 32-bit signed integer, the range mulberry32 takes. */
export const MAX_SEED = 2 ** 31 - 1;

/** @typedef {SearchOptions & { page: number, pageSize: number }} SearchParameters */

/** The last value of a parameter (as every route reads repeated parameters), trimmed; null when absent. */
const last = (/** @type {URLSearchParams} */ params, /** @type {string} */ name) => params.getAll(name).at(-1)?.trim() ?? null;

/** @param {string | null} text @param {string} name @param {number} min @param {number} max @param {number} fallback */
function integer(text, name, min, max, fallback) {
  if (text === null || text === '') return fallback;
  // Digits only, leading zeros ignored; at most as many as the largest bound has (2147483647: ten).
  const digits = text.replace(/^0+(?=\d)/, '');
  const value = /^\d{1,10}$/.test(digits) ? Number(digits) : NaN;
  if (!(value >= min && value <= max)) throw new QueryError(`${name} must be a whole number from ${min} to ${max}, not "${text.slice(0, 20)}"`, null);
  return value;
}

/**
 * The search parameters of a request (q, order, dir, page, page_size, seed), checked: a bad
 * value is a QueryError naming the parameter. The query itself is parsed by `search`.
 * @param {URLSearchParams} params
 * @param {Kind} kind
 * @returns {SearchParameters}
 */
export function searchParameters(params, kind) {
  const order = normalize(last(params, 'order') || kind.identity);
  if (order !== 'random') orderField(kind, order);
  const dir = normalize(last(params, 'dir') || 'asc');
  if (dir !== 'asc' && dir !== 'desc') throw new QueryError(`dir must be asc or desc, not "${dir.slice(0, 20)}"`, null);
  const seedText = last(params, 'seed');
  return {
    q: params.getAll('q').at(-1) ?? '', // untrimmed, so error columns count from its first character
    order,
    dir,
    seed: seedText === null || seedText === '' ? null : integer(seedText, 'seed', 0, MAX_SEED, 0),
    page: integer(last(params, 'page'), 'page', 1, MAX_PAGE, 1),
    pageSize: integer(last(params, 'page_size'), 'page_size', 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
  };
}

/** At most this many queries are tried for a suggestion, so a query that finds nothing costs a bounded number of searches. */
const MAX_TRIES = 12;
/**
 * At most this many unknown words are corrected (each is compared with every known word). A
 * suggestion corrects them all and leaves out one more at most, so a query with more unknown
 * words than that has none, and costs no correction at all.
 */
export const MAX_CORRECTED = 3;
/**
 * Leaving one term out is tried for queries of at most this many terms: each try is a search of
 * all the others, and a query of dozens of terms that finds nothing is not one term away from
 * what someone meant.
 */
export const MAX_LEFT_OUT_TERMS = 8;

/**
 * @typedef {object} Unit a term of a query as a suggestion rewrites it: the items it spans
 * (`from`, `to`, positions among the terms side by side) and what it is: a filler word, one bare
 * word of text (`word`: the one a correction may replace), or anything else (a known phrase, a field term)
 * @property {number} from @property {number} to @property {'filler' | 'text' | 'other'} type @property {string} [word]
 */

/**
 * The units of terms side by side, as `resolveAnd` reads them: a field term with the bare words
 * its value takes (`unit:guilty kiss`), a phrase of known words however many bare words it spans
 * (`perfect lock`, `first year`), so a suggestion leaves a phrase out whole and never keeps a
 * word of it to mean something else ("perfect" of "perfect lock" in a title).
 * @param {Node[]} items @param {SearchIndex} index @param {import('./bare.js').Lexicon} lexicon @returns {Unit[]}
 */
function unitsOf(items, index, lexicon) {
  /** @type {Unit[]} */
  const units = [];
  for (let i = 0; i < items.length;) {
    const item = items[i];
    if (isBareWord(item)) {
      let end = i;
      while (end < items.length && isBareWord(items[end])) end++;
      for (const part of readRun(/** @type {{ text: string }[]} */ (items.slice(i, end)), lexicon)) {
        const [from, to] = [i + part.from, i + part.to];
        const last = units.at(-1);
        if (last && from <= last.to) Object.assign(last, { to: Math.max(last.to, to), type: 'other', word: undefined }); // two meanings in one bare word ("ur-healer")
        else units.push({ from, to, type: part.type === 'known' ? 'other' : part.type, word: part.words.length === 1 ? part.words[0] : undefined });
      }
      i = end;
      continue;
    }
    const negated = item.type === 'not' ? item.item : null;
    const taken = item.type === 'term' || negated?.type === 'term' ? extendedTerm(/** @type {Node} */ (negated ?? item), items.slice(i + 1), index)[1] : 0;
    units.push({ from: i, to: i + taken, type: 'other' });
    i += taken + 1;
  }
  return units;
}

/**
 * A query near `q` that finds what its words most likely meant in `index`, or null: first its
 * unknown bare words corrected (`hono` -> `honoka`, `kotory` -> `kotori`, `healr` -> `healer`
 * before any title word; a number `12` -> `#12`), then one term left out (the last one first;
 * a phrase of several words, `perfect lock`, is one term). A query of filler words alone is never
 * one. For a query that finds nothing; a malformed one gets none.
 * @param {SearchIndex} index @param {string} q @returns {string | null}
 */
export function suggest(index, q) {
  return keptQuery(keptOf(suggestions, index), q, () => suggestNow(index, q));
}

/**
 * Suggestions made, by index and query: one is up to 12 searches, and the same query that found
 * nothing is asked again (an edge instance's later requests, a page's).
 * @type {WeakMap<SearchIndex, Map<string, string | null>>}
 */
const suggestions = new WeakMap();

/** @param {SearchIndex} index @param {string} q @returns {string | null} */
function suggestNow(index, q) {
  const kind = kindOf(index.kind);
  let node;
  try {
    node = parseQuery(q, kind);
  } catch {
    return null;
  }
  const items = node.type === 'and' ? node.items : [node];
  const lexicon = lexiconOf(kind, index);
  const units = unitsOf(items, index, lexicon);
  const chars = Array.from(q);
  const source = (/** @type {Unit} */ unit) => items.slice(unit.from, unit.to + 1).map((item) => chars.slice(item.start, item.end).join('')).join(' ');
  /** The query with units rewritten ('' leaves one out); null when only filler words would be left. @param {Map<Unit, string>} rewrites */
  const written = (rewrites) => {
    const kept = units.filter((unit) => rewrites.get(unit) !== '');
    return kept.some((unit) => unit.type !== 'filler') ? kept.map((unit) => rewrites.get(unit) ?? source(unit)).join(' ') : null;
  };
  // A bare word of one word that nothing knows (a text unit of a bare word holding more, "kotory-ur", is no text unit).
  const unknown = units.filter((unit) => unit.type === 'text' && unit.word && !lexicon.knows(unit.word));
  if (unknown.length > MAX_CORRECTED + 1) return null;
  /** @type {Map<Unit, string>} */
  const fixes = new Map();
  for (const unit of unknown.slice(0, MAX_CORRECTED)) {
    const word = /** @type {string} */ (unit.word);
    // A number that is no year is most likely an ordinal (or id): "1725" -> "#1725".
    const fixed = /^\d+$/.test(word) ? `#${word}` : correction(word, lexicon);
    if (fixed) fixes.set(unit, fixed);
  }
  const leftOut = (/** @type {Unit[]} */ some, /** @type {Map<Unit, string>} */ rewrites) => some.map((unit) => written(new Map([...rewrites, [unit, '']]))).reverse();
  const leaving = units.length > 1 && units.length <= MAX_LEFT_OUT_TERMS;
  const candidates = [
    ...(fixes.size ? [written(fixes)] : []),
    ...(leaving ? leftOut(units, new Map()) : []),
    ...(fixes.size && leaving ? leftOut(units.filter((unit) => !fixes.has(unit)), fixes) : []),
  ];
  const tried = new Set([normalize(q).trim()]);
  for (const candidate of candidates) {
    if (candidate === null || !candidate.trim() || tried.has(normalize(candidate)) || tried.size > MAX_TRIES) continue;
    tried.add(normalize(candidate));
    if (matchesAny(index, candidate)) return candidate;
  }
  return null;
}
