/** Input rules: where databases are found, both schema generations, encryption, English export; each export rendered in memory. */
import path from 'node:path';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';
import { renderInMemory, tempDir, writeDb } from '../helpers.ts';
import { unitTables, type Schema } from '../fixtures.ts';
import { encryptValues, sampleKey } from '../../generator/build/sample/rowEncrypt.ts';
import type { Row, TableDump } from '../../generator/build/sample/sql.ts';
import type { CardJson } from '../../generator/contract/schemas.ts';

/** Writes a one-database export and renders it in memory. */
async function buildExport(tables: TableDump[], rel = 'unit.sql', files: Record<string, unknown> = {}) {
  const input = await tempDir('sif-input-');
  await writeDb(input, rel, tables);
  for (const [name, value] of Object.entries(files)) await fs.outputJson(path.join(input, name), value);
  const rendered = await renderInMemory(input);
  const card = async (ordinal: number): Promise<CardJson> => rendered.json(`api/v1/card/${ordinal}.json`).cards[0];
  const exists = async (ordinal: number) => rendered.files.has(`api/v1/card/${ordinal}.json`);
  return { ...rendered, input, card, exists };
}

const oneCard = (schema: Schema, card: Row = {}) => unitTables(schema, { cards: [card] });

describe('input discovery', () => {
  for (const rel of ['db/unit/unit.db_', 'unit.db_', 'unit.db', 'unit.sqlite', 'unit.db.sql', 'unit.sql', 'dumps/2024/unit.sql']) {
    it(`finds the unit database at ${rel}`, async () => {
      const { card } = await buildExport(oneCard('modern', { eponym: '見つけた' }), rel);
      expect((await card(1)).title).toBe('見つけた');
    });
  }

  it('prefers the client file over a SQL dump, with a warning', async () => {
    const input = await tempDir();
    await writeDb(input, 'db/unit/unit.db_', oneCard('modern', { eponym: 'client' }));
    await writeDb(input, 'unit.sql', oneCard('modern', { eponym: 'dump' }));
    const { json, report } = await renderInMemory(input);
    expect(json('api/v1/card/1.json').cards[0].title).toBe('client');
    expect(report.warnings.join('\n')).toMatch(/several unit databases/);
  });

  it('fails with a clear error when no unit database exists', async () => {
    await expect(renderInMemory(await tempDir())).rejects.toThrow(/no unit database found/);
  });

  it('names the file when it is not a SQLite database', async () => {
    const input = await tempDir();
    await fs.outputFile(path.join(input, 'unit.db_'), 'this is not sqlite at all, just some text '.repeat(50));
    await expect(renderInMemory(input)).rejects.toThrow(/unit\.db_: not a readable SQLite database/);
  });

  it('names the file when a SQL dump does not load', async () => {
    const input = await tempDir();
    await fs.outputFile(path.join(input, 'unit.sql'), 'CREATE TABLE unit_m (unit_id INTEGER;');
    await expect(renderInMemory(input)).rejects.toThrow(/unit\.sql: not a loadable SQL dump/);
  });
});

