/** Accessories: /api/v1/accessory/<id>.json and /api/v1/accessory_list.json, checked against the accessory tables. */
import fs from 'fs-extra';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSample, copySample, readJson, renderInMemory, SAMPLE_INPUT, tempDir, writeDb } from '../helpers.ts';
import { unitTables } from '../fixtures.ts';
import type { Row, TableDump } from '../../generator/build/sample/sql.ts';
import type { AccessoryJson, AccessoryListJson, CardListJson } from '../../generator/contract/schemas.ts';

type DbRow = Record<string, any>;

let out: string;
let sampleDb: Database.Database;
const query = (sql: string, ...params: unknown[]): DbRow[] => sampleDb.prepare(sql).all(...params) as DbRow[];
/** The one accessory of an accessory file. */
const onlyAccessory = (file: { accessories: AccessoryJson[] }): AccessoryJson => {
  expect(file.accessories).toHaveLength(1);
  return file.accessories[0];
};
const accessory = async (dir: string, id: number) => onlyAccessory(await readJson(dir, `api/v1/accessory/${id}.json`));

beforeAll(async () => {
  ({ out } = await buildSample());
  sampleDb = new Database(':memory:');
  sampleDb.exec(fs.readFileSync(path.join(SAMPLE_INPUT, 'unit.sql'), 'utf8'));
});

/** Limited to ordinal 21; 201 trigger; material; character target; tag target; limited to the keyed encrypted card. */
const CHECKED = [1, 5, 6, 9, 4, 3];

describe('/api/v1/accessory/<id>.json', () => {
  it('publishes one file per accessory_m row', () => {
    const files = fs.readdirSync(path.join(out, 'api/v1/accessory')).map((f) => Number.parseInt(f, 10)).sort((a, b) => a - b);
    expect(files).toEqual(query('SELECT accessory_id FROM accessory_m ORDER BY accessory_id').map((r) => r.accessory_id));
  });

  it('copies accessory_m and accessory_asset_m values row by row', async () => {
    for (const id of CHECKED) {
      const row = query('SELECT * FROM accessory_m WHERE accessory_id = ?', id)[0];
      const asset = query('SELECT * FROM accessory_asset_m WHERE accessory_asset_id = ?', row.accessory_asset_id)[0];
      expect(await accessory(out, id), `accessory ${id}`).toMatchObject({
        id, name: row.name, name_en: row.name_en, rarity: row.rarity,
        smile_max: row.smile_max, pure_max: row.pure_max, cool_max: row.cool_max,
        is_material: row.is_material === 1, effect_type: row.effect_type, trigger_type: row.trigger_type,
        trigger_fixed_param: row.trigger_effect_type, default_level_max: row.default_max_level, level_max: row.max_level,
        icon_name: path.posix.basename(asset.icon_asset),
      });
    }
    expect((await accessory(out, 5)).trigger_type).toBe(201);
    expect((await accessory(out, 5)).trigger_fixed_param).toBe(3);
    expect((await accessory(out, 6)).is_material).toBe(true);
  });

  it('has per-level arrays over every accessory_level_m row, past level_max', async () => {
    for (const id of CHECKED) {
      const acc = await accessory(out, id);
      const row = query('SELECT * FROM accessory_m WHERE accessory_id = ?', id)[0];
      const levels = query('SELECT * FROM accessory_level_m WHERE accessory_id = ? ORDER BY level', id);
      expect(levels.length).toBeGreaterThan(acc.level_max);
      expect(acc).toMatchObject({
        smile: levels.map((l) => row.smile_max - l.smile_diff),
        pure: levels.map((l) => row.pure_max - l.pure_diff),
        cool: levels.map((l) => row.cool_max - l.cool_diff),
        effect_val: levels.map((l) => l.effect_value),
        effect_dur: levels.map((l) => l.discharge_time),
        trigger_val: levels.map((l) => l.trigger_value),
        probability: levels.map((l) => l.activation_rate),
        next_exp: levels.map((l) => l.next_exp),
        grant_exp: levels.map((l) => l.grant_exp),
        merge_cost: levels.map((l) => l.merge_cost),
        sale_price: levels.map((l) => l.sale_price),
      });
    }
  });

  it('names effect targets as "<reference type>,<target>" with the tag or character name', async () => {
    for (const id of CHECKED) {
      const targets = query('SELECT * FROM accessory_effect_target_m WHERE accessory_id = ?', id);
      const expected = targets.map((t) => `${t.reference_type},${t.effect_target}`);
      expect((await accessory(out, id)).effect_targets).toEqual(expected.length ? expected : null);
    }
    expect(await accessory(out, 4)).toMatchObject({ effect_targets: ['2,4'], effect_target_name: 'Stella' });
    expect(await accessory(out, 9)).toMatchObject({ effect_targets: ['3,105'], effect_target_name: 'Asakura Kanade' });
    expect(await accessory(out, 5)).toMatchObject({ effect_targets: null, effect_target_name: null });
  });

  it('links a limited accessory to its card, the encrypted one included when its key is known', async () => {
    const stubs = new Map((await readJson<CardListJson>(out, 'api/v1/card_list.json')).stubs.map((c) => [c.id, c]));
    for (const id of CHECKED) {
      const special = query('SELECT * FROM accessory_special_m WHERE accessory_id = ?', id)[0];
      const acc = await accessory(out, id);
      const stub = special ? stubs.get(special.unit_id)! : null;
      expect(acc, `accessory ${id}`).toMatchObject({
        is_limited: !!special, unit_stub: stub, unit_ordinal: stub?.ordinal ?? null, unit_type_id: stub?.type_id ?? null,
      });
    }
    expect(await accessory(out, 3)).toMatchObject({ is_limited: true, unit_ordinal: 35, unit_type_id: 104 });
  });
});

