/**
 * SQL text dumps are data, never code. A dump is read statement by statement
 * and only what `sqlite3 .dump` writes is accepted: CREATE TABLE (rebuilt from its
 * column names and declared types, constraints dropped), CREATE INDEX (skipped: the
 * builder reads whole tables), INSERT ... VALUES of literals (bound as parameters),
 * BEGIN/COMMIT and PRAGMA foreign_keys. SQLite never evaluates an expression from the
 * dump, so nothing in it can attach a file, fire a trigger or loop: loading takes time
 * and memory in proportion to the dump's size, which is capped. Rows as the shell writes them
 * (an INSERT of literals) are read straight from the text, about twice as fast as tokens.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';

/** The text is held in memory while it loads (and V8 strings stop at about 512 M characters). */
export const MAX_DUMP_BYTES = 256 * 1024 * 1024;

/** A statement the reader refuses or SQLite rejects, with the line it starts on. */
export class DumpError extends Error {
  constructor(readonly line: number, message: string) {
    super(`line ${line}: ${message}`);
  }
}

type Kind = 'word' | 'name' | 'string' | 'blob' | 'number' | 'punct';
/** A token; `upper` is a word in capitals, the empty string for any other kind. */
interface Token { kind: Kind; text: string; upper: string }

/**
 * SQLite's tokens, comments and blanks included; loops are unrolled (`[^']*(?:''[^']*)*`)
 * so a long string literal never backtracks. The kind is told by the first characters.
 */
const TOKEN = new RegExp([
  String.raw`\s+|--[^\n]*|/\*[^*]*\*+(?:[^/*][^*]*\*+)*/`,
  String.raw`[xX]'[^']*'`,
  String.raw`'[^']*(?:''[^']*)*'`,
  String.raw`"[^"]*(?:""[^"]*)*"|\x60[^\x60]*(?:\x60\x60[^\x60]*)*\x60|\[[^\]]*\]`,
  String.raw`0[xX][0-9a-fA-F]+|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`,
  String.raw`[A-Za-z_\u0080-\uffff][\w$\u0080-\uffff]*`,
  String.raw`[^]`,
].join('|'), 'y');

/**
 * The kind of a token TOKEN matched, told by character codes: a dump is mostly values and commas,
 * and this runs for every one of them.
 */
function kindOf(text: string): Kind | 'skip' {
  const c = text.charCodeAt(0);
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x80 && /\s/.test(text[0]))) return 'skip';
  const single = text.length === 1;
  if (!single && (c === 0x2d || c === 0x2f)) return 'skip'; // -- and /* comments (a lone - or / is a sign or an operator)
  if (!single && (c === 0x78 || c === 0x58) && text.charCodeAt(1) === 0x27) return 'blob'; // x'...'
  if (c === 0x27) return single ? 'punct' : 'string'; // a lone quote: one left unterminated
  if (c === 0x22 || c === 0x60 || c === 0x5b) return single ? 'punct' : 'name';
  if ((c >= 0x30 && c <= 0x39) || (c === 0x2e && !single)) return 'number';
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c >= 0x80) return 'word';
  return 'punct';
}

/** Blanks and comments: what TOKEN skips between two tokens. */
const BLANKS = /(?:\s+|--[^\n]*|\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\/)*/y;

/** The offset of the first token from `at` on (the text's length when none is left). */
function skipBlanks(sql: string, at: number): number {
  BLANKS.lastIndex = at;
  BLANKS.test(sql); // always a match, if an empty one
  return BLANKS.lastIndex;
}

/** The line (from 1) of `offset`: counted only for a message, never for a dump that loads. */
function lineAt(sql: string, offset: number): number {
  let line = 1;
  for (let i = sql.indexOf('\n'); i >= 0 && i < offset; i = sql.indexOf('\n', i + 1)) line++;
  return line;
}

