/** A SQL dump is data. Only the statements a dump is made of load; anything else is refused by file and line. */
import path from 'node:path';
import fs from 'fs-extra';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { build } from '../../generator/build/build.ts';
import { MAX_DUMP_BYTES, openSql } from '../../generator/build/input/sqlDump.ts';
import { copySample, tempDir } from '../helpers.ts';

/** The sample export with `sql` inserted as a line of its unit.sql, after the first `after` lines. */
async function sampleWith(sql: string, after = 2) {
  const input = await copySample();
  const file = path.join(input, 'unit.sql');
  const lines = (await fs.readFile(file, 'utf8')).split('\n');
  lines.splice(after, 0, sql);
  await fs.writeFile(file, lines.join('\n'));
  return { input, out: path.join(input, '..', 'public'), line: after + 1 };
}

/** What sqlite3 3.40's `.dump` wrote for a table with every kind of value, its bookkeeping included. */
const SHELL_DUMP = `PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, s TEXT NOT NULL DEFAULT 'x', b BLOB, r REAL CHECK (r > -1e300), big INTEGER);
INSERT INTO t VALUES(1,replace(replace('a''b\\nc\\rd','\\r',char(13)),'\\n',char(10)),X'00ff',1e999,9223372036854775807);
INSERT INTO t VALUES(2,'日本',NULL,1.5,-9223372036854775808);
CREATE TABLE IF NOT EXISTS "we""ird" ([col 1] varchar(10), x);
INSERT INTO "we""ird" VALUES('1',2);
ANALYZE sqlite_schema;
INSERT INTO sqlite_stat1 VALUES('we"ird',NULL,'1');
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('t',2);
CREATE INDEX ti ON t(s);
COMMIT;
`;

describe('SQL dumps: what a dump is made of loads', () => {
  it('reads every value of a sqlite3 .dump exactly', () => {
    const db = openSql(SHELL_DUMP);
    db.defaultSafeIntegers(true);
    expect(db.prepare('SELECT * FROM t').all()).toEqual([
      { id: 1n, s: "a'b\nc\rd", b: Buffer.from([0, 255]), r: Infinity, big: 9223372036854775807n },
      { id: 2n, s: '日本', b: null, r: 1.5, big: -9223372036854775808n },
    ]);
    expect(db.prepare('SELECT * FROM "we""ird"').all()).toEqual([{ 'col 1': '1', x: 2n }]);
    db.close();
  });

  it('loaded again in the same process, a dump is the same database, each one its own (the kept load is a copy)', () => {
    const rows = (db: Database.Database) => db.defaultSafeIntegers(true).prepare('SELECT * FROM t ORDER BY id').all();
    const schema = (db: Database.Database) => db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
    const first = openSql(SHELL_DUMP);
    const [expected, tables] = [rows(first), schema(first)];
    expect(expected).toHaveLength(2);
    first.exec('DELETE FROM t');
    first.close();
    const again = openSql(SHELL_DUMP);
    expect(rows(again)).toEqual(expected);
    expect(schema(again)).toEqual(tables);
    again.exec('DELETE FROM t');
    expect(rows(openSql(SHELL_DUMP))).toEqual(expected);
    again.close();
  });

  it('takes an empty statement (;;) for nothing, as SQLite does', () => {
    const db = openSql('CREATE TABLE e (a);;\n;\nINSERT INTO e VALUES(1);;');
    expect(db.prepare('SELECT a FROM e').all()).toEqual([{ a: 1 }]);
    db.close();
  });

  it('keeps column names and declared types but never evaluates a constraint or default', () => {
    const db = openSql('CREATE TABLE c (a INTEGER CHECK (a < 0) DEFAULT (zeroblob(1000000000)), b TEXT REFERENCES x(y));\nINSERT INTO c VALUES (5, 6);');
    expect(db.prepare('SELECT a, typeof(b) AS b FROM c').all()).toEqual([{ a: 5, b: 'text' }]);
    db.close();
  });
});

