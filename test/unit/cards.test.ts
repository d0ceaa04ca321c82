/** The card endpoints on the shipped sample, checked against the sample's own database rows. */
import fs from 'fs-extra';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSample, copySample, readJson, renderInMemory, SAMPLE_INPUT } from '../helpers.ts';
import { CARDS, unitIdOf } from '../../generator/build/sample/data.ts';
import type { CardJson, CardListJson } from '../../generator/contract/schemas.ts';

type Row = Record<string, any>;

let out: string;
let sampleDb: Database.Database;
const card = async (ordinal: number): Promise<CardJson> => (await readJson(out, `api/v1/card/${ordinal}.json`)).cards[0];
const query = (sql: string, ...params: unknown[]): Row[] => sampleDb.prepare(sql).all(...params) as Row[];

beforeAll(async () => {
  ({ out } = await buildSample());
  sampleDb = new Database(':memory:');
  sampleDb.exec(fs.readFileSync(path.join(SAMPLE_INPUT, 'unit.sql'), 'utf8'));
});

/** The sample's plain (never encrypted) card rows: the oracle for value-by-value checks. */
const plainCards = () => query("SELECT * FROM unit_m WHERE unit_number > 0 AND (release_tag IS NULL OR release_tag = 'None')");

describe('/api/v1/card/<ordinal>.json', () => {
  it('publishes every readable card and nothing else', () => {
    const files = fs.readdirSync(path.join(out, 'api/v1/card')).filter((f) => /^\d+\.json$/.test(f));
    const ordinals = files.map((f) => Number.parseInt(f, 10)).sort((a, b) => a - b);
    // 36 sample ordinals; 36 is encrypted with a key that release_info.json lacks.
    expect(ordinals).toEqual(CARDS.map((c) => c.ordinal).filter((o) => o !== 36));
    expect(ordinals).not.toContain(0);
  });

  it('copies identity, stats and caps from unit_m and unit_rarity_m, value by value', async () => {
    for (const row of plainCards()) {
      const c = await card(row.unit_number);
      const caps = query('SELECT * FROM unit_rarity_m WHERE rarity = ?', row.rarity)[0];
      expect(c).toMatchObject({
        id: row.unit_id, ordinal: row.unit_number, type_id: row.unit_type_id, rarity: row.rarity,
        attribute: row.attribute_id, hp_base: row.hp_max, original_char_name: row.name, illustrator: null,
        title: row.eponym ?? '', album_page_id: row.album_series_id ?? 0,
        normal_max_level: caps.before_level_max, transformed_max_level: caps.after_level_max,
        normal_max_kizuna: caps.before_love_max, transformed_max_kizuna: caps.after_love_max,
      });
    }
  });

  it('derives per-level arrays from the level-up pattern, one entry per level from 1', async () => {
    for (const row of plainCards()) {
      const c = await card(row.unit_number);
      const maxLevel = c.is_transform_disabled ? c.normal_max_level : c.transformed_max_level;
      const levels = query('SELECT * FROM unit_level_up_pattern_m WHERE unit_level_up_pattern_id = ? AND unit_level <= ? ORDER BY unit_level', row.unit_level_up_pattern_id, maxLevel);
      expect(levels).toHaveLength(maxLevel);
      expect(c.smile).toEqual(levels.map((l) => row.smile_max - l.smile_diff));
      expect(c.pure).toEqual(levels.map((l) => row.pure_max - l.pure_diff));
      expect(c.cool).toEqual(levels.map((l) => row.cool_max - l.cool_diff));
      expect(c.stamina).toEqual(levels.map((l) => row.hp_max - l.hp_diff));
      expect(c.sell_price).toEqual(levels.map((l) => l.sale_price));
      expect(c.exp_given).toEqual(levels.map((l) => l.merge_exp));
    }
  });

  it('gives the cumulative EXP to reach each cap (next_exp of the level before it)', async () => {
    const c = await card(21);
    const nextExp = (level: number) => query('SELECT next_exp FROM unit_level_up_pattern_m WHERE unit_level_up_pattern_id = 4 AND unit_level = ?', level)[0].next_exp;
    expect(c.normal_max_level_exp).toBe(nextExp(79));
    expect(c.transformed_max_level_exp).toBe(nextExp(99));
  });

  it('lists skill values per skill level, in level order', async () => {
    const c = await card(21);
    const levels = query('SELECT * FROM unit_skill_level_m WHERE unit_skill_id = 4 ORDER BY skill_level');
    expect(c.skill).toMatchObject({ id: 4, name: 'ステラの輪', name_en: 'Stella Circle', trigger_type: 12, effect_type: 11, level_max: 8 });
    expect(c.skill!.probability).toEqual(levels.map((l) => l.activation_rate));
    expect(c.skill!.effect_val).toEqual(levels.map((l) => l.effect_value));
    expect(c.skill!.effect_dur).toEqual(levels.map((l) => l.discharge_time));
    expect(c.skill!.trigger_val).toEqual(levels.map((l) => l.trigger_value));
  });

  it('names skill targets: member tags, or the character for reference type 3; null when none', async () => {
    expect((await card(21)).skill).toMatchObject({ translated_target: null, translated_trigger_target: 'Stella' });
    expect((await card(17)).skill).toMatchObject({ translated_target: 'Nova', translated_trigger_target: null });
    expect((await card(18)).skill!.translated_target).toBe('Hoshino Aoi');
  });

  it('fills center skill extras from unit_leader_skill_extra_m, 0 and "" when there is none', async () => {
    expect((await card(16)).center_skill).toEqual({
      id: 3, name: '', name_en: '', effect_type: 3, percent: 9, extra_apply_type_name: 'ステラ',
      extra_apply_type_name_en: 'Stella', extra_apply_type: 4, extra_effect: 3, extra_percent: 3,
    });
    expect((await card(10)).center_skill).toMatchObject({ id: 1, percent: 3, extra_apply_type_name: '', extra_apply_type_name_en: '', extra_apply_type: 0, extra_effect: 0, extra_percent: 0 });
  });

  it('publishes cards without a skill or a center skill with null there', async () => {
    expect((await card(13)).skill).toBeNull();
    expect((await card(13)).center_skill).not.toBeNull();
    expect((await card(12)).center_skill).toBeNull();
    expect((await card(1)).skill).toBeNull();
    expect((await card(1)).title).toBe('');
  });

  it('sets flags from disable_rank_up and ranks', async () => {
    const flags = async (o: number) => {
      const c = await card(o);
      return [c.is_transform_disabled, c.is_support_card, c.is_costume_card, c.is_pre_transformed];
    };
    expect(await flags(21)).toEqual([0, 0, 0, 0]); // ordinary
    expect(await flags(28)).toEqual([1, 1, 0, 0]); // practice support card (1)
    expect(await flags(29)).toEqual([1, 1, 0, 0]); // skill-up support card (3)
    expect(await flags(30)).toEqual([0, 0, 0, 1]); // promo, always idolized (5)
    expect(await flags(31)).toEqual([0, 0, 0, 1]);
    expect(await flags(32)).toEqual([1, 0, 1, 0]); // collaboration costume (6)
  });

  it('takes affiliation, school year and sub-unit from the character and its display tags', async () => {
    const tags = async (o: number) => {
      const c = await card(o);
      return [c.affiliation, c.year, c.sub_affiliation];
    };
    expect(await tags(21)).toEqual([1, 1, 6]); // tags 1, 4 (group), 6 (sub-unit), 8 (hidden)
    expect(await tags(23)).toEqual([2, 1, 0]); // group only; hidden tag 8 is not a sub-unit
    expect(await tags(20)).toEqual([2, 2, 9]);
    expect(await tags(28)).toEqual([0, 0, 0]); // no tags at all
  });

  it('fills secondary-language texts from the English export', async () => {
    const c = await card(21);
    expect(c).toMatchObject({ title: 'ステラ・ドリーム', title_en: 'Stella Dream', char_name: 'Hoshino Aoi', original_char_name: '星野あおい' });
  });

  it('uses curated release dates, else the nearest curated ordinal below, marked dirty', async () => {
    const curated = (await card(10)).extra_data;
    expect(curated).toEqual({ release_date: Date.parse('2019-04-15T15:00:00+09:00') / 1000, release_date_is_dirty: 0 });
    expect((await card(11)).extra_data).toEqual({ release_date: curated.release_date, release_date_is_dirty: 1 });
    expect((await card(16)).extra_data).toEqual({ release_date: 1565589600, release_date_is_dirty: 0 });
  });

  it('decrypts encrypted rows whose key is in release_info.json', async () => {
    const c = await card(35);
    expect(c).toMatchObject({ id: unitIdOf(35), title: '未来へのチケット', rarity: 4, type_id: 104 });
    expect(c.smile).toHaveLength(100);
  });

  it('reads rows with leftover None markers or a kept release id as plain rows', async () => {
    expect((await card(33)).title).toBe('なないろ');
    expect((await card(34)).title).toBe('虹の架け橋');
  });
});