/** The tokens of the statement whose first token is at `at`, up to its `;`, and the offset after that `;`. */
function statementAt(sql: string, at: number): { tokens: Token[]; end: number } {
  const tokens: Token[] = [];
  for (let start = at; start < sql.length;) {
    TOKEN.lastIndex = start; // set for each token: between two statements, the regex may read another dump
    TOKEN.test(sql); // always a match: [^] takes any character
    const end = TOKEN.lastIndex;
    const text = sql.slice(start, end);
    if (text === ';') return { tokens, end };
    const kind = kindOf(text);
    if (kind !== 'skip') tokens.push({ kind, text, upper: kind === 'word' ? text.toUpperCase() : '' });
    start = end;
  }
  throw new DumpError(lineAt(sql, at), 'the last statement is cut off (no closing ;)');
}

const upper = (token: Token | undefined) => token?.upper ?? '';

/** An identifier's name: a bare word or a quoted name. */
function identifier(token: Token | undefined): string | null {
  if (token?.kind === 'word') return token.text;
  if (token?.kind !== 'name') return null;
  const close = token.text.at(-1)!;
  return token.text.slice(1, -1).replaceAll(close + close, close);
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A cursor over one statement's tokens; `start`: the offset of its first token in `sql`. */
class Reader {
  private at = 0;
  constructor(private readonly tokens: Token[], private readonly sql: string, private readonly start: number) {}

  get line(): number {
    return lineAt(this.sql, this.start);
  }

  fail(message: string): never {
    throw new DumpError(this.line, message);
  }

  peek(offset = 0): Token | undefined {
    return this.tokens[this.at + offset];
  }

  next(): Token | undefined {
    return this.tokens[this.at++];
  }

  /** Consumes the given words (case-insensitive) when they come next. */
  accept(...words: string[]): boolean {
    if (!words.every((w, i) => upper(this.peek(i)) === w)) return false;
    this.at += words.length;
    return true;
  }

  expect(text: string): void {
    if (this.next()?.text !== text) this.fail(`expected "${text}"`);
  }

  name(what: string): string {
    const name = identifier(this.next());
    if (name === null) this.fail(`expected a ${what} name`);
    if (this.peek()?.text === '.') this.fail(`${what} ${name}: names with a schema (${name}.x) are not allowed`);
    return name;
  }

  done(): boolean {
    return this.at >= this.tokens.length;
  }

  /** The tokens up to the `)` closing an already consumed `(`, split at top-level commas. */
  group(): Token[][] {
    const items: Token[][] = [[]];
    for (let depth = 0; ;) {
      const token = this.next();
      if (!token) this.fail('unbalanced parentheses');
      if (token.text === ')' && depth === 0) return items;
      if (token.text === '(') depth++;
      if (token.text === ')') depth--;
      if (token.text === ',' && depth === 0) items.push([]);
      else items.at(-1)!.push(token);
    }
  }
}

const TABLE_CONSTRAINTS = new Set(['CONSTRAINT', 'PRIMARY', 'UNIQUE', 'CHECK', 'FOREIGN']);
const COLUMN_CONSTRAINTS = new Set(['CONSTRAINT', 'PRIMARY', 'NOT', 'NULL', 'UNIQUE', 'CHECK', 'DEFAULT', 'COLLATE', 'REFERENCES', 'GENERATED', 'AS']);

/** `name TYPE(n, m) constraints...` -> `"name" TYPE(n, m)`; null for a table constraint. */
function columnDefinition(tokens: Token[], reader: Reader): string | null {
  if (TABLE_CONSTRAINTS.has(upper(tokens[0]))) return null;
  const name = identifier(tokens[0]);
  if (name === null) reader.fail('expected a column name');
  const end = tokens.findIndex((t, i) => i > 0 && COLUMN_CONSTRAINTS.has(upper(t)));
  const type = tokens.slice(1, end < 0 ? tokens.length : end).map((t) => t.text).join(' ').replace(/ ?([(),]) ?/g, '$1');
  // Only plain type names, with the size parameters of VARCHAR(10) or DECIMAL(10, 2).
  if (!/^(?:[A-Za-z_]\w*(?: [A-Za-z_]\w*)*(?:\([+-]?\d+(?:,[+-]?\d+)?\))?)?$/.test(type)) reader.fail(`column ${name}: unsupported type "${type}"`);
  return `${quote(name)} ${type}`.trim();
}

/** `CREATE TABLE [IF NOT EXISTS] t (columns) [WITHOUT ROWID | STRICT]`, rebuilt without constraints. */
function createTable(db: Database.Database, r: Reader): void {
  const ifNotExists = r.accept('IF', 'NOT', 'EXISTS') ? 'IF NOT EXISTS ' : '';
  const table = r.name('table');
  r.expect('(');
  const columns = r.group().map((item) => columnDefinition(item, r)).filter((c) => c !== null);
  while (!r.done()) if (!r.accept('WITHOUT', 'ROWID') && !r.accept('STRICT') && r.next()?.text !== ',') r.fail(`table ${table}: only (columns) may follow the name`);
  db.exec(`CREATE TABLE ${ifNotExists}${quote(table)} (${columns.join(', ')})`);
}

export type SqlParameter = string | number | bigint | Buffer | null;

/**
 * A numeric literal as SQLite reads it: integers are 64-bit (hex as two's complement), too
 * large a decimal is a real. Integers are bound as bigint, which SQLite stores as INTEGER
 * even in a column without affinity (a JS number would be stored as REAL).
 */
function number(text: string, negative: boolean): number | bigint {
  if (!/^\d+$|^0[xX]/.test(text)) return negative ? -Number(text) : Number(text);
  const magnitude = /^0[xX]/.test(text) ? BigInt.asIntN(64, BigInt(text)) : BigInt(text);
  const big = negative ? -magnitude : magnitude;
  return BigInt.asIntN(64, big) === big ? big : Number(big);
}

/** unistr('...'): the shell's escapes \XXXX, \uXXXX, \+XXXXXX, \UXXXXXXXX and \\. */
function unistr(text: string, r: Reader): string {
  return text.replace(/\\(?:\\|([0-9a-fA-F]{4})|u([0-9a-fA-F]{4})|\+([0-9a-fA-F]{6})|U([0-9a-fA-F]{8}))|\\/g, (escape, ...hex) => {
    if (escape === '\\\\') return '\\';
    const code = Number.parseInt(hex.slice(0, 4).find((h) => h !== undefined) ?? 'x', 16);
    if (!(code <= 0x10ffff)) r.fail(`unistr: bad escape ${escape}`);
    return String.fromCodePoint(code);
  });
}

/** One value: a literal, or the shell's char(), unistr() or replace() of literals. */
function value(r: Reader): SqlParameter {
  const token = r.next();
  if (!token) r.fail('expected a value');
  const negative = token.text === '-';
  const digits = negative || token.text === '+' ? r.next() : token;
  if (digits?.kind === 'number') return number(digits.text, negative);
  if (digits !== token) r.fail('a sign needs a number');
  if (token.kind === 'string') return token.text.slice(1, -1).replaceAll("''", "'");
  if (token.kind === 'blob') {
    const hex = token.text.slice(2, -1);
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) r.fail('malformed blob literal');
    return Buffer.from(hex, 'hex');
  }
  const word = upper(token);
  if (word === 'NULL') return null;
  if (['CHAR', 'UNISTR', 'REPLACE'].includes(word) && r.peek()?.text === '(') return call(word, r);
  return r.fail(`values must be literals, found "${token.text}"`);
}

