/** Older generations and odd values of real exports: unit_level_m, member tags without display_flag, `None`, English from an older client. */
import { describe, expect, it } from 'vitest';
import { modelAt, renderInMemory, tempDir, writeDb } from '../helpers.ts';
import { objectEndpoint } from '../../generator/contract/endpoints.ts';
import { packOf } from '../../generator/contract/format.ts';
import { writeSampleExport } from '../../generator/build/sample/make-sample.ts';
import { levelPattern, unitTables } from '../fixtures.ts';
import type { Row, TableDump } from '../../generator/build/sample/sql.ts';
import type { CardJson } from '../../generator/contract/schemas.ts';

/** Renders an export of a unit database (and, when given, an English one) in memory. */
async function render(tables: TableDump[], english?: TableDump[]) {
  const input = await tempDir('sif-generation-');
  await writeDb(input, 'unit.sql', tables);
  if (english) await writeDb(input, 'en/unit.sql', english);
  const rendered = await renderInMemory(input);
  return { ...rendered, card: (ordinal: number): CardJson => rendered.json(`api/v1/card/${ordinal}.json`).cards[0] };
}

const table = (name: string, rows: Row[]): TableDump => ({
  name, columns: Object.fromEntries([...new Set(rows.flatMap(Object.keys))].map((c) => [c, ''])), rows,
});
const replace = (tables: TableDump[], ...replacements: TableDump[]) =>
  [...tables.filter((t) => !replacements.some((r) => r.name === t.name)), ...replacements];

describe('the 2015 generation: per-level stats in unit_level_m', () => {
  const modern = unitTables('legacy', { cards: [{ rarity: 1 }] });

  it('keyed by unit_level_up_pattern_id with the same columns: the same arrays as unit_level_up_pattern_m', async () => {
    const reference = (await render(modern)).card(1);
    const legacy = modern.filter((t) => t.name !== 'unit_level_up_pattern_m').concat(table('unit_level_m', levelPattern()));
    const c = (await render(legacy)).card(1);
    expect([c.smile, c.pure, c.cool, c.stamina, c.sell_price, c.exp_given, c.transformed_max_level_exp])
      .toEqual([reference.smile, reference.pure, reference.cool, reference.stamina, reference.sell_price, reference.exp_given, reference.transformed_max_level_exp]);
    expect(c.smile).toEqual([930, 940, 950, 960, 970]);
  });

  it('keyed by the card (unit_id) with stated stats instead of differences', async () => {
    const rows = [1, 2, 3, 4, 5].map((level) => ({
      unit_id: 1, unit_level: level, next_exp: level * 50, hp: 2 + (level > 3 ? 1 : 0), smile: 900 + level, pure: 700 + level, cool: 500 + level,
      merge_exp: level, merge_cost: 10, sale_price: 5 * level,
    }));
    const legacy = modern.filter((t) => t.name !== 'unit_level_up_pattern_m').concat(table('unit_level_m', rows));
    const c = (await render(legacy)).card(1);
    expect(c).toMatchObject({
      smile: [901, 902, 903, 904, 905], pure: [701, 702, 703, 704, 705], cool: [501, 502, 503, 504, 505], stamina: [2, 2, 2, 3, 3],
      sell_price: [5, 10, 15, 20, 25], exp_given: [1, 2, 3, 4, 5], normal_max_level_exp: 100, transformed_max_level_exp: 200,
    });
  });
});

