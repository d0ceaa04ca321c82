/**
 * Versions in memory: successive versions of the sample rendered one after another, each
 * following the last as a build follows its previous site (test/versionSteps.ts); every object's
 * history replayed (with the library and with the edge's own JSON Patch) equals what each
 * version's site published, and ?version= answers the same through the edge handler.
 * test/build/versions.test.ts keeps what is about folders (--since, damaged and hostile files).
 */
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch/index.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints, HISTORY_TYPES, isAliasedHistory, NOTES, PACKED_HISTORY_TYPES, type HistoryType } from '../../generator/contract/endpoints.ts';
import type { ChangeListJson, HistoryJson, LiveJson, NotesJson, VersionsJson } from '../../generator/contract/schemas.ts';
import { patchBetween } from '../../generator/build/changes/history.ts';
import type { Snapshot } from '../../generator/build/changes/snapshot.ts';
import { memorySite } from '../../generator/build/input/previousSite.ts';
import { historyOf as edgeHistoryOf, objectAt } from '../../generator/runtime/edge/history.ts';
import { applyPatch } from '../../generator/contract/patch.ts';
import { handleRequest } from '../../generator/runtime/edge/handler.ts';
import { MemoryFiles } from '../../generator/build/siteFiles.ts';
import { copySample, nextInMemory, packMembers, type SiteInMemory } from '../helpers.ts';
import { REMADE_CHART, UNNOTED_CHART, successiveVersions, writeVersion } from '../versionSteps.ts';
import { editDump } from '../exportEdits.ts';

/** The objects of a history type in a site's snapshot, by id (cards by ordinal). */
function objectsOf(snapshot: Snapshot, type: HistoryType): Map<string, unknown> {
  const texts = type === 'card' ? snapshot.objects.card_t : type === 'accessory' ? snapshot.objects.accessory_t : snapshot.objects[type];
  const objects = [...texts.values()].map((text) => JSON.parse(text.toString()) as { id: number; ordinal: number; live_setting_id: number });
  return new Map(objects.map((object) => [String(type === 'card' ? object.ordinal : type === 'notes' ? object.live_setting_id : object.id), object]));
}

/** The history files of a type in a site, by id, as bytes; a packed type's histories as their packs hold them (at the packs' offsets). */
function historyFiles(site: SiteInMemory, type: HistoryType): Map<string, Buffer> {
  if (PACKED_HISTORY_TYPES.includes(type)) {
    const folder = endpoints.historyPack.file(type, 0).replace(/[^/]*$/, '');
    return new Map([...site.files].filter(([rel]) => rel.startsWith(folder)).flatMap(([, bytes]) => [...packMembers(bytes)]));
  }
  const folder = endpoints.history.file(type, 0).replace(/[^/]*$/, '');
  return new Map([...site.files].filter(([rel]) => rel.startsWith(folder)).map(([rel, bytes]) => [rel.slice(folder.length).replace(/\.json$/, ''), bytes]));
}

/** The history of object `id` of `type` in a site, from its file or its pack. */
const historyOf = (site: SiteInMemory, type: HistoryType, id: number): HistoryJson => JSON.parse(historyFiles(site, type).get(String(id))!.toString('utf8')) as HistoryJson;

/** Every history file of a type in a site, by id. */
const histories = (site: SiteInMemory, type: HistoryType): Map<string, HistoryJson> =>
  new Map([...historyFiles(site, type)].map(([id, bytes]) => [id, JSON.parse(bytes.toString('utf8')) as HistoryJson]));

/** Every history file of a site, by path, as bytes. */
const allHistoryFiles = (site: SiteInMemory): Map<string, Buffer> =>
  new Map(HISTORY_TYPES.flatMap((type) => [...historyFiles(site, type)].map(([id, bytes]) => [endpoints.history.file(type, id), bytes] as const)));

