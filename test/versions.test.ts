/**
 * Versions: successive versions of the sample built one after another into one site; every
 * object's history replayed (with the library and with the edge's own JSON Patch) equals what
 * each version's site published, ?version= answers the same through the edge handler, and a
 * fresh build given a copy of the site (--since) carries the whole history on.
 */
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import fs from 'fs-extra';
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch/index.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../generator/build/build.ts';
import { StageError, UserError } from '../generator/build/errors.ts';
import { endpoints, HISTORY_TYPES, type HistoryType } from '../generator/contract/endpoints.ts';
import type { HistoryJson, VersionsJson } from '../generator/contract/schemas.ts';
import { siteSnapshot } from '../generator/build/changes/previousSite.ts';
import { patchBetween } from '../generator/build/changes/history.ts';
import type { Snapshot } from '../generator/build/changes/snapshot.ts';
import { objectAt } from '../generator/runtime/edge/history.ts';
import { applyPatch } from '../generator/contract/patch.ts';
import { handleRequest } from '../generator/runtime/edge/handler.ts';
import { diskReader } from '../generator/runtime/server/diskSite.ts';
import { copySample, readJson, tempDir } from './helpers.ts';
import { editDump } from './exportEdits.ts';

/** The objects of a history type in a site's snapshot, by id (cards by ordinal). */
function objectsOf(snapshot: Snapshot, type: HistoryType): Map<string, unknown> {
  const texts = type === 'card' ? snapshot.objects.card_t : type === 'accessory' ? snapshot.objects.accessory_t : snapshot.objects[type];
  const objects = [...texts.values()].map((text) => JSON.parse(text.toString()) as { id: number; ordinal: number });
  return new Map(objects.map((object) => [String(type === 'card' ? object.ordinal : object.id), object]));
}

/** Every history file of a site, by type and id. */
async function histories(out: string, type: HistoryType): Promise<Map<string, HistoryJson>> {
  const folder = path.join(out, path.dirname(endpoints.history.file(type, 0)));
  const names = (await fs.pathExists(folder)) ? await fs.readdir(folder) : [];
  return new Map(await Promise.all(names.map(async (name) => [name.replace(/\.json$/, ''), await fs.readJson(path.join(folder, name))] as const)));
}

const unitSql = (sql: string) => (input: string) => editDump(input, 'unit.sql', sql);
/** A copy of the ordinal-1 card as a new card. */
const ADD_CARD = `CREATE TEMP TABLE c AS SELECT * FROM unit_m WHERE unit_number = 1;
  UPDATE c SET unit_id = 99001, unit_number = 9001; INSERT INTO unit_m SELECT * FROM c;`;

/** The versions built in order (the last build of a truth version is that version's site), each with its edit of the export. */
const STEPS: { version: string; edit?: (input: string) => Promise<void> }[] = [
  { version: 'v1' },
  { version: 'v2', edit: unitSql(`UPDATE unit_m SET hp_max = hp_max + 5 WHERE unit_number IN (1, 2); DELETE FROM unit_m WHERE unit_number = 3; ${ADD_CARD}`) },
  { version: 'v3', edit: unitSql("UPDATE unit_m SET hp_max = 40 WHERE unit_number = 1; UPDATE unit_skill_m SET name_en = 'Renamed' WHERE unit_skill_id = 1;") },
  // The same truth version again (a key arrived): its entries are replaced, not added.
  { version: 'v3', edit: unitSql('UPDATE unit_m SET hp_max = 41 WHERE unit_number = 2; DELETE FROM unit_m WHERE unit_number = 9001;') },
];