describe('/api/v1/accessory_list.json', () => {
  it('lists every accessory in id order, valid unless a material', async () => {
    const list: AccessoryListJson = await readJson(out, 'api/v1/accessory_list.json');
    const rows = query('SELECT * FROM accessory_m ORDER BY accessory_id');
    expect(list.accessories.map((a) => a.id)).toEqual(rows.map((r) => r.accessory_id));
    for (const [i, row] of rows.entries()) {
      expect(list.accessories[i]).toMatchObject({ name: row.name, rarity: row.rarity, is_material: row.is_material === 1, is_valid: row.is_material === 0 });
    }
    expect(list.accessories.filter((a) => !a.is_valid).map((a) => a.id)).toEqual([6, 7]);
  });
});

describe('an accessory limited to a card whose row stays encrypted', () => {
  it('is limited with null unit fields', async () => {
    const input = await copySample();
    fs.writeFileSync(path.join(input, 'release_info.json'), '{}');
    const { json, report } = await renderInMemory(input);
    expect(onlyAccessory(json(`api/v1/accessory/3.json`))).toMatchObject({ is_limited: true, unit_ordinal: null, unit_type_id: null, unit_stub: null });
    expect(onlyAccessory(json(`api/v1/accessory/1.json`)).unit_ordinal).toBe(21);
    expect(report.warnings.some((w) => /accessory_special_m: accessories 3 belong to cards that are unreadable/.test(w))).toBe(true);
  });
});

/** accessory_m rows with defaults, and two level rows for each. */
function accessoryTables(accessories: Row[], extra: TableDump[] = []): TableDump[] {
  const rows = accessories.map((a) => ({
    accessory_id: 1, name: 'テスト', name_en: null, rarity: 2, smile_max: 100, pure_max: 80, cool_max: 60, is_material: 0,
    effect_type: 11, default_max_level: 1, max_level: 1, accessory_asset_id: 7, trigger_type: 1, trigger_effect_type: 0, ...a,
  }));
  const levels = rows.flatMap((a) => [1, 2].map((level) => ({
    accessory_id: a.accessory_id, level, next_exp: 10 * level, effect_value: 1.5, discharge_time: 2, trigger_value: 9,
    activation_rate: 30, smile_diff: 3 - level, pure_diff: 0, cool_diff: 0, grant_exp: 5, merge_cost: 6, sale_price: 7,
  })));
  const columns = (list: Row[]) => Object.fromEntries(Object.keys(list[0]).map((c) => [c, '']));
  return [
    { name: 'accessory_m', columns: columns(rows), rows },
    { name: 'accessory_level_m', columns: columns(levels), rows: levels },
    ...extra,
  ];
}