describe('schema generations of unit_m', () => {
  it('legacy: caps on the card row, center skill names, pre-transformed by equal card ids', async () => {
    const { card } = await buildExport(unitTables('legacy', {
      cards: [
        { unit_id: 1, unit_number: 1, default_leader_skill_id: 3 },
        { unit_id: 2, unit_number: 2, normal_card_id: 7, rank_max_card_id: 7 },
        { unit_id: 3, unit_number: 3, normal_card_id: 8, rank_max_card_id: 8, disable_rank_up: 1 },
      ],
    }));
    expect(await card(1)).toMatchObject({ normal_max_level: 3, transformed_max_level: 5, normal_max_kizuna: 10, transformed_max_kizuna: 20, is_pre_transformed: 0 });
    expect((await card(1)).center_skill).toMatchObject({ name: 'センター', percent: 9, extra_apply_type: 4, extra_percent: 3 });
    expect((await card(2)).is_pre_transformed).toBe(1);
    expect(await card(3)).toMatchObject({ is_pre_transformed: 0, is_transform_disabled: 1, is_support_card: 1 });
  });

  it('modern: caps from unit_rarity_m, ranks decide idolization, album series as album page', async () => {
    const { card } = await buildExport(unitTables('modern', {
      cards: [
        { unit_id: 1, unit_number: 1, rarity: 4, album_series_id: 12 },
        { unit_id: 2, unit_number: 2, rank_min: 2, rank_max: 2, disable_rank_up: 5 },
        { unit_id: 3, unit_number: 3, rank_min: 1, rank_max: 1, disable_rank_up: 6 },
      ],
    }));
    expect(await card(1)).toMatchObject({ normal_max_level: 6, transformed_max_level: 8, normal_max_kizuna: 50, transformed_max_kizuna: 100, album_page_id: 12 });
    expect(await card(2)).toMatchObject({ is_pre_transformed: 1, is_transform_disabled: 0 });
    expect(await card(3)).toMatchObject({ is_costume_card: 1, is_transform_disabled: 1, is_pre_transformed: 0 });
  });

  it('leaves out placeholder rows with unit_number 0', async () => {
    const { exists } = await buildExport(unitTables('modern', { cards: [{ unit_id: 1, unit_number: 1 }, { unit_id: 2, unit_number: 0 }] }));
    expect(await exists(1)).toBe(true);
    expect(await exists(0)).toBe(false);
  });
});

describe('per-level arrays and EXP', () => {
  it('run from level 1 to the highest reachable cap: stat_max - stat_diff', async () => {
    const { card } = await buildExport(oneCard('modern'));
    const c = await card(1);
    // Caps 3/5; pattern diffs shrink by 10 (smile) and 5 (pure) per level from level 1 of 8.
    expect(c.smile).toEqual([930, 940, 950, 960, 970]);
    expect(c.pure).toEqual([965, 970, 975, 980, 985].map((v) => v - 200));
    expect(c.cool).toEqual([600, 600, 600, 600, 600]);
    expect(c.stamina).toEqual([3, 3, 3, 3, 4]);
    expect(c.sell_price).toEqual([20, 21, 22, 23, 24]);
    expect(c.exp_given).toEqual([10, 11, 12, 13, 14]);
    // next_exp of level L is the cumulative EXP to reach L+1.
    expect(c.normal_max_level_exp).toBe(200);
    expect(c.transformed_max_level_exp).toBe(400);
  });

  it('stop at the normal cap for cards that can never be idolized', async () => {
    const { card } = await buildExport(oneCard('modern', { rank_max: 1, disable_rank_up: 1 }));
    expect((await card(1)).smile).toHaveLength(3);
  });

  it('take levels beyond the normal pattern from unit_level_limit_pattern_m', async () => {
    const base = unitTables('modern', { cards: [{ rarity: 4 }] });
    const pattern = base.find((t) => t.name === 'unit_level_up_pattern_m')!;
    const limit: TableDump = { ...pattern, name: 'unit_level_limit_pattern_m', rows: [] };
    for (const level of [7, 8]) limit.rows.push({ ...pattern.rows[0], unit_level: level, smile_diff: 0, pure_diff: 0, next_exp: level * 1000 });
    pattern.rows = pattern.rows.filter((r) => Number(r.unit_level) <= 6);
    const { card } = await buildExport([...base, limit]);
    const c = await card(1);
    expect(c.smile).toHaveLength(8);
    expect(c.smile.slice(6)).toEqual([1000, 1000]);
    expect(c.transformed_max_level_exp).toBe(7000);
  });

  it('list skill levels in level order whatever the row order', async () => {
    const { card } = await buildExport(oneCard('modern', { default_unit_skill_id: 5 }));
    expect((await card(1)).skill).toMatchObject({ probability: [30, 40], effect_val: [1.25, 2.5], effect_dur: [1, 1.5], trigger_val: [25, 20] });
  });
});

