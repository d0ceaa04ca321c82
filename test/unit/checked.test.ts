/**
 * Nothing served broken: ids that name no file and numbers that break an integer field are
 * left out with a warning naming table, row and field, never published; two rows naming one id
 * (however written) fail in one line.
 */
import path from 'node:path';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';
import { modelOf, renderInMemory, tempDir, writeDb } from '../helpers.ts';
import { unitTables } from '../fixtures.ts';
import { encryptValues, sampleKey } from '../../generator/build/sample/rowEncrypt.ts';
import type { Row } from '../../generator/build/sample/sql.ts';
import { UserError } from '../../generator/build/errors.ts';

async function rendered(cards: Row[], files: Record<string, unknown> = {}) {
  const input = await tempDir('sif-checked-');
  await writeDb(input, 'unit.sql', unitTables('modern', { cards }));
  for (const [name, value] of Object.entries(files)) await fs.outputJson(path.join(input, name), value);
  return renderInMemory(input);
}

/** Every id any published file of cards names: card files, generic objects, packs, the card list. */
function publishedCardIds(files: Map<string, Buffer>): number[] {
  const ids = new Set<number>();
  for (const [rel, bytes] of files) {
    if (!/^api\/v1\/(card|card_t|pack\/card|pack\/card_t)\/|^api\/v1\/card_list\.json$|^api\/v1\/list\/card_t\.json$/.test(rel)) continue;
    JSON.parse(bytes.toString('utf8'), (key, value) => (key === 'id' && typeof value === 'number' ? ids.add(value) : value));
  }
  return [...ids].sort((a, b) => a - b);
}

describe('ids that name no file', () => {
  it("text, negative, fractional and infinite ids are left out with a warning: nothing like card_t/NaN.json", async () => {
    const { files, report } = await rendered([
      { unit_id: 'abc', unit_number: 1 },
      { unit_id: -3, unit_number: 3 },
      { unit_id: 4.5, unit_number: 4 },
      { unit_id: 1e999, unit_number: 5 },
      { unit_id: 6, unit_number: 6 },
    ]);
    expect([...files.keys()].filter((rel) => /\/(NaN|-\d+|\d+\.\d+|Infinity)(\.json)?$/.test(rel))).toEqual([]);
    expect(publishedCardIds(files)).toEqual([6]);
    const shown = ['"abc"', '-3', '4.5', 'Infinity'];
    expect(report.warningKinds['unit_m: rows whose unit_id is no id']).toEqual({
      count: 4, examples: shown.slice(0, 3).map((id) => `unit_m: unit_id ${id} is not a whole number from 0 to 999999999; the row is left out`),
    });
  });

  it("two rows naming one id are refused in one line, also as '0x1' in a dump and \"1\" in an encrypted row", async () => {
    const dump = unitTables('modern', { cards: [{ unit_id: 1, unit_number: 1 }, { unit_id: '0x1', unit_number: 2 }] });
    await expect(modelOf({ 'unit.sql': dump })).rejects.toBeInstanceOf(UserError);
    await expect(modelOf({ 'unit.sql': dump })).rejects.toThrow(/unit\.sql: unit_m has more than one row with unit_id 1$/);
    const key = sampleKey(3);
    const hidden = { unit_id: '1', unit_number: 2, rarity: 1 };
    const encrypted = unitTables('modern', {
      cards: [{ unit_id: 1, unit_number: 1 }, { unit_id: 7, unit_number: 0, release_tag: encryptValues(hidden, key), _encryption_release_id: 3 }],
    });
    await expect(modelOf({ 'unit.sql': encrypted, 'release_info.json': { 3: key.toString('base64') } }))
      .rejects.toThrow(/unit\.sql: unit_m has more than one row with unit_id 1$/);
  });
});

describe('integers beyond 2^53 in an encrypted row', () => {
  it('are refused in one line naming the table, row and column: the payload\'s JSON has already rounded them', async () => {
    const key = sampleKey(3);
    const hidden = { unit_id: 7, unit_number: 2, rarity: 1, hp_max: 2 ** 53 + 2 };
    const encrypted = unitTables('modern', {
      cards: [{ unit_id: 1, unit_number: 1 }, { unit_id: 7, unit_number: 0, release_tag: encryptValues(hidden, key), _encryption_release_id: 3 }],
    });
    await expect(modelOf({ 'unit.sql': encrypted, 'release_info.json': { 3: key.toString('base64') } }))
      .rejects.toThrow(/unit\.sql: unit_m row 2 \(unit_id 7\): hp_max \(encrypted\) is 9007199254740994; integers beyond ±9007199254740991 \(2\^53 - 1\) have no exact JSON number and are refused$/);
  });
});

describe('numbers that break an integer field', () => {
  it('a card with 1.5, Infinity or text where its schema says integer is left out of every file, with a warning naming table, row and field', async () => {
    const { files, report } = await rendered([
      { unit_id: 1, unit_number: 1 },
      { unit_id: 2, unit_number: 2, rarity: 1.5 },
      { unit_id: 3, unit_number: 3, hp_max: 1e999 },
      { unit_id: 4, unit_number: 4, hp_max: 'text' },
    ], { 'sets.json': [{ id: 'all', display_name: 'All', ordinals: [1, 2, 3, 4] }] });
    expect(publishedCardIds(files)).toEqual([1]);
    expect(JSON.parse(files.get('api/v1/set/all.json')!.toString()).cards.map((c: { id: number }) => c.id)).toEqual([1]);
    const warning = report.warnings.find((w) => w.startsWith('objects that do not fit their declared schema (left out) (3 warnings)'));
    expect(warning).toContain('unit_m: unit_id 2: /rarity: Expected integer, found 1.5; it is left out');
    expect(warning).toContain('unit_m: unit_id 3: /hp_base: Expected integer, found Infinity; it is left out');
    expect(warning).toContain('unit_m: unit_id 4: /hp_base: Expected integer, found NaN; it is left out');
  });
});