describe('SQL dumps: rows as the shell writes them are read straight from the text, as their tokens read', () => {
  /** What a dump loads to: every row of t with each value's SQLite type, or the error it is refused with. */
  const outcome = (sql: string) => {
    try {
      const db = openSql(sql);
      db.defaultSafeIntegers(true);
      const rows = db.prepare('SELECT typeof(a) AS ta, a, typeof(b) AS tb, b FROM t').all();
      db.close();
      return { rows };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  const numberText = fc.oneof(
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
    fc.double({ noNaN: true }).map(String),
    fc.constantFrom('1.', '.5', '-.5', '1e5', '1E+5', '2e-3', '0x1F', '-0', '007', '1e999', '- 5', '+5', '5x', '1.2.3'),
    fc.array(fc.constantFrom(...'0123456789.eE+-xX'), { minLength: 1, maxLength: 8 }).map((chars) => chars.join('')),
  );
  const stringText = fc.array(fc.constantFrom('a', "'", "''", '\n', '\n', '日本', ' ', ',', ')', ';'), { maxLength: 6 })
    .map((parts) => `'${parts.join('').replaceAll("'", "''")}'`);
  const value = fc.oneof(numberText, stringText,
    fc.constantFrom('NULL', 'null', 'Nul', "X'00ff'", "x'abc'", "X''", 'char(97)', "replace('ab','b','c')", "unistr('\\0041')", "'unterminated"));
  const separator = fc.constantFrom(',', ', ', ' , ', ',\n', ' ,');
  const row = fc.tuple(value, separator, value, fc.boolean()).map(([a, sep, b, one]) => `(${one ? a : `${a}${sep}${b}`})`);
  const statement = fc.tuple(fc.array(row, { minLength: 1, maxLength: 3 }), fc.constantFrom('', ' ')).map(([rows, space]) => `INSERT INTO t VALUES${space}${rows.join(',')};`);

  it('any INSERT loads to the same rows, or fails with the same message, as the same text in lower case (which only the tokens read)', () => {
    fc.assert(fc.property(fc.array(statement, { minLength: 1, maxLength: 3 }), (statements) => {
      const sql = `CREATE TABLE t (a, b);\n${statements.join('\n')}\n`;
      expect(outcome(sql)).toEqual(outcome(sql.replaceAll('INSERT INTO t VALUES', 'insert into t values')));
    }), { numRuns: 500, seed: 20261127 });
  });

  it('reads a quoted table name, a blob, NULL, a 64-bit integer and a real from a plain row', () => {
    const db = openSql('CREATE TABLE "a""b" (x, y, z, w);\nINSERT INTO "a""b" VALUES(X\'00ff\',NULL,-9223372036854775808,1.5e3);');
    db.defaultSafeIntegers(true);
    expect(db.prepare('SELECT * FROM "a""b"').all()).toEqual([{ x: Buffer.from([0, 255]), y: null, z: -9223372036854775808n, w: 1500 }]);
    db.close();
  });
});

describe('SQL dumps: anything else is refused, naming the file and line', () => {
  const target = (dir: string) => path.join(dir, 'authorized_keys');
  const attacks: { kind: string; sql: (dir: string) => string; says: RegExp }[] = [
    { kind: 'ATTACH writing a file', sql: (dir) => `ATTACH DATABASE '${target(dir)}' AS k;`, says: /ATTACH DATABASE is not allowed/ },
    { kind: 'VACUUM INTO writing a file', sql: (dir) => `VACUUM INTO '${target(dir)}';`, says: /VACUUM INTO is not allowed/ },
    { kind: 'a TEMP trigger', sql: () => 'CREATE TEMP TRIGGER t AFTER INSERT ON unit_m BEGIN SELECT 1; END;', says: /CREATE TEMP is not allowed/ },
    { kind: 'a view', sql: () => 'CREATE VIEW v AS SELECT * FROM unit_m;', says: /CREATE VIEW is not allowed/ },
    { kind: 'a recursive CTE that never ends', sql: () => 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c;', says: /WITH RECURSIVE is not allowed/ },
    { kind: 'a subquery among the values', sql: () => 'INSERT INTO unit_m (unit_id) VALUES ((WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c));', says: /values must be literals, found "\("/ },
    { kind: 'INSERT ... SELECT', sql: () => 'INSERT INTO unit_m SELECT * FROM unit_m;', says: /only VALUES of literals are allowed/ },
    { kind: 'a function call among the values', sql: () => 'INSERT INTO unit_m (unit_id) VALUES (randomblob(1000000000));', says: /values must be literals, found "randomblob"/ },
    { kind: 'replace() that grows the text', sql: () => "INSERT INTO unit_m (name) VALUES (replace('aaaa', 'a', char(97, 97, 97)));", says: /replacement may not be longer/ },
    { kind: 'CREATE TABLE ... AS SELECT', sql: () => 'CREATE TABLE x AS SELECT * FROM unit_m;', says: /only \(columns\) may follow|expected "\("/ },
    { kind: 'a table in another schema', sql: () => 'CREATE TABLE temp.x (a);', says: /names with a schema/ },
    { kind: 'a pragma other than foreign_keys', sql: () => 'PRAGMA writable_schema=ON;', says: /PRAGMA WRITABLE_SCHEMA is not allowed/ },
    { kind: 'an UPDATE', sql: () => 'UPDATE unit_m SET name = 1;', says: /UPDATE UNIT_M is not allowed/ },
  ];

  for (const { kind, sql, says } of attacks) {
    it(`${kind}: refused, nothing written anywhere, the site not built`, async () => {
      const dir = await tempDir();
      const { input, out, line } = await sampleWith(sql(dir));
      const error = await build({ input, out }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(new RegExp(`unit\\.sql: not a loadable SQL dump \\(line ${line}: `));
      expect((error as Error).message).toMatch(says);
      expect(await fs.readdir(dir)).toEqual([]);
      expect(await fs.pathExists(out)).toBe(false);
    });
  }

  it('ATTACH of a readable database never leaks it into the site', async () => {
    const secret = path.join(await tempDir(), 'secret.db');
    const db = new Database(secret);
    db.exec("CREATE TABLE unit_m (unit_id INTEGER); INSERT INTO unit_m VALUES (31337)");
    db.close();
    const { input, out } = await sampleWith(`ATTACH '${secret}' AS s;`);
    await expect(build({ input, out })).rejects.toThrow(/line 3: ATTACH is not allowed/);
  });

  it('a dump whose last statement is cut off is refused as such', () => {
    expect(() => openSql('CREATE TABLE a (x);\nINSERT INTO a VALUES (1')).toThrow(/line 2: the last statement is cut off/);
  });
});

describe('SQL dumps: the load is bounded', () => {
  it('refuses a dump larger than the cap before reading it', async () => {
    const input = await tempDir();
    await fs.writeFile(path.join(input, 'unit.sql'), '');
    await fs.truncate(path.join(input, 'unit.sql'), MAX_DUMP_BYTES + 1); // sparse: no disk used
    await expect(build({ input, out: path.join(await tempDir(), 'public') })).rejects.toThrow(/unit\.sql: not a loadable SQL dump \(\d+ bytes; dumps over 256 MiB are refused\)/);
  });
});
