/** Pairs: /api/v1/pair/<pair>.json and /api/v1/pair_list.json, checked against unit_pair_m rows. */
import fs from 'fs-extra';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSample, copySample, readJson, renderInMemory, SAMPLE_INPUT, tempDir, writeDb } from '../helpers.ts';
import { unitTables } from '../fixtures.ts';
import { unitIdOf } from '../../generator/build/sample/data.ts';
import type { CardsJson, PairListJson } from '../../generator/contract/schemas.ts';

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
  it('is {"cards": [card, card]}: the full card objects of each pair in position order', async () => {
    const ids = [...new Set(pairRows.map((r) => r.pair))];
    expect(ids.length).toBeGreaterThanOrEqual(3);
    for (const id of ids) {
      const file: CardsJson = await readJson(out, `api/v1/pair/${id}.json`);
      expect(Object.keys(file)).toEqual(['cards']);
      expect(file.cards.map((c) => c.id)).toEqual(pairRows.filter((r) => r.pair === id).map((r) => r.unit_id));
      for (const card of file.cards) expect(card).toEqual((await readJson(out, `api/v1/card/${card.ordinal}.json`)).cards[0]);
    }
  });

  it('publishes no file for a pair id the table lacks', () => {
    const files = fs.readdirSync(path.join(out, 'api/v1/pair')).sort();
    expect(files).toEqual([...new Set(pairRows.map((r) => `${r.pair}.json`))].sort());
  });
});

describe('/api/v1/pair_list.json', () => {
  it('lists every valid pair id with its unit_pair_m rows in position order', async () => {
    const list: PairListJson = await readJson(out, 'api/v1/pair_list.json');
    const member = (ordinal: number, position: number) => {
      const row = pairRows.find((r) => r.unit_id === unitIdOf(ordinal))!;
      return { unit_pair_id: row.unit_pair_id, unit_id: unitIdOf(ordinal), ordinal, position, rank: row.rank };
    };
    expect(list.pairs).toEqual([1, 2, 3].map((pair) => {
      const [left, right] = [19 + 2 * pair, 20 + 2 * pair];
      return { pair, unit_ids: [unitIdOf(left), unitIdOf(right)], ordinals: [left, right], members: [member(left, 0), member(right, 1)] };
    }));
  });
});

describe('pairs whose card is encrypted or missing', () => {
  it('are not published until both cards are readable, with a warning', async () => {
    const input = await copySample();
    // Pair 4: the still-encrypted ordinal 36 beside a unit_id that no row has.
    fs.appendFileSync(path.join(input, 'unit.sql'), [
      `INSERT INTO unit_pair_m VALUES(8, 4, 424242, 1, 1);`,
      `INSERT INTO unit_pair_m VALUES(7, 4, ${unitIdOf(36)}, 0, 2);`,
    ].join('\n'));
    const { files, json, report } = await renderInMemory(input);
    expect(files.has('api/v1/pair/4.json')).toBe(false);
    expect(files.has('api/v1/pair/3.json')).toBe(true);
    const list = json<PairListJson>('api/v1/pair_list.json');
    expect(list.pairs.map((p) => p.pair)).toEqual([1, 2, 3]);
    expect(report.warnings.join('\n')).toMatch(new RegExp(`unit_pair_m: 1 pair\\(s\\) name cards that are unreadable or missing .*4 \\(unit_id ${unitIdOf(36)}, 424242\\)`));
  });
});

describe('exports without unit_pair_m', () => {
  it('publish an empty pair list and no pair files', async () => {
    const input = await tempDir();
    await writeDb(input, 'unit.sql', unitTables('legacy', { cards: [{ unit_id: 1, unit_number: 1 }] }));
    const { files, json } = await renderInMemory(input);
    expect(json('api/v1/pair_list.json')).toEqual({ pairs: [] });
    expect([...files.keys()].filter((rel) => rel.startsWith('api/v1/pair/'))).toEqual([]);
  });
});
