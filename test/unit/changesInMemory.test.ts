/**
 * The changelog in memory: successive versions of the sample export rendered one after another,
 * each through the changes stage following the last as a build follows its previous site (a
 * site in memory: input/previousSite.ts memorySite), each change list checked against a direct
 * comparison of the two databases. test/build/changes.test.ts keeps what is about folders.
 */
import path from 'node:path';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_KINDS, publishedObjects, type PublishedKind } from '../../generator/build/changes/published.ts';
import { endpoints, type Endpoint } from '../../generator/contract/endpoints.ts';
import { CHANGE_TYPES } from '../../generator/contract/schemas.ts';
import { diffSnapshots, describeCounts } from '../../generator/build/changes/diff.ts';
import { snapshotOfObjects, type Snapshot } from '../../generator/build/changes/snapshot.ts';
import { siteSnapshot } from '../../generator/build/changes/readBack.ts';
import { memorySite } from '../../generator/build/input/previousSite.ts';
import { loadSqlDump } from '../../generator/build/input/sqlDump.ts';
import { sampleKey } from '../../generator/build/sample/rowEncrypt.ts';
import { responseValidators } from '../responseSchemas.ts';
import { copySample, nextInMemory, once, renderInMemory, SAMPLE_INPUT, samplePictures, type SiteInMemory } from '../helpers.ts';
import { editDump } from '../exportEdits.ts';

const INDEX = endpoints.changeIndex.file();
const LATEST = endpoints.latestChanges.file();
const listOf = (version: string) => endpoints.changes.file(version);

/**
 * The sample as copied, before any edit, rendered once for the file: the first site of most tests,
 * which follow it and never change it (nextInMemory only reads the site it follows).
 */
const firstSite = once(async () => nextInMemory(await copySample(), null, { bulk: false }));

/** A copy of the sample export the test may change, rendered in turn: each site follows the one before. */
async function successiveSites() {
  const input = await copySample();
  let last: SiteInMemory | null = null;
  return {
    input,
    /** The first site, of the export before any edit: the file's one render of it (firstSite). */
    first: async () => (last = await firstSite()),
    /** The export as it is now, rendered after the last site (see nextInMemory; no bulk files, which no change list reads). */
    next: async (options: Parameters<typeof nextInMemory>[2] = {}) => (last = await nextInMemory(input, last, { bulk: false, ...options })),
    /** meta.json naming the next version (and its date, when given). */
    version: (truthVersion: string, date?: number | string) =>
      fs.writeJson(path.join(input, 'meta.json'), { truth_version: truthVersion, region: 'jp', ...(date === undefined ? {} : { date }) }),
    edit: (sql: string) => editDump(input, 'unit.sql', sql),
    /** Rows of a query on the export's unit database as it is now. */
    query: (sql: string) => {
      const db = loadSqlDump(path.join(input, 'unit.sql'));
      try {
        return db.prepare(sql).all() as Record<string, any>[];
      } finally {
        db.close();
      }
    },
  };
}

/** A copy of the ordinal-1 card as a new readable card. */
const ADD_CARD = (unitId: number, ordinal: number) => `CREATE TEMP TABLE c AS SELECT * FROM unit_m WHERE unit_number = 1;
  UPDATE c SET unit_id = ${unitId}, unit_number = ${ordinal}; INSERT INTO unit_m SELECT * FROM c;`;

const empty = { added: [], removed: [], changed: [] };
const emptyTypes = { ...Object.fromEntries(CHANGE_TYPES.map((t) => [t, empty])), cards: { ...empty, added_ordinals: [], removed_ordinals: [] } };

/** Validates every change file of a site against the schemas its openapi.json publishes. */
function schemaFailures(site: SiteInMemory): string[] {
  const validators = responseValidators(site.files.get(endpoints.openapi.file())!.toString('utf8'));
  const check = (endpoint: Endpoint, rel: string, body: unknown) => {
    const validate = validators.get(endpoint)!;
    return validate(body) ? [] : [`${rel}: ${JSON.stringify(validate.errors?.slice(0, 2))}`];
  };
  const index = site.json(INDEX);
  const failures = check(endpoints.changeIndex, INDEX, index);
  for (const { truth_version } of index.changes) failures.push(...check(endpoints.changes, listOf(truth_version), site.json(listOf(truth_version))));
  if (site.files.has(LATEST)) failures.push(...check(endpoints.latestChanges, LATEST, site.json(LATEST)));
  return failures;
}