describe('versions of one site', () => {
  let sites: SiteInMemory[];
  /** The last site: every version, the last one built twice. */
  let last: SiteInMemory;
  /** What each truth version's site published, by version. */
  let published: Map<string, Snapshot>;

  beforeAll(async () => {
    ({ sites, published } = await successiveVersions());
    last = sites.at(-1)!;
  });

  it('lists every version oldest first, with counts and change lists', () => {
    const { versions } = last.json<VersionsJson>(endpoints.versions.file());
    expect(versions.map((v) => v.truth_version)).toEqual(['v1', 'v2', 'v3']);
    expect(versions[0]).toMatchObject({ changed: 0, removed: 0, changes: null });
    expect(versions[0].added).toBeGreaterThan(50);
    // v2: ordinal 3 removed, 9001 added (card_t), cards 1 and 2 changed, and what embeds them (characters, ...).
    expect(versions[1]).toMatchObject({ truth_version: 'v2', date: 1500086400, removed: 1, changes: 'changes/v2.json' });
    expect(versions[1].added).toBeGreaterThanOrEqual(1);
    expect(versions[1].changed).toBeGreaterThanOrEqual(2);
    expect(versions[2].date).toBe(1500000000 + 3 * 86400);
    expect(last.files.has(`api/v1/${versions[1].changes}`)).toBe(true);
  });

  /** The histories of an aliased type (card_t, accessory_t) as the edge answers them, for every id any version published. */
  async function aliasedHistories(type: HistoryType): Promise<Map<string, HistoryJson>> {
    const site = { read: memorySite(last.files).read };
    const ids = [...new Set([...published.values()].flatMap((snapshot) => [...objectsOf(snapshot, type).keys()]))];
    const found = await Promise.all(ids.map(async (id) => [id, await edgeHistoryOf(site, type, Number(id))] as const));
    return new Map(found.filter((entry): entry is [string, HistoryJson] => entry[1] !== null));
  }

  it('replays every object of every version exactly as that version published it, with the library and with the edge', async () => {
    const { versions } = last.json<VersionsJson>(endpoints.versions.file());
    const order = new Map(versions.map((v, i) => [v.truth_version, i]));
    let checked = 0;
    for (const type of HISTORY_TYPES) {
      const files = isAliasedHistory(type) ? await aliasedHistories(type) : histories(last, type);
      for (const [version, snapshot] of published) {
        const expected = objectsOf(snapshot, type);
        for (const id of expected.keys()) expect(files.has(id), `${type} ${id} has a history`).toBe(true);
        for (const [id, history] of files) {
          expect(history).toMatchObject({ type, id: Number(id) });
          const upTo = history.versions.filter((entry) => order.get(entry.truth_version)! <= order.get(version)!);
          const byLibrary = upTo.reduce<unknown>((object, entry) => (entry.patch ? jsonpatch.applyPatch(object, entry.patch as jsonpatch.Operation[], true, false).newDocument : null), null);
          expect(byLibrary ?? null, `${type} ${id} at ${version}`).toEqual(expected.get(id) ?? null);
          expect(objectAt(history, order, version)).toEqual(expected.get(id) ?? null);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('writes a first entry that builds the object from nothing, null patches for removals, and one entry per version', () => {
    const card3 = last.json<HistoryJson>(endpoints.history.file('card', 3));
    expect(card3.versions.map((v) => [v.truth_version, v.change])).toEqual([['v1', 'added'], ['v2', 'removed']]);
    expect(card3.versions[0].patch).toEqual([{ op: 'add', path: '', value: expect.objectContaining({ ordinal: 3 }) }]);
    expect(card3.versions[1].patch).toBeNull();
    // Added in v2, removed in the second build of v3.
    const added = last.json<HistoryJson>(endpoints.history.file('card', 9001));
    expect(added.versions.map((v) => v.change)).toEqual(['added', 'removed']);
    const card1 = last.json<HistoryJson>(endpoints.history.file('card', 1));
    expect(card1.versions.map((v) => v.truth_version)).toEqual(['v1', 'v2', 'v3']);
    expect(card1.versions[2].patch).toContainEqual({ op: 'replace', path: '/hp_base', value: 40 });
  });

  it('rewrites only the histories of objects that changed; the others keep their bytes', () => {
    const [before, after] = [allHistoryFiles(sites.at(-2)!), allHistoryFiles(last)];
    const rewritten = [...after].filter(([rel, bytes]) => !before.get(rel)?.equals(bytes)).map(([rel]) => rel);
    expect(rewritten).toContain(endpoints.history.file('card', 2));
    expect(rewritten).not.toContain(endpoints.history.file('card', 1));
    expect(rewritten.length).toBeLessThan(after.size / 4);
  });

  it('answers ?version= on card, accessory and generic routes as that version published, through the edge handler', async () => {
    const site = { read: memorySite(last.files).read };
    const ask = async (route: string) => {
      const response = (await handleRequest(new Request(`https://sif.test/api/v1/${route}`), site))!;
      return { status: response.status, body: await response.json() };
    };
    const v1 = published.get('v1')!;
    const v2 = published.get('v2')!;
    const cardsAt = (snapshot: Snapshot, ordinals: number[]) => ordinals.map((o) => objectsOf(snapshot, 'card').get(String(o))).filter(Boolean);
    expect(await ask('card/1,3,9001.json?version=v1')).toEqual({ status: 200, body: { cards: cardsAt(v1, [1, 3]) } });
    expect(await ask('card/1,3,9001.json?version=v2')).toEqual({ status: 200, body: { cards: cardsAt(v2, [1, 9001]) } });
    expect((await ask('card/9001.json?version=v1')).status).toBe(404);
    const cardIdOf = (ordinal: number) => (objectsOf(v1, 'card').get(String(ordinal)) as { id: number }).id;
    const cardId = cardIdOf(3);
    expect(await ask(`card_t/${cardId},${cardId}?version=v2`)).toEqual({ status: 200, body: { result: [null, null] } });
    expect((await ask(`card_t/${cardId}?version=v1`)).body.result[0]).toEqual(objectsOf(v1, 'card_t').get(String(cardId)));
    const skill = await ask('skill_t/1?version=v2&version=v1');
    expect(skill.body.result[0]).toEqual(objectsOf(v1, 'skill_t').get('1'));
    const accessoryId = [...objectsOf(v1, 'accessory').keys()][0];
    expect((await ask(`accessory/${accessoryId}.json?version=v1`)).body).toEqual({ accessories: [objectsOf(v1, 'accessory').get(accessoryId)] });
    // The newest version rebuilt from the history is the published answer, byte for byte.
    const current = async (rel: string) => (await handleRequest(new Request(`https://sif.test/${rel}`), site))?.text() ?? last.files.get(rel)!.toString('utf8');
    for (const rel of [endpoints.card.file(1), `api/v1/card_t/${cardIdOf(1)}`, endpoints.accessory.file(Number(accessoryId))]) {
      const response = (await handleRequest(new Request(`https://sif.test/${rel}?version=v3`), site))!;
      expect(await response.text(), rel).toBe(await current(rel));
    }
    const unknown = await ask('card/1.json?version=v9');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/versions\.json/);
  });

  it('keeps each chart\'s notes as every version published them: a remade chart is a change, a lost note file a removal, and ?version= answers them', async () => {
    const remade = historyOf(last, NOTES, REMADE_CHART.id);
    expect(remade).toMatchObject({ type: NOTES, id: REMADE_CHART.id });
    expect(remade.versions.map((v) => [v.truth_version, v.change])).toEqual([['v1', 'added'], ['v2', 'changed']]);
    // As many notes as before: the patch changes them note by note (every timing, the first note's effect).
    expect(remade.versions[1].patch).toContainEqual({ op: 'replace', path: '/notes/0/effect', value: 4 });
    expect(remade.versions[1].patch!.every((op) => op.op === 'replace' && /^\/notes\/\d+\/(timing_sec|effect)$/.test(op.path))).toBe(true);
    const lost = historyOf(last, NOTES, UNNOTED_CHART.id);
    expect(lost.versions.map((v) => [v.truth_version, v.change, v.patch])).toEqual([['v1', 'added', expect.any(Array)], ['v3', 'removed', null]]);
    // The chart's live_t object follows its notes: its statistics in v2, no notes_url from v3 (a change of the chart in both change lists).
    const chart = (version: string, id: number) => objectsOf(published.get(version)!, 'live_t').get(String(id)) as LiveJson;
    expect(chart('v2', REMADE_CHART.id)).toMatchObject({ star_notes: chart('v1', REMADE_CHART.id).star_notes! + 1, note_count: chart('v1', REMADE_CHART.id).note_count });
    expect(chart('v2', REMADE_CHART.id).duration_sec).toBeCloseTo(chart('v1', REMADE_CHART.id).duration_sec! + 0.25, 3);
    expect([chart('v2', UNNOTED_CHART.id).notes_url, chart('v3', UNNOTED_CHART.id).notes_url, chart('v3', UNNOTED_CHART.id).note_count]).toEqual(['../notes/31.json', null, null]);
    const changed = (version: string) => last.json<ChangeListJson>(endpoints.changes.file(version)).types.charts.changed.map((c) => c.id);
    expect(changed('v2')).toContain(REMADE_CHART.id);
    expect(changed('v3')).toContain(UNNOTED_CHART.id);

    const memory = memorySite(last.files);
    const site = { read: memory.read, readBytes: memory.readBytes };
    const ask = async (route: string) => {
      const response = (await handleRequest(new Request(`https://sif.test/api/v1${route}`), site))!;
      return { status: response.status, body: await response.json() };
    };
    const notesAt = (version: string, id: number) => objectsOf(published.get(version)!, NOTES).get(String(id)) as NotesJson | undefined;
    expect(notesAt('v1', REMADE_CHART.id)).not.toEqual(notesAt('v2', REMADE_CHART.id));
    expect(await ask(`/notes/${REMADE_CHART.id}.json?version=v1`)).toEqual({ status: 200, body: notesAt('v1', REMADE_CHART.id) });
    // The query in the path (what a host whose static layer answers the file's path is asked), and a non-canonical id.
    expect(await ask(`;version=v1/notes/0${REMADE_CHART.id}.json`)).toEqual({ status: 200, body: notesAt('v1', REMADE_CHART.id) });
    expect(await ask(`/notes/${UNNOTED_CHART.id}.json?version=v2`)).toEqual({ status: 200, body: notesAt('v2', UNNOTED_CHART.id) });
    const gone = await ask(`/notes/${UNNOTED_CHART.id}.json?version=v3`);
    expect([gone.status, gone.body.error]).toEqual([404, 'no notes of chart 31 in version "v3"']);
    expect((await ask(`/notes/${REMADE_CHART.id}.json?version=v9`)).status).toBe(400);
    const keys = await ask(`/notes/${REMADE_CHART.id}.json?version=v1&keys=position`);
    expect(keys.body.notes.slice(0, 2)).toEqual(notesAt('v1', REMADE_CHART.id)!.notes.slice(0, 2).map((n) => ({ position: n.position })));
    // The newest version rebuilt from the history is the published answer, byte for byte.
    const now = await handleRequest(new Request(`https://sif.test/api/v1/notes/${REMADE_CHART.id}.json`), site);
    expect(await (await handleRequest(new Request(`https://sif.test/api/v1/notes/${REMADE_CHART.id}.json?version=v3`), site))!.text()).toBe(await now!.text());
  });

  it('refuses ?version= on a route that does not take it, naming the routes that do', async () => {
    const site = { read: memorySite(last.files).read };
    for (const route of ['pair/1.json', 'card/set_list.json', 'search/card?q=', 'card/random.json', 'list/card_t', 'card_list.json', 'list/nothing']) {
      const url = `https://sif.test/api/v1/${route}${route.includes('?') ? '&' : '?'}version=v1`;
      const response = (await handleRequest(new Request(url), site))!;
      expect(response.status, route).toBe(400);
      expect((await response.json()).error, route).toMatch(/^\?version= is taken only by card\/\{ordinals\}\.json, accessory\/\{ids\}\.json, notes\/\{live_setting_id\}\.json and <type>\/\{ids\}/);
    }
  });
});

describe('the edge JSON Patch', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  // fast-json-patch refuses paths through __proto__ or constructor/prototype; ours takes them as
  // ordinary members (checked on its own below), so the comparison leaves those names out.
  const key = fc.string({ maxLength: 4 }).filter((k) => k !== '__proto__' && k !== 'prototype');
  const doc = fc.dictionary(key, json, { maxKeys: 6 });
  // As JSON (which has no -0): the documents a site publishes.
  const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

  it('applies what fast-json-patch makes as fast-json-patch does', () => {
    fc.assert(fc.property(doc, doc, (a, b) => {
      const patch = jsonpatch.compare(a, b);
      const ours = applyPatch(structuredClone(a), patch as never);
      const theirs = jsonpatch.applyPatch(structuredClone(a), patch, true, false).newDocument;
      expect(asJson(ours)).toEqual(asJson(theirs));
      expect(asJson(ours)).toEqual(asJson(b));
    }), { numRuns: 300 });
  });

  it('makes patches (the build) that fast-json-patch validates and applies to the new document, members in its order', () => {
    fc.assert(fc.property(doc, doc, (a, b) => {
      const patch = patchBetween(asJson(a), asJson(b));
      expect(jsonpatch.validate(patch as jsonpatch.Operation[], asJson(a))).toBeUndefined();
      expect(asJson(jsonpatch.applyPatch(asJson(a), patch as jsonpatch.Operation[], true, false).newDocument)).toEqual(asJson(b));
      // The edge's rebuilt object has the new one's member order too: the same bytes.
      expect(JSON.stringify(applyPatch(asJson(a), patch))).toBe(JSON.stringify(asJson(b)));
      expect(patchBetween(asJson(a), asJson(a))).toEqual([]);
    }), { numRuns: 300 });
  });

  it('takes __proto__ and constructor as ordinary members, never touching a prototype', () => {
    const document = JSON.parse('{"__proto__": {"a": 1}, "constructor": {"prototype": 1}}');
    const patched = applyPatch(document, [
      { op: 'add', path: '/__proto__/b', value: 2 },
      { op: 'replace', path: '/constructor/prototype', value: 3 },
      { op: 'add', path: '/x', value: JSON.parse('{"__proto__": 4}') },
    ]);
    expect(JSON.stringify(patched)).toBe('{"__proto__":{"a":1,"b":2},"constructor":{"prototype":3},"x":{"__proto__":4}}');
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).b).toBeUndefined();
    expect(() => applyPatch({}, [{ op: 'add', path: '/toString/x', value: 1 }])).toThrow(/missing/);
  });

  it('keeps member order on replace and refuses a path through nothing', () => {
    expect(JSON.stringify(applyPatch({ a: 1, b: 2 }, [{ op: 'replace', path: '/a', value: 3 }]))).toBe('{"a":3,"b":2}');
    expect(applyPatch({ a: [1, 2] }, [{ op: 'add', path: '/a/-', value: 3 }, { op: 'move', from: '/a/0', path: '/b' }, { op: 'copy', from: '/b', path: '/c~1d' }]))
      .toEqual({ a: [2, 3], b: 1, 'c/d': 1 });
    expect(() => applyPatch({ a: 1 }, [{ op: 'add', path: '/x/y', value: 1 }])).toThrow(/missing/);
    expect(() => applyPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }])).toThrow(/test failed/);
  });
});