/** `(value, value, ...)`: the arguments of a call, or one row of VALUES. */
function values(r: Reader): SqlParameter[] {
  r.expect('(');
  const list: SqlParameter[] = [value(r)];
  while (r.peek()?.text === ',') {
    r.next();
    list.push(value(r));
  }
  r.expect(')');
  return list;
}

function call(fn: string, r: Reader): string {
  const args = values(r);
  const text = (i: number) => (typeof args[i] === 'string' ? (args[i] as string) : r.fail(`${fn.toLowerCase()}: argument ${i + 1} must be text`));
  if (fn === 'CHAR') {
    if (!args.every((a) => typeof a === 'bigint' && a >= 0n && a <= 0x10ffffn)) r.fail('char: arguments must be code points');
    return String.fromCodePoint(...args.map(Number));
  }
  if (fn === 'UNISTR' && args.length === 1) return unistr(text(0), r);
  if (fn === 'REPLACE' && args.length === 3) {
    // The shell only ever shortens text ('\n' -> char(10)); refusing growth keeps memory bounded by the dump's size.
    if (text(2).length > text(1).length) r.fail('replace: the replacement may not be longer than the text it replaces');
    return text(1) ? text(0).replaceAll(text(1), text(2)) : text(0);
  }
  return r.fail(`${fn.toLowerCase()}: wrong number of arguments`);
}

