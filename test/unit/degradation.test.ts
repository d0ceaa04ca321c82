/**
 * Dangling references publish the card with that part null (or left out) and a warning, never a
 * failed build: the damaged exports rendered in memory (renderInMemory), compared with the sample's build.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../generator/contract/endpoints.ts';
import type { CardJson } from '../../generator/contract/schemas.ts';
import { buildSample, copySample, readJson, renderInMemory, samplePictures, tempDir, writeDb, type RenderedInMemory } from '../helpers.ts';
import { unitTables } from '../fixtures.ts';
import { editDump } from '../exportEdits.ts';

/** Every dangling reference at once, in a copy of the sample. */
const EDITS = `
UPDATE unit_m SET default_unit_skill_id = 9999 WHERE unit_number = 14;
UPDATE unit_m SET default_leader_skill_id = 9998 WHERE unit_number = 11;
UPDATE unit_m SET unit_type_id = 9997 WHERE unit_number = 12;
DELETE FROM member_tag_m WHERE member_tag_id = 6;
INSERT INTO unit_type_member_tag_m (unit_type_id, member_tag_id) VALUES (102, 9996);
UPDATE unit_skill_effect_target_m SET effect_target = 9995 WHERE unit_skill_id = 5;
UPDATE unit_leader_skill_extra_m SET member_tag_id = 9994 WHERE unit_leader_skill_id = 3;
UPDATE accessory_effect_target_m SET effect_target = 9993 WHERE accessory_id = 4;
`;

let baseline: string;
/** The sample with every dangling reference, rendered with the sample build's pictures taken as published. */
let degradedSite: RenderedInMemory;
let report: RenderedInMemory['report'];
const cardOf = (site: RenderedInMemory, ordinal: number): CardJson => site.json(endpoints.card.file(ordinal)).cards[0];
/** The card in the degraded render and in the intact build. */
const both = async (ordinal: number) => ({ degraded: cardOf(degradedSite, ordinal), intact: (await readJson(baseline, endpoints.card.file(ordinal))).cards[0] as CardJson });

beforeAll(async () => {
  ({ out: baseline } = await buildSample());
  const input = await copySample();
  await editDump(input, 'unit.sql', EDITS);
  degradedSite = await renderInMemory(input, await samplePictures());
  ({ report } = degradedSite);
});

describe('a card naming a skill, center skill or character that does not exist', () => {
  it('is published with skill null and a warning, all else as before', async () => {
    const { degraded, intact } = await both(14);
    expect(intact.skill).not.toBeNull();
    expect(degraded).toEqual({ ...intact, skill: null });
    expect(report.warnings).toContain('card 14: skill 9999 does not exist; published as null');
  });

  it('is published with center_skill null and a warning', async () => {
    const { degraded, intact } = await both(11);
    expect(intact.center_skill).not.toBeNull();
    expect(degraded).toEqual({ ...intact, center_skill: null });
    expect(report.warnings).toContain('card 11: center skill 9998 does not exist; published as null');
  });

  it('is published without the character: no affiliation, year or sub-unit, the row\'s own name kept', async () => {
    const { degraded, intact } = await both(12);
    expect(intact.affiliation).toBeGreaterThan(0);
    expect(degraded).toEqual({ ...intact, type_id: 9997, affiliation: 0, year: 0, sub_affiliation: 0 });
    expect(report.warnings).toContain('card 12: character 9997 does not exist; published as null');
  });
});

describe('a member tag that does not exist', () => {
  it('counts for no sub-unit: cards of a character linked to a deleted sub-unit tag get sub_affiliation 0', async () => {
    const { degraded, intact } = await both(1); // Hoshino Aoi: year 1, Stella, Lumina (tag 6, deleted)
    expect(intact.sub_affiliation).toBe(6);
    expect(degraded).toEqual({ ...intact, sub_affiliation: 0 });
    const character = degradedSite.object('char_t', 101);
    expect(character.tags.map((t: { id: number }) => t.id)).not.toContain(6);
  });

  it('an extra link to an unknown tag changes nothing about the character\'s cards', async () => {
    const { degraded, intact } = await both(22); // Tsukishima Hikari, linked to tag 9996 as well
    expect(degraded).toEqual(intact);
  });

  it('warns once per table, naming the rows', () => {
    const warning = report.warnings.find((w) => w.startsWith('unit_type_member_tag_m:'));
    expect(warning).toMatch(/unit_type_id 101 -> member tag 6/);
    expect(warning).toMatch(/unit_type_id 102 -> member tag 9996/);
  });

  it('as a skill target: translated_target is null, with a warning', async () => {
    const { degraded, intact } = await both(23); // skill 5 targets Nova
    expect(intact.skill!.translated_target).toBe('Nova');
    expect(degraded).toEqual({ ...intact, skill: { ...intact.skill!, translated_target: null } });
    expect(report.warnings.some((w) => w.startsWith('unit_skill_effect_target_m:') && w.includes('unit_skill_id 5 -> member tag 9995'))).toBe(true);
  });

  it('as a center skill extra: the apply type names are "", with a warning', async () => {
    const { degraded, intact } = await both(16); // center skill 3: extra for Stella
    expect(intact.center_skill!.extra_apply_type_name).not.toBe('');
    expect(degraded.center_skill).toEqual({
      ...intact.center_skill!, extra_apply_type: 9994, extra_apply_type_name: '', extra_apply_type_name_en: '',
    });
    expect(report.warnings.some((w) => w.startsWith('unit_leader_skill_extra_m:') && w.includes('unit_leader_skill_id 3 -> member tag 9994'))).toBe(true);
  });

  it('as an accessory target: effect_target_name is null, with a warning', async () => {
    const accessory = degradedSite.json(endpoints.accessory.file(4)).accessories[0];
    expect(accessory).toMatchObject({ effect_targets: ['2,9993'], effect_target_name: null });
    expect(report.warnings.some((w) => w.startsWith('accessory_effect_target_m:') && w.includes('accessory_id 4 -> member tag 9993'))).toBe(true);
  });

  it('the intact sample warns about no dangling reference', async () => {
    const { report: intactReport } = await buildSample();
    expect(intactReport.warnings.filter((w) => /does not exist/.test(w))).toEqual([]);
  });
});

describe('dangling references in a legacy fixture export', () => {
  it('publish every card, each dangling part null, with one warning each', async () => {
    const input = await tempDir();
    await writeDb(input, 'unit.db_', unitTables('legacy', {
      cards: [
        { unit_id: 1, unit_number: 1, default_unit_skill_id: 5, default_leader_skill_id: 3 },
        { unit_id: 2, unit_number: 2, default_unit_skill_id: 77, default_leader_skill_id: 3 },
        { unit_id: 3, unit_number: 3, default_unit_skill_id: 5, default_leader_skill_id: 88 },
        { unit_id: 4, unit_number: 4, unit_type_id: 99 },
      ],
    }));
    const site = await renderInMemory(input);
    const fixtureReport = site.report;
    const cards = [1, 2, 3, 4].map((o) => cardOf(site, o));
    expect(cards.map((c) => [c.skill?.id ?? null, c.center_skill?.id ?? null, c.affiliation])).toEqual([
      [5, 3, 1], [null, 3, 1], [5, null, 1], [null, null, 0],
    ]);
    expect(fixtureReport.warnings.filter((w) => /does not exist/.test(w))).toEqual([
      'card 2: skill 77 does not exist; published as null',
      'card 3: center skill 88 does not exist; published as null',
      'card 4: character 99 does not exist; published as null',
    ]);
  });
});
