/**
 * input/masterDb.ts reads a table's integers as numbers, and as BigInt only when the table holds one
 * beyond ±(2^53 - 1): the same rows either way, and such an integer refused naming its row.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MasterDb } from '../../generator/build/input/masterDb.ts';
import { Findings } from '../../generator/build/findings.ts';
import { tempDir } from '../tempDirs.ts';

/** A SQLite file holding one table `t` of the given rows (an id and a value each). */
async function tableOf(values: (number | bigint | string | null)[]): Promise<string> {
  const file = path.join(await tempDir(), 'unit.db');
  const db = new Database(file);
  db.exec('CREATE TABLE t (id INTEGER, "odd ""name""" )');
  const insert = db.prepare('INSERT INTO t VALUES (?, ?)').safeIntegers(true);
  values.forEach((value, i) => insert.run(i + 1, value));
  db.close();
  return file;
}

const rowsOf = (file: string) => MasterDb.open(file, 'unit.db_', new Map(), new Findings()).rows('t');

describe('integers of a master database', () => {
  it('are read as exact numbers up to ±(2^53 - 1), beside reals, texts and nulls', async () => {
    const values = [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 0, 1.5, 'text', null];
    expect(rowsOf(await tableOf(values))).toEqual(values.map((value, i) => ({ id: i + 1, 'odd "name"': value })));
  });

  it('a real beyond them is no integer: read as it is, not refused', async () => {
    const values = [1e20, -(2 ** 60), 1];
    expect(rowsOf(await tableOf(values))).toEqual(values.map((value, i) => ({ id: i + 1, 'odd "name"': value })));
  });

  it('beyond that, are refused naming the row and column, in a column of any name', async () => {
    const file = await tableOf([1, 2n ** 53n]);
    expect(() => rowsOf(file)).toThrow(/unit\.db: t row 2 \(id 2\): odd "name" is 9007199254740992; integers beyond/);
  });
});
