/**
 * SQL text dumps are data, never code. A dump is read statement by statement
 * and only what `sqlite3 .dump` writes is accepted: CREATE TABLE (rebuilt from its
 * column names and declared types, constraints dropped), CREATE INDEX (skipped: the
 * builder reads whole tables), INSERT ... VALUES of literals (bound as parameters),
 * BEGIN/COMMIT and PRAGMA foreign_keys. SQLite never evaluates an expression from the
 * dump, so nothing in it can attach a file, fire a trigger or loop: loading takes time
 * and memory in proportion to the dump's size, which is capped.
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

/** Kinds whose text may span lines. */
const MULTILINE = new Set<Kind | 'skip'>(['skip', 'string', 'name', 'blob']);

interface Statement { line: number; tokens: Token[] }

/** The dump's statements, each with its first line; a statement without its `;` is a cut-off dump. */
function* statements(sql: string): Generator<Statement> {
  let line = 1;
  let current: Statement = { line, tokens: [] };
  for (let start = 0, end = 0; start < sql.length; start = end) {
    TOKEN.lastIndex = start; // set for each token: between two statements, the regex may read another dump
    TOKEN.test(sql); // always a match: [^] takes any character
    end = TOKEN.lastIndex;
    const text = sql.slice(start, end);
    const kind = kindOf(text);
    if (kind !== 'skip') {
      if (!current.tokens.length) current.line = line;
      if (text === ';') {
        yield current;
        current = { line, tokens: [] };
      } else current.tokens.push({ kind, text, upper: kind === 'word' ? text.toUpperCase() : '' });
    }
    if (MULTILINE.has(kind)) for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) line++;
  }
  if (current.tokens.length) throw new DumpError(current.line, 'the last statement is cut off (no closing ;)');
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

/** A cursor over one statement's tokens. */
class Reader {
  private at = 0;
  constructor(private readonly tokens: Token[], readonly line: number) {}

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

/** `INSERT [OR ...] INTO t [(columns)] VALUES (...), (...)` or `REPLACE INTO ...`, as a prepared statement. */
function insert(db: Database.Database, r: Reader, prepared: Map<string, Database.Statement>): void {
  if (r.accept('OR')) r.next();
  if (!r.accept('INTO')) r.fail('expected INTO');
  const table = r.name('table');
  // sqlite_sequence and sqlite_stat*: the dump's bookkeeping, which tables without constraints have no use for.
  const bookkeeping = table.toLowerCase().startsWith('sqlite_');
  let columns = '';
  if (r.peek()?.text === '(') {
    r.next();
    columns = `(${r.group().map(([name, extra]) => (extra || identifier(name) === null ? r.fail('expected a column name') : quote(identifier(name)!))).join(', ')})`;
  }
  if (!r.accept('VALUES')) r.fail(`INSERT INTO ${table}: only VALUES of literals are allowed`);
  const head = `INSERT INTO ${quote(table)} ${columns} VALUES `;
  do {
    const row = values(r);
    if (bookkeeping) continue;
    // Prepared once per table, column list and row width.
    const key = `${row.length} ${head}`;
    let statement = prepared.get(key);
    if (!statement) prepared.set(key, (statement = db.prepare(`${head}(${Array(row.length).fill('?').join(', ')})`)));
    statement.run(row);
  } while (r.peek()?.text === ',' && r.next());
  if (!r.done()) r.fail(`unexpected "${r.peek()!.text}" after the values`);
}

const ALLOWED = 'a dump holds only CREATE TABLE, CREATE INDEX, INSERT, BEGIN/COMMIT and PRAGMA foreign_keys';

/** Fails naming the statement's first words. */
function notAllowed(r: Reader, tokens: Token[]): never {
  const leading = tokens.slice(0, 2).map(upper);
  return r.fail(`${(leading[0] ? leading : [tokens[0].text]).filter(Boolean).join(' ')} is not allowed (${ALLOWED})`);
}

/** Loads dump text into `db` (in one transaction); throws DumpError naming the line at fault. */
function loadSql(db: Database.Database, sql: string): void {
  const prepared = new Map<string, Database.Statement>();
  let open = false; // inside the dump's own BEGIN ... COMMIT
  db.exec('BEGIN');
  for (const { line, tokens } of statements(sql)) {
    const r = new Reader(tokens, line);
    try {
      // Most statements of a dump are INSERTs.
      if (r.accept('INSERT') || r.accept('REPLACE')) insert(db, r, prepared);
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
      else if (r.accept('CREATE', 'INDEX') || r.accept('CREATE', 'UNIQUE', 'INDEX')) continue;
      else if (r.accept('DELETE', 'FROM', 'SQLITE_SEQUENCE') || r.accept('ANALYZE', 'SQLITE_SCHEMA') || r.accept('ANALYZE', 'SQLITE_MASTER')) continue;
      else notAllowed(r, tokens);
      if (!r.done()) r.fail(`unexpected "${r.peek()!.text}"`);
    } catch (error) {
      throw error instanceof DumpError ? error : new DumpError(line, (error as Error).message);
    }
  }
  db.exec('COMMIT');
  // A dump cut off at a line break still parses, but never reaches its COMMIT.
  if (open) throw new Error('truncated: the dump ends inside its transaction');
}

/** A new database holding the dump text `sql`: in memory, or the SQLite file `into`. */
export function openSql(sql: string, into = ':memory:'): Database.Database {
  const db = new Database(into);
  try {
    loadSql(db, sql);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The dump `file` loaded into a new database (see openSql). */
export function loadSqlDump(file: string, into = ':memory:'): Database.Database {
  const size = fs.statSync(file).size;
  if (size > MAX_DUMP_BYTES) throw new Error(`${size} bytes; dumps over ${MAX_DUMP_BYTES / 1024 ** 2} MiB are refused`);
  return openSql(fs.readFileSync(file, 'utf8'), into);
}
