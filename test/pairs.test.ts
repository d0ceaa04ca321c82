/** Pairs: /api/v1/pair/<pair>.json and /api/v1/pair_list.json, checked against unit_pair_m rows. */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildInto, buildSample, copySample, readJson, renderInMemory, SAMPLE_INPUT, tempDir, writeDb } from './helpers.ts';
import { unitTables } from './fixtures.ts';
import { unitIdOf } from '../generator/sample/data.ts';
import type { PairJson, PairListJson } from '../generator/format.ts';

type Row = Record<string, any>;

let out: string;
let pairRows: Row[];

beforeAll(async () => {
  ({ out } = await buildSample());
  const db = new Database(':memory:');
  db.exec(fs.readFileSync(path.join(SAMPLE_INPUT, 'unit.sql'), 'utf8'));
  pairRows = db.prepare('SELECT * FROM unit_pair_m ORDER BY pair, position').all() as Row[];
  db.close();
});

describe('/api/v1/pair/<pair>.json', () => {
  it('holds the two cards of each pair in position order, row by row', async () => {
    const ids = [...new Set(pairRows.map((r) => r.pair))];
    expect(ids.length).toBeGreaterThanOrEqual(3);
    for (const id of ids) {
      const file: PairJson = await readJson(out, `api/v1/pair/${id}.json`);
      const rows = pairRows.filter((r) => r.pair === id);
      expect(file.pair).toBe(id);
      expect(file.cards).toHaveLength(2);
      expect(file.cards.map(({ unit_pair_id, unit_id, position, rank }) => ({ unit_pair_id, unit_id, position, rank })))
        .toEqual(rows.map(({ unit_pair_id, unit_id, position, rank }) => ({ unit_pair_id, unit_id, position, rank })));
      for (const entry of file.cards) {
        const cardFile = await readJson(out, `api/v1/card/${entry.card!.ordinal}.json`);
        expect(entry.card).toEqual(cardFile.cards[0]);
        expect(entry.card!.id).toBe(entry.unit_id);
      }
    }
  });

  it('publishes no file for a pair id the table lacks', () => {
    const files = fs.readdirSync(path.join(out, 'api/v1/pair')).sort();
    expect(files).toEqual([...new Set(pairRows.map((r) => `${r.pair}.json`))].sort());
  });
});

describe('/api/v1/pair_list.json', () => {
  it('lists every pair id with its cards in position order', async () => {
    const list: PairListJson = await readJson(out, 'api/v1/pair_list.json');
    expect(list.pairs).toEqual([
      { pair: 1, unit_ids: [unitIdOf(21), unitIdOf(22)], ordinals: [21, 22] },
      { pair: 2, unit_ids: [unitIdOf(23), unitIdOf(24)], ordinals: [23, 24] },
      { pair: 3, unit_ids: [unitIdOf(25), unitIdOf(26)], ordinals: [25, 26] },
    ]);
  });
});

describe('pairs whose card is encrypted or missing', () => {
  it('keeps the pair with a null card, and warns', async () => {
    const input = await copySample();
    // Pair 4: the still-encrypted ordinal 36 beside a unit_id that no row has, stored right before left.
    fs.appendFileSync(path.join(input, 'unit.sql'), [
      `INSERT INTO unit_pair_m VALUES(8, 4, 424242, 1, 1);`,
      `INSERT INTO unit_pair_m VALUES(7, 4, ${unitIdOf(36)}, 0, 2);`,
    ].join('\n'));
    const { out: dir, report } = await buildInto(input);
    const file: PairJson = await readJson(dir, 'api/v1/pair/4.json');
    expect(file).toEqual({
      pair: 4,
      cards: [
        { unit_pair_id: 7, unit_id: unitIdOf(36), position: 0, rank: 2, card: null },
        { unit_pair_id: 8, unit_id: 424242, position: 1, rank: 1, card: null },
      ],
    });
    const list: PairListJson = await readJson(dir, 'api/v1/pair_list.json');
    expect(list.pairs.at(-1)).toEqual({ pair: 4, unit_ids: [unitIdOf(36), 424242], ordinals: [null, null] });
    expect(report.warnings.some((w) => /unit_pair_m: 2 pair member\(s\) name no readable card/.test(w))).toBe(true);
  });
});

describe('exports without unit_pair_m', () => {
  it('publish an empty pair list and no pair files', async () => {
    const input = await tempDir();
    await writeDb(input, 'unit.sql', unitTables('legacy', { cards: [{ unit_id: 1, unit_number: 1 }] }));
    const { files, json } = renderInMemory(input);
    expect(json('api/v1/pair_list.json')).toEqual({ pairs: [] });
    expect([...files.keys()].filter((rel) => rel.startsWith('api/v1/pair/'))).toEqual([]);
  });
});
