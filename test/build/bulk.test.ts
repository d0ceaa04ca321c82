/**
 * The bulk downloads (api/v1/bulk/) and the file manifest (api/v1/manifest.json) of the
 * sample build: every line against its single-object file, every SQLite row and column
 * against the objects, every hash and size against the bytes, the manifest against the tree.
 */
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'fs-extra';
import fg from 'fast-glob';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { BULK_KINDS, LINES_ONLY_KINDS, OBJECT_TYPE_NAMES, endpoints, objectEndpoint, type BulkKind } from '../../generator/contract/endpoints.ts';
import type { BulkIndexJson, FileManifestJson } from '../../generator/contract/schemas.ts';
import { bulkSqlite } from '../../generator/build/derive/bulkSqlite.ts';
import { API_MAJOR, API_REVISION, BLOCK_SUMS_MIN_BYTES, bulkPartBytes, bulkPartLines, MAX_BULK_PARTS, MANIFEST_BLOCK_SIZE, bulkPartName } from '../../generator/contract/format.ts';
import { SQLITE_PAGE_SIZE } from '../../generator/build/derive/bulkSqlite.ts';
import { blockSums } from '../../generator/build/blockSums.ts';
import { handleRequest } from '../../generator/runtime/edge/handler.ts';
import { diskBytesReader, diskReader } from '../../generator/hosts/node/runtime/diskSite.ts';
import { buildSample, newStaging, packedText, readJson, tempDir } from '../helpers.ts';

const BULK = 'api/v1/bulk';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let out: string;
let index: BulkIndexJson;
const text = (rel: string) => fs.readFile(path.join(out, rel), 'utf8');
const entryOf = (name: string) => index.files.find((f) => f.name === name)!;
/** A bulk file as a user of a plain static host makes it: its parts joined in the index's order. */
const wholeFile = async (name: string) => Buffer.concat(await Promise.all(entryOf(name).parts!.map((part) => fs.readFile(path.join(out, part.path)))));
/** The joined file written to a folder of its own, as `cat parts > file` would. */
async function joinedOnDisk(name: string): Promise<string> {
  const file = path.join(await tempDir(), name);
  await fs.writeFile(file, await wholeFile(name));
  return file;
}
/** A JSON Lines file's lines (it ends with a newline, unless it is empty). */
async function lines(name: string): Promise<string[]> {
  const all = (await wholeFile(name)).toString('utf8').split('\n');
  expect(all.pop()).toBe('');
  return all;
}
/** The one object of a single-object file `{"<key>":[object]}` as its text, cut out of the file's bytes. */
async function soleObject(rel: string, key: string): Promise<string> {
  const file = await text(rel);
  const prefix = `{"${key}":[`;
  expect(file.startsWith(prefix) && file.endsWith(']}'), rel).toBe(true);
  return file.slice(prefix.length, -2);
}

beforeAll(async () => {
  ({ out } = await buildSample());
  index = await readJson(out, endpoints.bulkIndex.file());
});

describe('api/v1/bulk/<kind>.jsonl', () => {
  it('cards.jsonl: each line is card/<ordinal>.json\'s card byte for byte, in ordinal order', async () => {
    const cards = await lines('cards.jsonl');
    const ordinals = cards.map((line) => JSON.parse(line).ordinal as number);
    expect(ordinals).toEqual([...ordinals].sort((a, b) => a - b));
    expect(cards.length).toBe((await readJson(out, endpoints.cardList.file())).stubs.length);
    for (const [i, line] of cards.entries()) expect(line).toBe(await soleObject(endpoints.card.file(ordinals[i]), 'cards'));
  });

  it('accessories.jsonl and every generic type: each line is the object its route publishes, in id order', async () => {
    const accessories = await lines('accessories.jsonl');
    for (const line of accessories) expect(line).toBe(await soleObject(endpoints.accessory.file(JSON.parse(line).id), 'accessories'));
    for (const type of OBJECT_TYPE_NAMES) {
      const objects = await lines(`${type}.jsonl`);
      const listed = (await readJson(out, objectEndpoint[type].list.file())).result.map((entry: { id: number }) => entry.id);
      expect(objects.map((line) => JSON.parse(line).id), type).toEqual(listed);
      for (const [i, line] of objects.entries()) expect(line).toBe(packedText(out, type, listed[i]));
    }
  });

  it('sets.jsonl and pairs.jsonl: the route body with the list entry\'s fields, in the list\'s order', async () => {
    const sets = (await lines('sets.jsonl')).map((line) => JSON.parse(line));
    const setList = (await readJson(out, endpoints.setList.file())).sets;
    expect(sets.map(({ cards: _, ...entry }) => entry)).toEqual(setList);
    for (const set of sets) expect(set.cards).toEqual((await readJson(out, endpoints.set.file(set.id))).cards);
    const pairs = (await lines('pairs.jsonl')).map((line) => JSON.parse(line));
    const pairList = (await readJson(out, endpoints.pairList.file())).pairs;
    expect(pairs.length).toBeGreaterThan(0);
    expect(pairs.map(({ cards: _, ...entry }) => entry)).toEqual(pairList);
    for (const pair of pairs) expect(pair.cards).toEqual((await readJson(out, endpoints.pair.file(pair.pair))).cards);
  });
});