/** Rows to insert into `table`; `columns`: the statement's column list (`("a", "b")`), or '' for none. */
interface Rows { table: string; columns: string; rows: SqlParameter[][] }

/** Statements prepared once per table, column list and row width. */
type Prepared = Map<string, Database.Statement[]>;

function insertRows(db: Database.Database, prepared: Prepared, { table, columns, rows }: Rows): void {
  // sqlite_sequence and sqlite_stat*: the dump's bookkeeping, which tables without constraints have no use for.
  if (table.toLowerCase().startsWith('sqlite_')) return;
  const head = `INSERT INTO ${quote(table)} ${columns} VALUES `;
  let byWidth = prepared.get(head);
  if (!byWidth) prepared.set(head, (byWidth = []));
  for (const row of rows) (byWidth[row.length] ??= db.prepare(`${head}(${Array(row.length).fill('?').join(', ')})`)).run(row);
}

/** `INSERT [OR ...] INTO t [(columns)] VALUES (...), (...)` or `REPLACE INTO ...`: its rows. */
function insert(r: Reader): Rows {
  if (r.accept('OR')) r.next();
  if (!r.accept('INTO')) r.fail('expected INTO');
  const table = r.name('table');
  let columns = '';
  if (r.peek()?.text === '(') {
    r.next();
    columns = `(${r.group().map(([name, extra]) => (extra || identifier(name) === null ? r.fail('expected a column name') : quote(identifier(name)!))).join(', ')})`;
  }
  if (!r.accept('VALUES')) r.fail(`INSERT INTO ${table}: only VALUES of literals are allowed`);
  const rows: SqlParameter[][] = [];
  do rows.push(values(r));
  while (r.peek()?.text === ',' && r.next());
  if (!r.done()) r.fail(`unexpected "${r.peek()!.text}" after the values`);
  return { table, columns, rows };
}