describe('a first build', () => {
  it('publishes an empty index and no change list, and reports no update', async () => {
    const site = await (await successiveSites()).next();
    expect(site.json(INDEX)).toEqual({ changes: [] });
    expect(site.files.has(LATEST)).toBe(false);
    expect([...site.files.keys()].filter((rel) => rel.startsWith('api/v1/changes/'))).toEqual([INDEX]);
    expect(site.changes.update).toBeNull();
  });
});

describe('/api/v1/changes/<truth_version>.json: what an update changed', () => {
  it('a card added: its id and ordinal, and the objects that now name it', async () => {
    const v = await successiveSites();
    await v.first();
    await v.version('v2', '2027/01/15 15:00:00');
    await v.edit(ADD_CARD(5000, 37));
    const site = await v.next();
    const list = site.json(listOf('v2'));
    expect(list.from).toEqual({ truth_version: 'sample-2026.11', date: expect.any(Number) });
    expect(list.to).toEqual({ truth_version: 'v2', date: Date.UTC(2027, 0, 15, 6) / 1000 });
    expect(list.types.cards).toMatchObject({ added: [5000], removed: [], added_ordinals: [37], removed_ordinals: [], changed: [] });
    // The new card's character and its album set list it now.
    const character = site.json(endpoints.card.file(37)).cards[0].type_id;
    expect(list.types.characters.changed).toEqual([{ id: character, fields: [{ field: 'card_ids', from: expect.any(Array), to: expect.arrayContaining([5000]) }] }]);
    expect(list.types.skills).toEqual(empty);
    expect(site.json(LATEST)).toEqual(list);
    expect(site.changes.update?.cards).toEqual({ added: 1, removed: 0, changed: 0 });
    expect(schemaFailures(site)).toEqual([]);
  });

  it('a skill rebalanced: its values and every card holding it, equal to a direct comparison of the databases', async () => {
    const v = await successiveSites();
    await v.first();
    const rates = () => v.query('SELECT activation_rate FROM unit_skill_level_m WHERE unit_skill_id = 2 ORDER BY skill_level').map((r) => r.activation_rate);
    const before = rates();
    await v.version('v2');
    await v.edit('UPDATE unit_skill_level_m SET activation_rate = activation_rate + 1 WHERE unit_skill_id = 2');
    const site = await v.next();
    const after = rates();
    const list = site.json(listOf('v2'));
    expect(list.types.skills).toEqual({ ...empty, changed: [{ id: 2, fields: [{ field: 'probability', from: before, to: after }] }] });
    const holders = v.query('SELECT unit_id, unit_number FROM unit_m WHERE default_unit_skill_id = 2 AND unit_number > 0 ORDER BY unit_id');
    expect(holders.length).toBeGreaterThan(1);
    expect(list.types.cards.changed).toEqual(holders.map((c) => ({
      id: c.unit_id, ordinal: c.unit_number, fields: [{ field: 'skill.probability', from: before, to: after }],
    })));
    // The same data again (a forced rebuild): nothing changed.
    expect(describeCounts((await v.next()).changes.update!)).toBe('none');
  });

  it('a card removed: its id and ordinal, and the set, pair and character that lose it', async () => {
    const v = await successiveSites();
    await v.first();
    const [gone] = v.query('SELECT unit_id FROM unit_m WHERE unit_number = 5');
    await v.version('v2');
    await v.edit('DELETE FROM unit_m WHERE unit_number = 5');
    const list = (await v.next()).json(listOf('v2'));
    expect(list.types.cards).toMatchObject({ added: [], removed: [gone.unit_id], added_ordinals: [], removed_ordinals: [5], changed: [] });
    expect(list.types.characters.changed).toHaveLength(1);
    expect(list.types.sets.changed.map((s: any) => s.fields.map((f: any) => f.field))).toContainEqual(['cards']);
    expect(list.types.sets.changed.every((s: any) => typeof s.id === 'string')).toBe(true);
  });

  it('an encrypted row readable once its key arrives: the card is added, in the same truth version\'s list', async () => {
    const v = await successiveSites();
    await v.first();
    await v.version('v2');
    await v.edit(ADD_CARD(5000, 37));
    await v.next();
    // Same truth version, one more key: v2's list now compares the first version with both changes.
    await fs.writeJson(path.join(v.input, 'release_info.json'), {
      ...(await fs.readJson(path.join(v.input, 'release_info.json'))), 8: sampleKey(8).toString('base64'),
    });
    const site = await v.next();
    expect(describeCounts(site.changes.update!)).toMatch(/^1 card added\b/);
    const list = site.json(listOf('v2'));
    expect(list.from.truth_version).toBe('sample-2026.11');
    expect(list.types.cards).toMatchObject({ added: [1108, 5000], added_ordinals: [36, 37] });
    expect(site.json(endpoints.card.file(36)).cards[0].id).toBe(1108);
    expect(site.json(INDEX).changes.map((c: any) => c.truth_version)).toEqual(['v2']);
  });

  it('a picture published or not is no data change', async () => {
    const v = await successiveSites();
    await v.first();
    const pictures = await samplePictures();
    const site = await v.next({ pictures });
    expect([...pictures].filter((rel) => rel.startsWith('images/card/')).length).toBeGreaterThan(0);
    expect(site.files.get(endpoints.card.file(1))!.toString()).toMatch(/"\.\.\/\.\.\/\.\.\/images\/card\//);
    expect(site.changes.update).toEqual(Object.fromEntries(CHANGE_TYPES.map((t) => [t, { added: 0, removed: 0, changed: 0 }])));
    expect(site.json(INDEX)).toEqual({ changes: [] });
  });
});

describe('/api/v1/changes/index.json and /api/v1/changes.json: the history', () => {
  it('keeps every update newest first, carries the older lists unchanged, and changes.json is the newest', async () => {
    const v = await successiveSites();
    await v.first();
    await v.version('v2', '2027/01/15 15:00:00');
    await v.edit(ADD_CARD(5000, 37));
    const v2 = (await v.next()).files.get(listOf('v2'));
    await v.version('v3', 1810000000);
    await v.edit('UPDATE unit_skill_level_m SET effect_value = effect_value * 2 WHERE unit_skill_id = 1');
    const site = await v.next();
    const index = site.json(INDEX);
    expect(index.changes.map((c: any) => [c.truth_version, c.from_truth_version, c.date])).toEqual([
      ['v3', 'v2', 1810000000], ['v2', 'sample-2026.11', Date.UTC(2027, 0, 15, 6) / 1000],
    ]);
    expect(index.changes[1].counts.cards).toEqual({ added: 1, removed: 0, changed: 0 });
    expect(index.changes[0].counts.skills).toEqual({ added: 0, removed: 0, changed: 1 });
    expect(Object.keys(index.changes[0].counts)).toEqual([...CHANGE_TYPES]);
    expect(site.files.get(listOf('v2'))).toEqual(v2);
    expect(site.json(LATEST)).toEqual(site.json(listOf('v3')));
    expect(schemaFailures(site)).toEqual([]);
  });

  it('the date is meta.json\'s, else the newest card release or event start of the export', async () => {
    const v = await successiveSites();
    await v.first();
    await v.version('v2');
    await v.edit(ADD_CARD(5000, 37));
    const site = await v.next();
    const releases = site.json('api/v1/card_list.json').stubs.map((s: any) => s.release_date);
    const starts = site.json('api/v1/happening.json').events.map((e: any) => e.start_date);
    expect(site.json(LATEST).to.date).toBe(Math.max(...releases, ...starts));
  });
});

describe('the snapshot of a site', () => {
  it('is the same from the objects the render stage returns (a build) and from the published files (--since)', async () => {
    const { files, truthVersion, rendered } = await renderInMemory(SAMPLE_INPUT, await samplePictures());
    const fromFiles = await siteSnapshot(memorySite(files));
    expect(snapshotOfObjects(publishedObjects(rendered), truthVersion, null)).toEqual(fromFiles);
    expect(fromFiles.objects.card_t.size).toBeGreaterThan(30);
    expect(PUBLISHED_KINDS.filter((kind) => fromFiles.objects[kind].size === 0)).toEqual([]);
    expect([...fromFiles.objects.card_t.values()].some((text) => text.includes('"icon":"../../../images/'))).toBe(true);
  });
});

describe('the change list of two snapshots', () => {
  const version = (truth: string) => ({ truth_version: truth, date: null });
  /** A snapshot of the given objects by kind and id. */
  const snap = (truth: string, objects: Partial<Record<PublishedKind, Record<string, object>>>): Snapshot => ({
    version: version(truth),
    objects: Object.fromEntries(PUBLISHED_KINDS.map((k) => [k, new Map(Object.entries(objects[k] ?? {}).map(([id, o]) => [id, Buffer.from(JSON.stringify(o))]))])) as Snapshot['objects'],
  });

  it('walks nested objects by dot path, compares arrays whole, sorts fields by name and ids ascending', () => {
    const card = (id: number, ordinal: number, percent: number, probability: number[]) => ({
      id, ordinal, center_skill: { id: 1, percent }, extra_data: { release_date: 100, release_date_is_dirty: 0 }, skill: { probability },
    });
    const list = diffSnapshots(
      snap('a', { card_t: { 10: card(10, 2, 3, [30, 35]), 9: card(9, 1, 3, [1]), 11: card(11, 3, 3, [1]) }, set: { 'b-set': { id: 'b-set' } } }),
      snap('b', { card_t: { 10: { ...card(10, 2, 6, [31, 35]), extra_data: { release_date: 200, release_date_is_dirty: 0 } }, 12: card(12, 4, 3, [1]), 2: card(2, 9, 3, [1]) },
        set: { 'b-set': { id: 'b-set' }, 'a-set': { id: 'a-set' }, 'c-set': { id: 'c-set' } } }),
    );
    expect(list.types.cards).toEqual({
      added: [2, 12], removed: [9, 11], added_ordinals: [4, 9], removed_ordinals: [1, 3],
      changed: [{ id: 10, ordinal: 2, fields: [
        { field: 'center_skill.percent', from: 3, to: 6 },
        { field: 'extra_data.release_date', from: 100, to: 200 },
        { field: 'skill.probability', from: [30, 35], to: [31, 35] },
      ] }],
    });
    expect(list.types.sets.added).toEqual(['a-set', 'c-set']);
    expect(Object.keys(list.types)).toEqual([...CHANGE_TYPES]);
  });

  it('is empty between equal snapshots; a field that appears compares with null, an object replacing null whole', () => {
    expect(diffSnapshots(snap('a', { skill_t: { 1: { id: 1 } } }), snap('a', { skill_t: { 1: { id: 1 } } })).types).toEqual(emptyTypes);
    const list = diffSnapshots(snap('a', { card_t: { 1: { id: 1, ordinal: 1, skill: null } } }), snap('b', { card_t: { 1: { id: 1, ordinal: 1, skill: { id: 3 }, more: 1 } } }));
    expect(list.types.cards.changed[0].fields).toEqual([{ field: 'more', from: null, to: 1 }, { field: 'skill', from: null, to: { id: 3 } }]);
  });

  it('leaves out an object whose pictures alone changed', () => {
    const card = (icon: string | null) => ({ id: 1, ordinal: 1, images: { icon } });
    const accessory = (icon: string | null) => ({ id: 2, icon_image: icon, unit_stub: { id: 1, icon } });
    const list = diffSnapshots(snap('a', { card_t: { 1: card(null) }, accessory_t: { 2: accessory(null) } }), snap('b', { card_t: { 1: card('x.png') }, accessory_t: { 2: accessory('y.png') } }));
    expect(list.types).toEqual(emptyTypes);
  });
});

describe('meta.json date and truth_version', () => {
  it('refuses a date that is no date and a truth version that cannot name a file', async () => {
    const v = await successiveSites();
    await v.version('v2', 'soon');
    await expect(v.next()).rejects.toThrow(/meta\.json: \/date: "soon" is not a date/);
    await v.version('../v2');
    await expect(v.next()).rejects.toThrow(/meta\.json: \/truth_version: .*can name a file/);
    await v.version('index');
    await expect(v.next()).rejects.toThrow(/meta\.json: \/truth_version: .*not "index"/);
    await v.version('v2 JP');
    await expect(v.next()).resolves.toBeDefined(); // spaces and other characters a file name takes are fine
  });
});