describe('/api/v1/card_list.json', () => {
  it('counts card forms and lists a stub per card in ordinal order', async () => {
    const list = await readJson<CardListJson>(out, 'api/v1/card_list.json');
    const readable = CARDS.filter((c) => c.ordinal !== 36);
    expect(Object.keys(list)).toEqual(['counts', 'stubs']);
    expect(list.stubs.map((c) => c.ordinal)).toEqual(readable.map((c) => c.ordinal));
    expect(list.counts).toEqual({
      n_count: readable.filter((c) => c.ranks?.[0] !== 2).length,
      t_count: readable.filter((c) => (c.ranks?.[1] ?? 2) === 2).length,
      lm_count: readable.length,
      km_count: readable.length,
    });
    expect(list.stubs.find((c) => c.ordinal === 21)).toMatchObject({
      id: unitIdOf(21), char_name: 'Hoshino Aoi', rarity: 4, attribute: 1, is_transform_disabled: 0, is_pre_transformed: 0,
    });
  });
});

describe('/api/v1/info', () => {
  it('names the API version, the truth version from meta.json, and the timezone of its region', async () => {
    expect(await readJson(out, 'api/v1/info.json')).toEqual({ api_major: 1, api_revision: expect.any(Number), truth_version: 'sample-2026.11', timezone: '+09:00' });
  });

  it('names the timezone meta.json gives, else its region\'s: the calendar the browse page shows dates in', async () => {
    const input = await copySample();
    const timezoneOf = async (meta: object) => {
      await fs.writeJson(path.join(input, 'meta.json'), meta);
      return (await renderInMemory(input)).json('api/v1/info.json').timezone;
    };
    expect(await timezoneOf({ truth_version: 'cn-1', region: 'cn' })).toBe('+08:00');
    expect(await timezoneOf({ truth_version: 'x-1', timezone: '-03:30' })).toBe('-03:30');
  });
});