describe('the 2015 generation as real exports have it: unit_level_m(unit_id, hp, smile, cute, cool, *_bonus_rate)', () => {
  const sampleCards = async (generation: 'current' | '2015') => {
    const input = await tempDir('sif-2015-');
    await writeSampleExport(input, { generation, images: false });
    const { json, report } = await renderInMemory(input);
    const cards: CardJson[] = json('api/v1/card_list.json').stubs.map((c: { ordinal: number }) => json(`api/v1/card/${c.ordinal}.json`).cards[0]);
    return { cards: new Map(cards.map((c) => [c.ordinal, c])), report };
  };

  it('publishes every per-level value and hp_base of the same cards in the current shape, and warns of nothing missing', async () => {
    const [current, old] = await Promise.all([sampleCards('current'), sampleCards('2015')]);
    const fields = ['hp_base', 'smile', 'pure', 'cool', 'stamina', 'sell_price', 'exp_given', 'normal_max_level_exp', 'transformed_max_level_exp'] as const;
    const compared = [...old.cards.values()].filter((c) => current.cards.has(c.ordinal));
    expect(compared.length).toBeGreaterThan(25);
    for (const card of compared) {
      const pick = (c: CardJson) => Object.fromEntries(fields.map((f) => [f, c[f]]));
      expect(pick(card), `card ${card.ordinal}`).toEqual(pick(current.cards.get(card.ordinal)!));
    }
    expect(compared.every((c) => c.hp_base > 0 && c.pure.every((v) => v > 0) && c.sell_price.every((v) => v > 0))).toBe(true);
    expect(old.report.warnings.filter((w) => /unit_level_m|hp_max/.test(w))).toEqual([]);
  });

  const card2015: Row = { unit_id: 1, unit_number: 1, rarity: 1, exp_base: 7, sale_base: 3 };
  const notIn2015 = new Set(['hp_max', 'smile_max', 'pure_max', 'cool_max', 'unit_level_up_pattern_id']);
  const levels2015 = (columns: (level: number) => Row) => table('unit_level_m', [1, 2, 3, 4, 5].map((level) => ({
    unit_id: 1, unit_level: level, next_exp: level * 50, hp: 1 + level, smile: 900 + level, cute: 700 + level, cool: 500 + level, skill: 0, ...columns(level),
  })));
  const without2015 = (tables: TableDump[], levels: TableDump) => {
    const unit = tables.find((t) => t.name === 'unit_m')!;
    const rows = unit.rows.map((r) => Object.fromEntries(Object.entries({ ...r, ...card2015 }).filter(([c]) => !notIn2015.has(c))));
    return replace(tables.filter((t) => t.name !== 'unit_level_up_pattern_m'), table('unit_m', rows), levels);
  };

  it('rounds base times rate down, and takes hp_base from the highest level', async () => {
    const levels = levels2015((level) => ({ exp_bonus_rate: 1 + level / 10, sale_bonus_rate: 1.5 * level }));
    const { card, report } = await render(without2015(unitTables('legacy', { cards: [{}] }), levels));
    expect(card(1)).toMatchObject({
      hp_base: 6, stamina: [2, 3, 4, 5, 6], pure: [701, 702, 703, 704, 705],
      exp_given: [7, 8, 9, 9, 10], sell_price: [4, 9, 13, 18, 22], normal_max_level_exp: 100,
    });
    // Every value found: no warning about the unit tables (this export has no live database, which is said once).
    expect(report.warnings.filter((w) => !w.startsWith('no live database'))).toEqual([]);
  });

  it('rounds a product a hair below a whole number in floating point down, as the game does; one at the number is it', async () => {
    expect(100 * 0.29).toBe(28.999999999999996);
    expect(100 * 0.25).toBe(25);
    // Levels 1-3: 0.29 (a hair below 29); levels 4-5: 0.25 (exactly 25).
    const levels = levels2015((level) => (level <= 3 ? { exp_bonus_rate: 0.29, sale_bonus_rate: 0.29 } : { exp_bonus_rate: 0.25, sale_bonus_rate: 0.25 }));
    const tables = without2015(unitTables('legacy', { cards: [{}] }), levels);
    const unit = tables.find((t) => t.name === 'unit_m')!;
    const { card } = await render(replace(tables, table('unit_m', unit.rows.map((r) => ({ ...r, exp_base: 100, sale_base: 100 })))));
    expect([card(1).exp_given, card(1).sell_price]).toEqual([[28, 28, 28, 25, 25], [28, 28, 28, 25, 25]]);
  });

  it('warns, naming the table and the columns looked for, of a value no column gives', async () => {
    const levels = table('unit_level_m', levels2015(() => ({})).rows.map(({ cute: _, ...rest }) => rest));
    const { card, report } = await render(without2015(unitTables('legacy', { cards: [{}] }), levels));
    expect(card(1).smile).toEqual([901, 902, 903, 904, 905]);
    const missing = report.warnings.filter((w) => w.includes('unit_level_m'));
    expect(missing.join('\n')).toMatch(/pure.*pure_diff.*cute/);
    expect(missing.join('\n')).toMatch(/sell_price.*sale_base.*sale_bonus_rate/);
    expect(missing.join('\n')).toMatch(/exp_given.*exp_base.*exp_bonus_rate/);
  });
});