describe('required and optional tables', () => {
  const cases: [string, Row][] = [
    ['unit_rarity_m', {}],
    ['unit_level_up_pattern_m', {}],
    ['unit_type_m', {}],
    ['unit_skill_m', { default_unit_skill_id: 5 }],
    ['unit_skill_level_m', { default_unit_skill_id: 5 }],
    ['unit_leader_skill_m', { default_leader_skill_id: 3 }],
  ];
  for (const [table, card] of cases) {
    it(`fails naming ${table} when a card needs it and it is missing`, async () => {
      const tables = unitTables('modern', { cards: [card], without: [table] });
      await expect(buildExport(tables)).rejects.toThrow(new RegExp(`required table ${table} is missing`));
    });
  }

  it('builds without the optional tag, skill-target and extra tables', async () => {
    const tables = unitTables('modern', {
      cards: [{ default_leader_skill_id: 3 }],
      without: ['member_tag_m', 'unit_type_member_tag_m', 'unit_leader_skill_extra_m', 'unit_skill_m', 'unit_skill_level_m'],
    });
    const { card } = await buildExport(tables);
    expect(await card(1)).toMatchObject({ year: 0, sub_affiliation: 0, skill: null });
    expect((await card(1)).center_skill).toMatchObject({ extra_apply_type: 0, extra_apply_type_name: '' });
  });
});

describe('encrypted rows', () => {
  const key = sampleKey(3);
  const keys = { 'release_info.json': { 3: key.toString('base64') } };
  const encrypted = (values: Row): Row => ({
    unit_id: values.unit_id, unit_number: 0, rarity: 0, release_tag: encryptValues(values, key), _encryption_release_id: 3,
  });
  const tables = () => unitTables('modern', {
    cards: [
      { unit_id: 1, unit_number: 1 },
      encrypted({ unit_id: 2, unit_number: 2, unit_type_id: 10, eponym: 'ひみつ', rarity: 4, attribute_id: 2, disable_rank_up: 0, unit_level_up_pattern_id: 1, smile_max: 5000, pure_max: 4000, cool_max: 3000, hp_max: 5, rank_min: 1, rank_max: 2 }),
      { unit_id: 3, unit_number: 3, release_tag: 'None', _encryption_release_id: 'None' },
      { unit_id: 4, unit_number: 4, release_tag: null, _encryption_release_id: 3 },
      { unit_id: 5, unit_number: 5, release_tag: 'abcd', _encryption_release_id: 3 },
    ],
  });

  it('are decrypted with the key from release_info.json', async () => {
    const { card, report } = await buildExport(tables(), 'unit.sql', keys);
    expect(await card(2)).toMatchObject({ id: 2, title: 'ひみつ', rarity: 4, attribute: 2 });
    expect((await card(2)).smile[0]).toBe(5000 - 70);
    expect(report.unreadable).toEqual({});
  });

  it('are left out and counted without their key, never crashing the build', async () => {
    const { exists, report } = await buildExport(tables());
    expect(await exists(2)).toBe(false);
    expect(report.unreadable).toEqual({ unit_m: 1 });
    for (const plain of [1, 3, 4, 5]) expect(await exists(plain)).toBe(true);
  });

  it('stay unreadable under a wrong key', async () => {
    const { exists, report } = await buildExport(tables(), 'unit.sql', { 'release_info.json': { 3: sampleKey(9).toString('base64') } });
    expect(await exists(2)).toBe(false);
    expect(report.unreadable).toEqual({ unit_m: 1 });
  });

  it('reject a malformed release_info.json naming the file', async () => {
    await expect(buildExport(tables(), 'unit.sql', { 'release_info.json': { 3: 'short' } })).rejects.toThrow(/release_info\.json: key for release 3/);
  });
});