/** A small export rendered in memory. */
async function renderFixture(tables: TableDump[], english?: TableDump[]) {
  const input = await tempDir();
  await writeDb(input, 'unit.sql', tables);
  if (english) await writeDb(input, 'en/unit.sql', english);
  return renderInMemory(input);
}

describe('accessory tables in small exports', () => {
  const card = { unit_id: 1, unit_number: 5, unit_type_id: 10 };

  it('a legacy export without accessory tables publishes an empty list', async () => {
    const { files, json } = await renderFixture(unitTables('legacy', { cards: [card] }));
    expect(json('api/v1/accessory_list.json')).toEqual({ accessories: [] });
    expect([...files.keys()].filter((rel) => rel.startsWith('api/v1/accessory/'))).toEqual([]);
  });

  it('without the optional target, special and asset tables: no targets, not limited, no icon', async () => {
    const { json } = await renderFixture(unitTables('modern', { cards: [card], extra: accessoryTables([{ accessory_id: 1 }]) }));
    expect(onlyAccessory(json('api/v1/accessory/1.json'))).toMatchObject({
      effect_targets: null, effect_target_name: null, is_limited: false, unit_ordinal: null, unit_type_id: null, unit_stub: null,
      icon_name: null, smile: [98, 99], next_exp: [10, 20],
    });
  });

  it('joins several targets, links the owning card and reads the icon file name', async () => {
    const extra: TableDump[] = [
      {
        name: 'accessory_effect_target_m', columns: { accessory_id: '', reference_type: '', effect_target: '' },
        rows: [{ accessory_id: 1, reference_type: 2, effect_target: 4 }, { accessory_id: 1, reference_type: 3, effect_target: 10 }],
      },
      { name: 'accessory_special_m', columns: { accessory_id: '', unit_id: '' }, rows: [{ accessory_id: 1, unit_id: 1 }] },
      { name: 'accessory_asset_m', columns: { accessory_asset_id: '', icon_asset: '' }, rows: [{ accessory_asset_id: 7, icon_asset: 'assets/image/acc/icon_7.png' }] },
    ];
    const { json } = await renderFixture(unitTables('modern', { cards: [card], extra: accessoryTables([{ accessory_id: 1 }], extra) }));
    expect(onlyAccessory(json('api/v1/accessory/1.json'))).toMatchObject({
      effect_targets: ['2,4', '3,10'], effect_target_name: 'グループ, テスト',
      is_limited: true, unit_ordinal: 5, unit_type_id: 10, icon_name: 'icon_7.png',
    });
  });

  it('takes name_en from the English export, then the name_en column, else ""', async () => {
    const accessories = accessoryTables([
      { accessory_id: 1, name_en: 'Column name' },
      { accessory_id: 2, name_en: 'Column only' },
      { accessory_id: 3 },
    ]);
    const english: TableDump[] = [{ name: 'accessory_m', columns: { accessory_id: '', name: '' }, rows: [{ accessory_id: 1, name: 'English name' }] }];
    const { json } = await renderFixture(unitTables('modern', { cards: [card], extra: accessories }), english);
    const list: AccessoryListJson = json('api/v1/accessory_list.json');
    expect(list.accessories.map((a) => a.name_en)).toEqual(['English name', 'Column only', '']);
  });

  it('fails naming accessory_level_m when accessory_m has no level table', async () => {
    const [accessoryM] = accessoryTables([{ accessory_id: 1 }]);
    await expect(renderFixture(unitTables('modern', { cards: [card], extra: [accessoryM] }))).rejects.toThrow(/required table accessory_level_m is missing/);
  });
});