describe('member tags without display_flag (before early 2017)', () => {
  it('count every tag of a character: the sub-unit is found as with display tags', async () => {
    const base = unitTables('legacy', { cards: [{ unit_type_id: 10 }] });
    const withFlags = (await render(base)).card(1);
    const tags = base.find((t) => t.name === 'member_tag_m')!;
    const noFlag = table('member_tag_m', tags.rows.map(({ display_flag: _, ...rest }) => rest));
    const c = (await render(replace(base, noFlag))).card(1);
    expect(withFlags.sub_affiliation).toBe(6);
    expect([c.affiliation, c.sub_affiliation, c.year]).toEqual([withFlags.affiliation, 6, withFlags.year]);
  });
});

describe('the text None', () => {
  it('is a missing value in text and id columns: never a title, a name or an id', async () => {
    const cards: Row[] = [
      { unit_id: 1, unit_number: 1, eponym: 'None', default_unit_skill_id: 'None', default_leader_skill_id: "'None'", normal_icon_asset: 'None' },
      { unit_id: 2, unit_number: 2, eponym: "'None'", album_series_id: 'None', release_tag: 'None', _encryption_release_id: 'None' },
    ];
    const { card, report } = await render(unitTables('modern', { cards }));
    expect(card(1)).toMatchObject({ title: '', title_en: '', skill: null, center_skill: null });
    expect(card(2)).toMatchObject({ title: '' });
    expect(report.warnings.filter((w) => /None|NaN/.test(w))).toEqual([]);
    expect(report.unreadable).toEqual({});
  });
});

describe('English from an older English client', () => {
  const main = unitTables('legacy', {
    cards: [{ unit_id: 1, unit_number: 1, eponym: 'タイトル', default_unit_skill_id: 5, default_leader_skill_id: 3 }],
  });
  // The English export numbers its skills differently: its card 1 links skill 50 and center skill 30.
  const english: TableDump[] = [
    table('unit_m', [{ unit_id: 1, eponym: 'Title EN', name: 'Name EN', default_unit_skill_id: 50, default_leader_skill_id: 30 }]),
    table('unit_skill_m', [{ unit_skill_id: 5, name: 'Wrong Skill' }, { unit_skill_id: 50, name: 'Perfect Charm' }]),
    table('unit_leader_skill_m', [{ unit_leader_skill_id: 3, name: 'Wrong Center' }, { unit_leader_skill_id: 30, name: 'Smile Heart' }]),
  ];

  it('names skills and center skills from the English card row, not only the same id', async () => {
    const c = (await render(main, english)).card(1);
    expect(c.skill).toMatchObject({ name: 'スキル', name_en: 'Perfect Charm' });
    expect(c.center_skill).toMatchObject({ name: 'センター', name_en: 'Smile Heart' });
  });

  it('falls back to the same id when the English export lacks the card', async () => {
    const withoutCard = english.map((t) => (t.name === 'unit_m' ? table('unit_m', [{ unit_id: 99, name: 'Other' }]) : t));
    expect((await render(main, withoutCard)).card(1).skill).toMatchObject({ name_en: 'Wrong Skill' });
  });

  it('treats English text still in Japanese script as missing', async () => {
    const untranslated = [
      table('unit_m', [{ unit_id: 1, eponym: 'タイトル', name: '高坂穂乃果', default_unit_skill_id: 50 }]),
      table('unit_skill_m', [{ unit_skill_id: 50, name: 'パーフェクトチャーム' }]),
    ];
    const cards = [{ unit_id: 1, unit_number: 1, eponym: 'タイトル', eponym_en: 'タイトル', name: '高坂穂乃果', name_en: 'Honoka', default_unit_skill_id: 5 }];
    const c = (await render(unitTables('modern', { cards }), untranslated)).card(1);
    expect(c).toMatchObject({ title_en: '', char_name: 'Honoka', skill: { name_en: '' } });
  });
});