describe('secondary language', () => {
  const english: TableDump[] = [
    { name: 'unit_m', columns: { unit_id: '', eponym: '', name: '' }, rows: [{ unit_id: 1, eponym: 'From English', name: 'Card Name EN' }] },
    { name: 'unit_type_m', columns: { unit_type_id: '', name: '' }, rows: [{ unit_type_id: 10, name: 'Type Name EN' }] },
  ];
  const cards: Row[] = [
    { unit_id: 1, unit_number: 1, eponym: 'タイトル', eponym_en: 'Column Title', name_en: 'Column Name' },
    { unit_id: 2, unit_number: 2, eponym: 'タイトル2', eponym_en: 'Column Title 2', name_en: 'Column Name' },
    { unit_id: 3, unit_number: 3, unit_type_id: 20, eponym: 'タイトル3', name: 'ほか' },
  ];

  it('prefers the English export, then *_en columns, then the original', async () => {
    const input = await tempDir();
    await writeDb(input, 'unit.sql', unitTables('modern', { cards }));
    await writeDb(input, 'en/db/unit/unit.db_', english);
    const { json } = await renderInMemory(input);
    const card = async (o: number): Promise<CardJson> => json(`api/v1/card/${o}.json`).cards[0];
    expect(await card(1)).toMatchObject({ title_en: 'From English', char_name: 'Card Name EN', original_char_name: 'テスト' });
    expect(await card(2)).toMatchObject({ title_en: 'Column Title 2', char_name: 'Type Name EN' });
    expect(await card(3)).toMatchObject({ title_en: '', char_name: 'ほか' });
  });

  it('falls back to crowd translations of the title and the name, so title_en and char_name are strings', async () => {
    const input = await tempDir();
    await writeDb(input, 'unit.sql', unitTables('modern', { cards: [{ unit_id: 3, unit_number: 3, unit_type_id: 20, name: 'ほか', eponym: 'ひみつの題' }] }));
    await fs.outputJson(path.join(input, 'translations/crowd.json'), { 'ほか': 'Hoka', 'ひみつの題': 'Secret Title' });
    const { json } = await renderInMemory(input);
    expect(json('api/v1/card/3.json').cards[0]).toMatchObject({ title: 'ひみつの題', title_en: 'Secret Title', char_name: 'Hoka', original_char_name: 'ほか' });
  });
});

describe('truth version', () => {
  it('is a short hash of the input files when meta.json names none, and follows the input', async () => {
    const first = await buildExport(oneCard('modern'));
    const info = first.json('api/v1/info.json');
    expect(info.truth_version).toMatch(/^[0-9a-f]{12}$/);
    const second = await buildExport(oneCard('modern', { eponym: 'changed' }));
    expect(second.json('api/v1/info.json').truth_version).not.toBe(info.truth_version);
  });
});

describe('release dates', () => {
  const cards: Row[] = [1, 2, 3, 4, 6, 7].map((o) => ({ unit_id: o, unit_number: o }));

  it('are curated, else between two curated ordinals the nearest below, marked dirty; else null (dirty)', async () => {
    const { card } = await buildExport(unitTables('modern', { cards }), 'unit.sql', { 'release_dates.json': { 3: 300, 6: '1970/01/01 09:10:00' } });
    const dates = await Promise.all([1, 2, 3, 4, 6, 7].map(async (o) => (await card(o)).extra_data));
    expect(dates).toEqual([
      { release_date: null, release_date_is_dirty: 1 },
      { release_date: null, release_date_is_dirty: 1 },
      { release_date: 300, release_date_is_dirty: 0 },
      { release_date: 300, release_date_is_dirty: 1 },
      { release_date: 600, release_date_is_dirty: 0 }, // local JP time, +09:00 by default
      { release_date: null, release_date_is_dirty: 1 },
    ]);
  });

  it('are null and dirty when nothing is curated', async () => {
    const { card } = await buildExport(unitTables('modern', { cards }));
    expect((await card(4)).extra_data).toEqual({ release_date: null, release_date_is_dirty: 1 });
  });
});