describe('versions of one site', () => {
  let input: string;
  let out: string;
  /** What each truth version's site published, by version. */
  const published = new Map<string, Snapshot>();
  /** History file bytes after the first build of v3, to tell which the same-version rebuild rewrote. */
  let historyBytes: Map<string, Buffer>;

  beforeAll(async () => {
    input = await copySample();
    await fs.remove(path.join(input, 'assets')); // pictures are no data
    out = path.join(path.dirname(input), 'public');
    for (const [i, step] of STEPS.entries()) {
      await step.edit?.(input);
      await fs.writeJson(path.join(input, 'meta.json'), { truth_version: step.version, region: 'jp', date: 1500000000 + i * 86400 });
      if (i === STEPS.length - 1) historyBytes = await historyFiles(out);
      await build({ input, out });
      published.set(step.version, siteSnapshot(out, out));
    }
  }, 60_000);

  async function historyFiles(dir: string): Promise<Map<string, Buffer>> {
    const files = new Map<string, Buffer>();
    for (const type of HISTORY_TYPES) {
      for (const id of (await histories(dir, type)).keys()) {
        const rel = endpoints.history.file(type, id);
        files.set(rel, await fs.readFile(path.join(dir, rel)));
      }
    }
    return files;
  }

  it('lists every version oldest first, with counts and change lists', async () => {
    const { versions } = await readJson<VersionsJson>(out, endpoints.versions.file());
    expect(versions.map((v) => v.truth_version)).toEqual(['v1', 'v2', 'v3']);
    expect(versions[0]).toMatchObject({ changed: 0, removed: 0, changes: null });
    expect(versions[0].added).toBeGreaterThan(50);
    // v2: ordinal 3 removed, 9001 added (card_t), cards 1 and 2 changed, and what embeds them (characters, ...).
    expect(versions[1]).toMatchObject({ truth_version: 'v2', date: 1500086400, removed: 1, changes: 'changes/v2.json' });
    expect(versions[1].added).toBeGreaterThanOrEqual(1);
    expect(versions[1].changed).toBeGreaterThanOrEqual(2);
    expect(versions[2].date).toBe(1500000000 + 3 * 86400);
    expect(await fs.pathExists(path.join(out, versions[1].changes!.replace(/^/, 'api/v1/')))).toBe(true);
  });

  it('replays every object of every version exactly as that version published it, with the library and with the edge', async () => {
    const { versions } = await readJson<VersionsJson>(out, endpoints.versions.file());
    const order = new Map(versions.map((v, i) => [v.truth_version, i]));
    let checked = 0;
    for (const type of HISTORY_TYPES) {
      const files = await histories(out, type);
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

  it('writes a first entry that builds the object from nothing, null patches for removals, and one entry per version', async () => {
    const card3 = await readJson<HistoryJson>(out, endpoints.history.file('card', 3));
    expect(card3.versions.map((v) => [v.truth_version, v.change])).toEqual([['v1', 'added'], ['v2', 'removed']]);
    expect(card3.versions[0].patch).toEqual([{ op: 'add', path: '', value: expect.objectContaining({ ordinal: 3 }) }]);
    expect(card3.versions[1].patch).toBeNull();
    // Added in v2, removed in the second build of v3.
    const added = await readJson<HistoryJson>(out, endpoints.history.file('card', 9001));
    expect(added.versions.map((v) => v.change)).toEqual(['added', 'removed']);
    const card1 = await readJson<HistoryJson>(out, endpoints.history.file('card', 1));
    expect(card1.versions.map((v) => v.truth_version)).toEqual(['v1', 'v2', 'v3']);
    expect(card1.versions[2].patch).toContainEqual({ op: 'replace', path: '/hp_base', value: 40 });
  });

  it('rewrites only the histories of objects that changed; the others keep their bytes', async () => {
    const after = await historyFiles(out);
    const rewritten = [...after].filter(([rel, bytes]) => !historyBytes.get(rel)?.equals(bytes)).map(([rel]) => rel);
    expect(rewritten).toContain(endpoints.history.file('card', 2));
    expect(rewritten).not.toContain(endpoints.history.file('card', 1));
    expect(rewritten.length).toBeLessThan(after.size / 4);
  });

  it('answers ?version= on card, accessory and generic routes as that version published, through the edge handler', async () => {
    const site = { read: diskReader(out) };
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
    const current = async (rel: string) => (await handleRequest(new Request(`https://sif.test/${rel}`), site))?.text() ?? fs.readFile(path.join(out, rel), 'utf8');
    for (const rel of [endpoints.card.file(1), `api/v1/card_t/${cardIdOf(1)}`, endpoints.accessory.file(Number(accessoryId))]) {
      const response = (await handleRequest(new Request(`https://sif.test/${rel}?version=v3`), site))!;
      expect(await response.text(), rel).toBe(await current(rel));
    }
    const unknown = await ask('card/1.json?version=v9');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/versions\.json/);
  });

  it('refuses ?version= on a route that does not take it, naming the routes that do', async () => {
    const site = { read: diskReader(out) };
    for (const route of ['pair/1.json', 'card/set_list.json', 'search/card?q=', 'card/random.json', 'list/card_t', 'card_list.json', 'list/nothing']) {
      const url = `https://sif.test/api/v1/${route}${route.includes('?') ? '&' : '?'}version=v1`;
      const response = (await handleRequest(new Request(url), site))!;
      expect(response.status, route).toBe(400);
      expect((await response.json()).error, route).toMatch(/^\?version= is taken only by card\/\{ordinals\}\.json, accessory\/\{ids\}\.json and <type>\/\{ids\}/);
    }
  });

  it('continues the history from a copy of the site alone (--since, a fresh output folder, no build records)', async () => {
    const copy = path.join(await tempDir(), 'copy');
    await fs.copy(out, copy, { dereference: true }); // the output folder is a link to the published version
    const fresh = path.join(await tempDir(), 'public');
    await editDump(input, 'unit.sql', 'UPDATE unit_m SET hp_max = 50 WHERE unit_number = 4;');
    await fs.writeJson(path.join(input, 'meta.json'), { truth_version: 'v4', region: 'jp', date: 1600000000 });
    await build({ input, out: fresh, since: copy });
    const { versions } = await readJson<VersionsJson>(fresh, endpoints.versions.file());
    expect(versions.map((v) => v.truth_version)).toEqual(['v1', 'v2', 'v3', 'v4']);
    const card4 = await readJson<HistoryJson>(fresh, endpoints.history.file('card', 4));
    expect(card4.versions.at(-1)).toMatchObject({ truth_version: 'v4', change: 'changed' });
    for (const rel of [endpoints.history.file('card', 3), endpoints.history.file('card', 1)]) {
      expect((await fs.readFile(path.join(fresh, rel))).equals(await fs.readFile(path.join(copy, rel)))).toBe(true);
    }
  }, 30_000);

  it('refuses, in one line naming the file, a previous site whose history or versions.json is damaged', async () => {
    const copy = path.join(await tempDir(), 'copy');
    await fs.copy(out, copy, { dereference: true });
    const fresh = path.join(await tempDir(), 'public');
    // Card 4 changed in the last step (v4), so its history is read and continued.
    await fs.writeFile(path.join(copy, endpoints.history.file('card', 4)), '{"type":"card","id":4,"versions":[');
    await expect(build({ input, out: fresh, since: copy })).rejects.toThrow(/history\/card\/4\.json: the previous site's history is unreadable/);
    await fs.writeJson(path.join(copy, endpoints.versions.file()), { versions: 'v1' });
    await expect(build({ input, out: fresh, since: copy })).rejects.toThrow(/versions\.json: the previous site's versions\.json is not one this builder publishes/);
    expect(await fs.pathExists(fresh)).toBe(false);
  }, 30_000);

  it('checks every history it carries from a --since site: a patch that does not apply, or a misfit, fails the build in one line', async () => {
    const copy = path.join(await tempDir(), 'copy');
    await fs.copy(out, copy, { dereference: true });
    const fresh = path.join(await tempDir(), 'public');
    // Card 3 is unchanged in the new version: its history would be carried on byte for byte.
    const card3 = path.join(copy, endpoints.history.file('card', 3));
    const history = await fs.readJson(card3) as HistoryJson;
    const damaged: [HistoryJson, RegExp][] = [
      [{ ...history, versions: [...history.versions, { truth_version: 'v3', date: null, change: 'changed', patch: [{ op: 'replace', path: '/no_such_key', value: 1 }] }] }, /the patch of version "v3" does not apply: /],
      [{ ...history, versions: [{ ...history.versions[0], patch: [{ op: 'frobnicate', path: '' } as never] }] }, /\/versions\/0\/patch/],
      [{ ...history, versions: [{ ...history.versions[0], patch: [{ op: 'add', path: '', value: [1] }] }] }, /version "v1" makes the object a list/],
      [{ ...history, id: 4 }, /it is the history of card 4, not of card 3/],
    ];
    for (const [value, why] of damaged) {
      await fs.writeJson(card3, value);
      const error = await build({ input, out: fresh, since: copy }).then(() => null, (e: unknown) => (e as StageError).cause as Error);
      expect(error).toBeInstanceOf(UserError);
      expect(error!.message).toMatch(/history\/card\/3\.json: the previous site's history is not one this builder publishes \(/);
      expect(error!.message).toMatch(why);
    }
    expect(await fs.pathExists(fresh)).toBe(false);
    await fs.writeJson(card3, history);
    await build({ input, out: fresh, since: copy });
    expect(await readJson(fresh, endpoints.history.file('card', 3))).toEqual(history);
  }, 60_000);

  it('reads only regular files of a --since site: a named pipe or a device is refused in one line, never waited on or read without end', async () => {
    const copy = path.join(await tempDir(), 'copy');
    await fs.copy(out, copy, { dereference: true });
    const fresh = path.join(await tempDir(), 'public');
    for (const rel of [endpoints.info.file(), endpoints.history.file('card', 3), endpoints.versions.file(), endpoints.bulkIndex.file()]) {
      const file = path.join(copy, rel);
      const saved = await fs.readFile(file);
      for (const plant of [() => execFileSync('mkfifo', [file]), () => fs.symlinkSync('/dev/zero', file)]) {
        await fs.remove(file);
        plant();
        const error = await build({ input, out: fresh, since: copy }).then(() => null, (e: unknown) => (e as StageError).cause as Error);
        if (rel === endpoints.bulkIndex.file()) {
          expect(error, rel).toBeNull(); // the bulk index only carries updated_in: an unreadable one is none
        } else {
          expect(error, rel).toBeInstanceOf(UserError);
          expect(error!.message, rel).toMatch(new RegExp(`${rel.replace(/[./]/g, '\\$&')}: (a named pipe|a device), not a regular file; only regular files are read from a previous site$`));
        }
      }
      await fs.remove(file);
      await fs.writeFile(file, saved);
    }
  }, 60_000);
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