describe('api/v1/bulk/index.json and the .sha256 files', () => {
  it('lists every bulk file with its count, size and SHA-256, and sha256sum -c passes', async () => {
    const names = index.files.map((f) => f.name);
    expect(names).toEqual(['cards.jsonl', 'accessories.jsonl', 'sets.jsonl', 'pairs.jsonl', ...OBJECT_TYPE_NAMES.map((t) => `${t}.jsonl`), 'notes.jsonl', 'sif.sqlite']);
    expect(names).toEqual([...BULK_KINDS.map((kind) => `${kind}.jsonl`), 'sif.sqlite']);
    expect(index.truth_version).toBe((await readJson(out, endpoints.info.file())).truth_version);
    const joined = await tempDir();
    /** The first file listing each part's bytes: a part with the bytes of one listed before is that file (derive/bulk.ts publishParts). */
    const firstListed = new Map<string, string>();
    for (const file of index.files) {
      const bytes = await wholeFile(file.name);
      expect(file.path).toBe(`/${BULK}/${file.name}`);
      expect([file.bytes, file.sha256, file.updated_in]).toEqual([bytes.length, sha256(bytes), index.truth_version]);
      for (const [i, part] of file.parts!.entries()) {
        const partBytes = await fs.readFile(path.join(out, part.path));
        if (!firstListed.has(part.sha256)) firstListed.set(part.sha256, file.name);
        expect(part.path).toBe(`/${endpoints.bulkPart.file(firstListed.get(part.sha256)!, bulkPartName(part.sha256))}`);
        expect([part.bytes, part.sha256]).toEqual([partBytes.length, sha256(partBytes)]);
        // SQLite parts of whole pages, at most one and a half parts' worth (derive/bulk.ts pageRanges); JSON Lines by position.
        if (i < file.parts!.length - 1 && file.format === 'sqlite') expect(part.bytes % SQLITE_PAGE_SIZE).toBe(0);
        if (file.format === 'sqlite') expect(part.bytes).toBeLessThanOrEqual(1.5 * bulkPartBytes(file.bytes));
        const perPart = bulkPartLines(file.count, file.bytes);
        if (file.format === 'jsonl') expect(partBytes.toString().split('\n').length - 1).toBe(Math.min(perPart, file.count - i * perPart));
      }
      expect(file.parts!.length).toBeLessThanOrEqual(MAX_BULK_PARTS);
      if (file.format === 'jsonl') expect(file.count).toBe((await lines(file.name)).length);
      await fs.writeFile(path.join(joined, file.name), bytes);
      await fs.copy(path.join(out, BULK, `${file.name}.sha256`), path.join(joined, `${file.name}.sha256`));
    }
    // card_t.jsonl holds cards.jsonl's lines by id (the sample's ids run in ordinal order) and accessory_t.jsonl accessories.jsonl's: the same parts, no copy.
    const partsOf = (name: string) => index.files.find((f) => f.name === name)!.parts!.map((part) => part.path);
    expect(partsOf('card_t.jsonl')).toEqual(partsOf('cards.jsonl'));
    expect(partsOf('accessory_t.jsonl')).toEqual(partsOf('accessories.jsonl'));
    expect(await fg(`${BULK}/parts/{card_t,accessory_t}.jsonl/*`, { cwd: out })).toEqual([]);
    const checked = execFileSync('sha256sum', ['-c', ...names.map((n) => `${n}.sha256`)], { cwd: joined, encoding: 'utf8' });
    expect(checked.trim().split('\n')).toEqual(names.map((n) => `${n}: OK`));
  });

  it('the edge answers each bulk file at its own URL: its parts joined, with its size and hash as validator', async () => {
    const site = { read: diskReader(out), readBytes: diskBytesReader(out) };
    for (const name of ['cards.jsonl', 'sets.jsonl', 'sif.sqlite']) {
      const url = `http://localhost/${BULK}/${name}`;
      const response = (await handleRequest(new Request(url), site))!;
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(await wholeFile(name)), name).toBe(true);
      expect(response.headers.get('content-length')).toBe(String(entryOf(name).bytes));
      const etag = response.headers.get('etag')!;
      expect(etag).toBe(`"${entryOf(name).sha256.slice(0, 32)}"`);
      const head = (await handleRequest(new Request(url, { method: 'HEAD' }), site))!;
      expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, String(entryOf(name).bytes), '']);
      expect((await handleRequest(new Request(url, { headers: { 'if-none-match': etag } }), site))!.status).toBe(304);
    }
    const missing = (await handleRequest(new Request(`http://localhost/${BULK}/nothing.jsonl`), site))!;
    expect([missing.status, (await missing.json()).error]).toEqual([404, 'no bulk file nothing.jsonl (bulk/index.json lists them)']);
  });

});