/** What the shell writes before a row's values: `INSERT INTO t VALUES(`, a plain or a quoted table name. */
const PLAIN_HEAD = /INSERT INTO (?:"((?:[^"]|"")+)"|([A-Za-z_][\w$]*)) VALUES ?\(/y;
const PLAIN_STRING = /'[^']*(?:''[^']*)*'/y;
/** An integer of at most 18 digits, which always fits 64 bits (a longer one is left to the tokens). */
const INTEGER_TEXT = /-?\d{1,18}/y;
/** A number as TOKEN reads one, with its sign: plain only with a fraction or an exponent. */
const NUMBER_TEXT = /-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const BLOB_TEXT = /[xX]'((?:[0-9a-fA-F]{2})*)'/y;
const NULL_TEXT = /NULL/iy;
const [SPACE, COMMA, OPEN, CLOSE, SEMICOLON] = [...' ,();'].map((c) => c.charCodeAt(0));
/** What plainInsert finds where a statement is not plain. */
const NOT_PLAIN = Symbol('not plain');

/**
 * A cursor reading the text of one plain INSERT. Each literal reads as its token would
 * (value() below): integers as bigint, other numbers as numbers, strings with '' undone.
 */
class PlainReader {
  constructor(private readonly sql: string, public at: number) {}

  /** The code of the next character after spaces, consumed. */
  next(): number {
    while (this.sql.charCodeAt(this.at) === SPACE) this.at++;
    return this.sql.charCodeAt(this.at++);
  }

  /** The text `pattern` matches at the cursor when a comma, a `)` or a space follows it (consumed), else null. */
  private match(pattern: RegExp): string | null {
    pattern.lastIndex = this.at;
    if (!pattern.test(this.sql)) return null;
    const after = this.sql.charCodeAt(pattern.lastIndex);
    if (after !== COMMA && after !== CLOSE && after !== SPACE) return null;
    const text = this.sql.slice(this.at, pattern.lastIndex);
    this.at = pattern.lastIndex;
    return text;
  }

  value(): SqlParameter | typeof NOT_PLAIN {
    while (this.sql.charCodeAt(this.at) === SPACE) this.at++;
    const c = this.sql.charCodeAt(this.at);
    if (c === 0x27) return this.match(PLAIN_STRING)?.slice(1, -1).replaceAll("''", "'") ?? NOT_PLAIN;
    if (c === 0x4e || c === 0x6e) return this.match(NULL_TEXT) === null ? NOT_PLAIN : null;
    if (c === 0x58 || c === 0x78) {
      const blob = this.match(BLOB_TEXT);
      return blob === null ? NOT_PLAIN : Buffer.from(blob.slice(2, -1), 'hex');
    }
    const integer = this.match(INTEGER_TEXT);
    if (integer !== null) return BigInt(integer);
    // A number with a fraction or an exponent (an integer too long for INTEGER_TEXT is not plain).
    const number = this.match(NUMBER_TEXT);
    return number !== null && /[.eE]/.test(number) ? Number(number) : NOT_PLAIN;
  }
}

/**
 * `INSERT INTO t VALUES(...),(...);` of literals (numbers, strings, blobs, NULL), as the shell's
 * .dump writes nearly every row, read straight from the text at `at`: its rows, and the offset
 * after its `;`. null for any other statement, or one written otherwise (a column list, a call,
 * a comment, a line break, a sign apart from its number), which the tokens then read or refuse.
 */
function plainInsert(sql: string, at: number): (Rows & { end: number }) | null {
  PLAIN_HEAD.lastIndex = at;
  const head = PLAIN_HEAD.exec(sql);
  if (!head) return null;
  const table = head[1]?.replaceAll('""', '"') ?? head[2];
  const r = new PlainReader(sql, PLAIN_HEAD.lastIndex);
  const rows: SqlParameter[][] = [];
  for (;;) {
    const row: SqlParameter[] = [];
    for (let c = COMMA; c === COMMA; c = r.next()) {
      const value = r.value();
      if (value === NOT_PLAIN) return null;
      row.push(value);
    }
    if (sql.charCodeAt(r.at - 1) !== CLOSE) return null;
    rows.push(row);
    const c = r.next();
    if (c === SEMICOLON) return { table, columns: '', rows, end: r.at };
    if (c !== COMMA || r.next() !== OPEN) return null;
  }
}

const ALLOWED = 'a dump holds only CREATE TABLE, CREATE INDEX, INSERT, BEGIN/COMMIT and PRAGMA foreign_keys';

/** Fails naming the statement's first words. */
function notAllowed(r: Reader, tokens: Token[]): never {
  const leading = tokens.slice(0, 2).map(upper);
  return r.fail(`${(leading[0] ? leading : [tokens[0].text]).filter(Boolean).join(' ')} is not allowed (${ALLOWED})`);
}

/**
 * Runs one statement read as tokens (a Reader); returns whether the dump's own transaction is
 * open after it (`open`: before it).
 */
function runStatement(db: Database.Database, r: Reader, tokens: Token[], prepared: Prepared, open: boolean): boolean {
  if (r.accept('INSERT') || r.accept('REPLACE')) insertRows(db, prepared, insert(r));
  else if (r.accept('BEGIN')) {
    r.accept('DEFERRED') || r.accept('IMMEDIATE') || r.accept('EXCLUSIVE');
    r.accept('TRANSACTION');
    open = true;
  } else if (r.accept('COMMIT') || r.accept('END')) {
    r.accept('TRANSACTION');
    open = false;
  } else if (r.accept('PRAGMA')) {
    if (!['FOREIGN_KEYS', 'DEFER_FOREIGN_KEYS'].includes(upper(r.next()))) notAllowed(r, tokens);
    if (r.peek()?.text === '=') r.next() && r.next();
  } else if (r.accept('CREATE', 'TABLE')) createTable(db, r);
  else if (r.accept('CREATE', 'INDEX') || r.accept('CREATE', 'UNIQUE', 'INDEX')) return open;
  else if (r.accept('DELETE', 'FROM', 'SQLITE_SEQUENCE') || r.accept('ANALYZE', 'SQLITE_SCHEMA') || r.accept('ANALYZE', 'SQLITE_MASTER')) return open;
  else notAllowed(r, tokens);
  if (!r.done()) r.fail(`unexpected "${r.peek()!.text}"`);
  return open;
}

/**
 * Loads dump text into `db` (in one transaction); throws DumpError naming the line at fault.
 * A plain INSERT (plainInsert) is read from the text; any other statement as tokens. An empty
 * statement (`;;`) is nothing, as in SQLite.
 */
function loadSql(db: Database.Database, sql: string): void {
  const prepared: Prepared = new Map();
  let open = false; // inside the dump's own BEGIN ... COMMIT
  db.exec('BEGIN');
  for (let at = skipBlanks(sql, 0); at < sql.length; at = skipBlanks(sql, at)) {
    const start = at;
    try {
      // Most statements of a dump are plain INSERTs.
      const plain = plainInsert(sql, at);
      if (plain) {
        insertRows(db, prepared, plain);
        at = plain.end;
        continue;
      }
      const { tokens, end } = statementAt(sql, at);
      at = end;
      if (tokens.length) open = runStatement(db, new Reader(tokens, sql, start), tokens, prepared, open);
    } catch (error) {
      throw error instanceof DumpError ? error : new DumpError(lineAt(sql, start), (error as Error).message);
    }
  }
  db.exec('COMMIT');
  // A dump cut off at a line break still parses, but never reaches its COMMIT.
  if (open) throw new Error('truncated: the dump ends inside its transaction');
}

/**
 * Small dumps loaded into memory before in this process, by their text: the database each made,
 * serialized (a dump sets nothing but the file: its PRAGMAs are read and ignored). A process that
 * builds many sites of the same small export, the test suite, loads it once, instead of once a
 * site (16-18 ms of the shipped sample's 62-70 in two profiles); a build reads each of its dumps
 * once, so it never finds one here. Only dumps up to KEPT_DUMP_CHARS, the last KEPT_DUMPS of them,
 * each kept as its text and its database (the sample's unit.sql, 66 KB of text, made 116 KiB):
 * some tens of MiB at worst.
 */
const KEPT_DUMPS = 16;
const KEPT_DUMP_CHARS = 256 * 1024;
const keptDumps = new Map<string, Buffer>();

/** A new database holding the dump text `sql`: in memory, or the SQLite file `into`. */
export function openSql(sql: string, into = ':memory:'): Database.Database {
  const keep = into === ':memory:' && sql.length <= KEPT_DUMP_CHARS;
  const kept = keep ? keptDumps.get(sql) : undefined;
  if (kept) return new Database(kept);
  const db = new Database(into);
  try {
    loadSql(db, sql);
  } catch (error) {
    db.close();
    throw error;
  }
  if (keep) {
    if (keptDumps.size >= KEPT_DUMPS) keptDumps.delete(keptDumps.keys().next().value!);
    keptDumps.set(sql, db.serialize());
  }
  return db;
}

/** The dump `file` loaded into a new database (see openSql). */
export function loadSqlDump(file: string, into = ':memory:'): Database.Database {
  const size = fs.statSync(file).size;
  if (size > MAX_DUMP_BYTES) throw new Error(`${size} bytes; dumps over ${MAX_DUMP_BYTES / 1024 ** 2} MiB are refused`);
  return openSql(fs.readFileSync(file, 'utf8'), into);
}
