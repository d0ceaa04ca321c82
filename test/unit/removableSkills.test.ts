/** School Idol Skills: unit_removable_skill_m, at the model level. */
import { describe, expect, it } from 'vitest';
import { modelOf } from '../helpers.ts';
import { unitTables } from '../fixtures.ts';
import { encryptValues, sampleKey } from '../../generator/build/sample/rowEncrypt.ts';
import type { Row, TableDump } from '../../generator/build/sample/sql.ts';

/** A unit_removable_skill_m row with the columns real exports have; `skill` overrides them. */
const skillRow = (skill: Row): Row => ({
  unit_removable_skill_id: 1, name: 'スキル', name_en: null, skill_type: 1, unit_rarity: null, level: 1,
  icon_asset: 'assets/image/skill/s_1.png', icon_asset_en: null, bond_asset: 'assets/image/skill/b_1.png', size: 1,
  description: null, description_en: null, effect_range: 1, effect_type: 11, effect_value: 200, fixed_value_flag: 1,
  target_reference_type: 0, target_type: 0, trigger_reference_type: 0, trigger_type: 1, sub_skill_id: null,
  selling_price: 500, release_tag: null, _encryption_release_id: null, ...skill,
});

const skillTable = (rows: Row[]): TableDump => ({
  name: 'unit_removable_skill_m',
  columns: Object.fromEntries(Object.keys(skillRow({})).map((c) => [c, ''])),
  rows: rows.map(skillRow),
});

const unitWith = (...extra: TableDump[]) => unitTables('modern', { cards: [{}], extra });

describe('School Idol Skills (unit_removable_skill_m)', () => {
  it('keeps every column the table has, as stored, in id order', async () => {
    const { model } = await modelOf({ 'unit.sql': unitWith(skillTable([{ unit_removable_skill_id: 9, effect_value: 2.5 }, { unit_removable_skill_id: 2 }])) });
    expect(model.removableSkills.map((s) => s.id)).toEqual([2, 9]);
    expect(model.removableSkills[1].columns).toEqual({
      skill_type: 1, unit_rarity: null, level: 1, icon_asset: 'assets/image/skill/s_1.png', icon_asset_en: null,
      bond_asset: 'assets/image/skill/b_1.png', size: 1, effect_range: 1, effect_type: 11, effect_value: 2.5, fixed_value_flag: 1,
      target_reference_type: 0, target_type: 0, trigger_reference_type: 0, trigger_type: 1, sub_skill_id: null, selling_price: 500,
    });
  });

  it('names in English from the English export, else the name_en column, else the crowd translations', async () => {
    const rows: Row[] = [
      { unit_removable_skill_id: 1, name: 'キッス', name_en: 'Kiss (column)', description: 'スマイル+200', description_en: 'Smile +200' },
      { unit_removable_skill_id: 2, name: 'パフューム', name_en: 'Perfume' },
      { unit_removable_skill_id: 3, name: 'リング' },
      { unit_removable_skill_id: 4, name: 'クロス' },
    ];
    const english = [{ name: 'unit_removable_skill_m', columns: { unit_removable_skill_id: 'INTEGER', name: 'TEXT' }, rows: [{ unit_removable_skill_id: 1, name: 'Kiss' }] }];
    const { model } = await modelOf({
      'unit.sql': unitWith(skillTable(rows)), 'en/unit.sql': english, 'translations/skills.json': { 'リング': 'Ring' },
    });
    expect(model.removableSkills.map((s) => [s.name.original, s.name.secondary])).toEqual([
      ['キッス', 'Kiss'], ['パフューム', 'Perfume'], ['リング', 'Ring'], ['クロス', null],
    ]);
    expect(model.removableSkills.map((s) => s.description)).toEqual([{ original: 'スマイル+200', secondary: 'Smile +200' }, null, null, null]);
  });

  it('decrypts encrypted rows with release_info.json and leaves out (and counts) the rest', async () => {
    const hidden = (id: number, release: number) => skillRow({
      unit_removable_skill_id: id, name: '', sub_skill_id: 0, release_tag: encryptValues({ name: `ひみつ${id}`, effect_value: 9, sub_skill_id: false }, sampleKey(release)), _encryption_release_id: release,
    });
    const { model, report } = await modelOf({
      'unit.sql': unitWith(skillTable([hidden(1, 3), hidden(2, 4), { unit_removable_skill_id: 3 }])),
      'release_info.json': { 3: sampleKey(3).toString('base64') },
    });
    expect(model.removableSkills.map((s) => [s.id, s.name.original, s.columns.effect_value])).toEqual([[1, 'ひみつ1', 9], [3, 'スキル', 200]]);
    expect(model.removableSkills[0].columns.sub_skill_id).toBeNull(); // false stands for NULL in payloads
    expect(report.unreadable).toEqual({ unit_removable_skill_m: 1 });
  });

  it('are none when the export lacks the table', async () => {
    expect((await modelOf({ 'unit.sql': unitWith() })).model.removableSkills).toEqual([]);
  });
});