describe('api/v1/bulk/sif.sqlite', () => {
  it('holds every kind as a table: a row per line, a column per scalar field, json as published', async () => {
    const db = new Database(await joinedOnDisk('sif.sqlite'), { readonly: true });
    try {
      const views = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'view'").all() as { name: string }[]).map((v) => v.name);
      expect(views.sort()).toEqual(['accessory_t', 'card_t']);
      // Every kind but those of JSON Lines alone (a chart's notes).
      const tables = index.files.filter((f) => f.format === 'jsonl' && !LINES_ONLY_KINDS.includes(f.type as BulkKind));
      expect(tables.length).toBe(index.files.length - 1 - LINES_ONLY_KINDS.length);
      for (const file of tables) {
        const objects = await lines(file.name);
        const rows = db.prepare(`SELECT * FROM "${file.type}"${views.includes(file.type) ? '' : ' ORDER BY rowid'}`).all() as Record<string, unknown>[];
        expect(rows.map((row) => row.json), file.type).toEqual(objects);
        const columns = Object.keys(rows[0] ?? {}).filter((c) => c !== 'json');
        if (rows.length) expect(columns, file.type).toContain(file.type === 'pairs' ? 'pair' : 'id');
        const parsed = objects.map((line) => JSON.parse(line));
        rows.forEach((row, i) => {
          for (const column of columns) {
            const value = parsed[i][column];
            expect(row[column], `${file.type} ${i} ${column}`).toEqual(typeof value === 'boolean' ? Number(value) : value ?? null);
          }
        });
        // A field has its column when it is a scalar (or null) in every object of the kind.
        const fields = new Set(parsed.flatMap((object) => Object.keys(object)));
        const scalars = [...fields].filter((f) => parsed.every((o) => o[f] === null || typeof o[f] !== 'object'));
        expect(columns.sort(), file.type).toEqual(scalars.sort());
      }
      const indexed = db.prepare("SELECT tbl_name, sql FROM sqlite_master WHERE type = 'index'").all() as { tbl_name: string; sql: string }[];
      expect(indexed.filter((i) => i.tbl_name === 'cards').map((i) => i.sql)).toEqual([
        'CREATE INDEX "cards_id" ON "cards" ("id")', 'CREATE INDEX "cards_ordinal" ON "cards" ("ordinal")',
      ]);
      expect(new Set(indexed.map((i) => i.tbl_name)).size).toBe(tables.length - views.length);
      const all = (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").all() as { name: string }[]).map((t) => t.name);
      expect(all.sort()).toEqual([...tables.map((f) => f.type), 'meta'].sort());
      expect(db.prepare('SELECT * FROM meta').all()).toEqual([{ truth_version: index.truth_version, api_major: API_MAJOR, api_revision: API_REVISION, date: index.date }]);
      expect(db.prepare('SELECT count(*) AS n FROM cards WHERE rarity = 4').get()).toEqual({ n: (await lines('cards.jsonl')).filter((l) => JSON.parse(l).rarity === 4).length });
    } finally {
      db.close();
    }
  });

  it('gives fields that differ only in case (SQLite\'s column names do not) one column, the first', async () => {
    const objects = [{ id: 1, name: 'named', NAME: 'a game column', JSON: 'not the json column', flag: true }];
    const file = path.join(await tempDir(), 'sif.sqlite');
    bulkSqlite([{ name: 'removable_skill_t', objects, json: objects.map((o) => [JSON.stringify(o)]) }], { truthVersion: 'v', date: null }, file);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT * FROM removable_skill_t').all()).toEqual([{ id: 1, name: 'named', flag: 1, json: JSON.stringify(objects[0]) }]);
    } finally {
      db.close();
    }
  });

});