describe('English where the English export lacks it', () => {
  const english: TableDump[] = [
    table('unit_m', [{ unit_id: 1, eponym: 'Title EN', name: 'Name EN', default_unit_skill_id: 50 }]),
    table('unit_skill_m', [{ unit_skill_id: 50, name: 'Perfect Charm' }]),
  ];

  it('names a skill no English card links to after a skill with the very same Japanese name', async () => {
    const skills = table('unit_skill_m', [
      { unit_skill_id: 5, name: 'スキル', max_level: 1, skill_effect_type: 11, discharge_type: 1, trigger_type: 3 },
      { unit_skill_id: 6, name: 'スキル', max_level: 1, skill_effect_type: 11, discharge_type: 1, trigger_type: 3 },
      { unit_skill_id: 7, name: '別のスキル', max_level: 1, skill_effect_type: 11, discharge_type: 1, trigger_type: 3 },
    ]);
    const cards = [{ unit_id: 1, unit_number: 1, default_unit_skill_id: 5 }, { unit_id: 2, unit_number: 2, default_unit_skill_id: 6 }, { unit_id: 3, unit_number: 3, default_unit_skill_id: 7 }];
    const { card } = await render(replace(unitTables('legacy', { cards }), skills), english);
    expect([1, 2, 3].map((o) => card(o).skill?.name_en)).toEqual(['Perfect Charm', 'Perfect Charm', '']);
  });

  it('names years, groups and sub-units with the game\'s fixed names when the English export has no member tags', async () => {
    const tags = table('member_tag_m', [
      { member_tag_id: 2, name: '2年生', display_flag: 1 }, { member_tag_id: 4, name: "μ's", display_flag: 1 },
      { member_tag_id: 6, name: 'Printemps', display_flag: 1 }, { member_tag_id: 7, name: 'ひみつ', display_flag: 0 },
    ]);
    const { json } = await render(replace(unitTables('legacy', { cards: [{}] }), tags), english);
    const names = json(objectEndpoint.char_t.pack.file(packOf(10))).objects[10].tags.map((t: { id: number; name_en: string | null }) => [t.id, t.name_en]);
    expect(names).toEqual([[2, '2nd year'], [4, "μ's"], [6, 'Printemps'], [7, null]]);
  });

  it('knows the JP client\'s spelling of a tag (a full-width mark, Nijigasaki\'s short name), before a name_en column in another language', async () => {
    const tags = table('member_tag_m', [
      { member_tag_id: 2, name: '2年生', name_en: '二年级', display_flag: 1 }, { member_tag_id: 4, name: '虹ヶ咲', name_en: null, display_flag: 1 },
      { member_tag_id: 6, name: 'CYaRon！', name_en: null, display_flag: 1 }, { member_tag_id: 7, name: 'ひみつ', name_en: null, display_flag: 0 },
    ]);
    const { json } = await render(replace(unitTables('legacy', { cards: [{}] }), tags), english);
    const names = json(objectEndpoint.char_t.pack.file(packOf(10))).objects[10].tags.map((t: { id: number; name_en: string | null }) => [t.id, t.name_en]);
    expect(names).toEqual([[2, '2nd year'], [4, 'Nijigasaki'], [6, 'CYaRon!'], [7, null]]);
  });
});

describe('asset paths', () => {
  it('are trimmed of surrounding spaces, as some exports end them in one', async () => {
    const input = await tempDir('sif-asset-');
    await writeDb(input, 'unit.sql', unitTables('legacy', { cards: [{ normal_icon_asset: ' assets/image/units/u_normal_icon_1.png ', rank_max_icon_asset: '   ' }] }));
    const { model } = modelAt(input);
    expect([model.cards[0].normalIconAsset, model.cards[0].idolizedIconAsset]).toEqual(['assets/image/units/u_normal_icon_1.png', null]);
  });
});