describe('the histories a build continues', () => {
  it("are read as this builder wrote them when its records name the site; read back (--since), each is checked again", async () => {
    const input = await copySample();
    await writeVersion(input, 'v1', 1500000000);
    const first = await nextInMemory(input, null, { bulk: false });
    // Card 1's history, given after the build a version whose patch does not apply; card 1 changes in v2.
    const rel = endpoints.history.file('card', 1);
    const history = JSON.parse(first.files.get(rel)!.toString('utf8')) as HistoryJson;
    const broken = { truth_version: 'v1x', date: null, change: 'changed' as const, patch: [{ op: 'replace' as const, path: '/no_such_key', value: 1 }] };
    const damaged = new MemoryFiles(first.files);
    damaged.set(rel, Buffer.from(JSON.stringify({ ...history, versions: [...history.versions, broken] })));
    await editDump(input, 'unit.sql', 'UPDATE unit_m SET hp_max = hp_max + 5 WHERE unit_number = 1;');
    await writeVersion(input, 'v2', 1500086400);
    // The build's records trusted, the history is continued as it was written (as a file carried unread is), not replayed again.
    const next = await nextInMemory(input, { ...first, files: damaged }, { bulk: false });
    expect((JSON.parse(next.files.get(rel)!.toString('utf8')) as HistoryJson).versions.map((v) => v.truth_version)).toEqual(['v1', 'v1x', 'v2']);
    // Read back, as from a site another builder may have written, it is checked and refused in one line.
    await expect(nextInMemory(input, { ...first, files: damaged }, { readBack: true, bulk: false }))
      .rejects.toThrow(/history\/card\/1\.json: the previous site's history is not one this builder publishes \(the patch of version "v1x" does not apply/);
  });
});