describe('api/v1/manifest.json', () => {
  it('lists every file the site serves with its SHA-256 and size (and block sums from 64 KiB), but itself, its block sums and the host configuration files', async () => {
    const manifest: FileManifestJson = await readJson(out, endpoints.fileManifest.file());
    const tree = (await fg('**', { cwd: out, dot: true })).sort();
    const hostConfig = ['_redirects', '_headers', '_worker.js', '_routes.json', '.assetsignore'];
    const manifests = [endpoints.fileManifest.file(), endpoints.manifestBlocks.file()];
    expect(tree).toEqual(expect.arrayContaining([...hostConfig, ...manifests]));
    const served = tree.filter((rel) => !hostConfig.includes(rel) && !manifests.includes(rel));
    expect(Object.keys(manifest.files).sort()).toEqual(served.map((rel) => `/${rel}`));
    for (const rel of served) {
      const bytes = await fs.readFile(path.join(out, rel));
      const blocks = bytes.length >= BLOCK_SUMS_MIN_BYTES ? { blocks: blockSums(bytes) } : {};
      expect(manifest.files[`/${rel}`], rel).toEqual({ sha256: sha256(bytes), bytes: bytes.length, ...blocks });
    }
    expect(Object.values(manifest.files).filter((entry) => entry.blocks).length).toBeGreaterThan(3);
    expect(manifest.truth_version).toBe(index.truth_version);
    const bytes = await fs.readFile(path.join(out, endpoints.fileManifest.file()));
    expect(await readJson(out, endpoints.manifestBlocks.file())).toEqual({
      sha256: sha256(bytes), bytes: bytes.length, block_size: MANIFEST_BLOCK_SIZE, blocks: blockSums(bytes, MANIFEST_BLOCK_SIZE),
    });
  });
});

describe('a bulk part on its way to the disk', () => {
  it('is moved to a writer when its maker gives it up, never copied, its hash taken from the maker; written byte for byte; any other buffer stays whole', async () => {
    const { staging, files, layout } = await newStaging();
    const part = (seed: number) => Buffer.from(Array.from({ length: 300 * 1024 }, (_, i) => (i * seed) & 0xff));
    const [given, hashed, kept, small] = [part(7), part(5), part(11), Buffer.from('{"small":true}')];
    const expected = { given: sha256(given), hashed: sha256(hashed), kept: sha256(kept), small: sha256(small) };
    // The maker's hash is taken as it is: a wrong one (never made by the build) shows it was not taken again.
    const claimed = 'f'.repeat(64);
    files.set('given.bin', given, { sha256: expected.given });
    files.set('hashed.bin', hashed, { sha256: claimed });
    files.set('kept.bin', kept);
    files.set('small.json', small, { sha256: expected.small });
    expect([given.length, hashed.length]).toEqual([0, 0]); // their memory went to the writer
    expect([kept.length, small.length]).toEqual([300 * 1024, 14]);
    await files.settled();
    expect(files.digest('hashed.bin').sha256).toBe(claimed);
    expect(sha256(await fs.readFile(path.join(layout.staging, 'hashed.bin')))).toBe(expected.hashed);
    for (const [rel, hash] of [['given.bin', expected.given], ['kept.bin', expected.kept], ['small.json', expected.small]]) {
      expect(files.digest(rel).sha256, rel).toBe(hash);
      expect(sha256(await fs.readFile(path.join(layout.staging, rel))), rel).toBe(hash);
    }
    await staging.abort();
  });
});
