/**
 * The bulk stage following a previous site in memory (input/previousSite.ts memorySite): the
 * `updated_in` of each bulk file carried from the previous site's index while the file is the
 * same, and the same bytes for the same input. Only the stage's own scratch folder is on disk.
 * test/build/bulk.test.ts checks the sample build's bulk files themselves.
 */
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../generator/contract/endpoints.ts';
import type { BulkIndexJson } from '../../generator/contract/schemas.ts';
import { bulkPartName } from '../../generator/contract/format.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
import { deriveBulk, pageRanges } from '../../generator/build/derive/bulk.ts';
import { BULK_PART_BYTES, bulkPartBytes, bulkPartLines, MAX_BULK_PARTS } from '../../generator/contract/format.ts';
import { bulkSqlite, SQLITE_PAGE_SIZE, type SqliteKind } from '../../generator/build/derive/bulkSqlite.ts';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { MemoryFiles } from '../../generator/build/siteFiles.ts';
import { memorySite, type PreviousSite } from '../../generator/build/input/previousSite.ts';
import { copySample, expectUpdatedInCarried, nextInMemory, nextSampleVersion, renderInMemory, SAMPLE_INPUT, tempDir } from '../helpers.ts';

/** No previous site: a first build. */
const noSite = () => memorySite(new Map());

describe('api/v1/bulk/index.json after a previous site', () => {
  it('carries updated_in from the previous site\'s index while a file\'s hash is unchanged', async () => {
    const { rendered } = await renderInMemory(SAMPLE_INPUT);
    const scratch = await tempDir();
    const bulk = (truthVersion: string, previous: PreviousSite) => deriveBulk(rendered, new MemoryFiles(), { truthVersion, date: null, previous, scratch });
    const first = await bulk('v1', noSite());
    const [cards, accessories] = first.files;
    const index = { ...first, files: [{ ...cards, updated_in: 'v0' }, { ...accessories, sha256: '0'.repeat(64), updated_in: 'v0' }] };
    const second = await bulk('v2', memorySite(new Map([[endpoints.bulkIndex.file(), Buffer.from(JSON.stringify(index))]])));
    expect(second.files.slice(0, 3).map((f) => f.updated_in)).toEqual(['v0', 'v2', 'v2']);
  });

  it('an update keeps the previous version as updated_in of every file it left unchanged', async () => {
    const first = await nextInMemory(await copySample(), null);
    const second = await nextInMemory(await nextSampleVersion(), first);
    const [before, after]: BulkIndexJson[] = [first.json(endpoints.bulkIndex.file()), second.json(endpoints.bulkIndex.file())];
    expect(after).toEqual(second.bulk);
    expectUpdatedInCarried(before, after);
  });
});

describe('api/v1/bulk/sif.sqlite', () => {
  it('is byte-identical for the same input (built twice in one process)', async () => {
    const scratch = await tempDir();
    const bulk = async () => {
      const { truthVersion, rendered } = await renderInMemory(SAMPLE_INPUT);
      const files = new MemoryFiles();
      await deriveBulk(rendered, files, { truthVersion, date: null, previous: noSite(), scratch });
      return files;
    };
    const [a, b] = [await bulk(), await bulk()];
    expect([...a.keys()]).toEqual([...b.keys()]);
    const index = JSON.parse(a.get(endpoints.bulkIndex.file())!.toString()) as BulkIndexJson;
    const sqliteParts = index.files.find((file) => file.name === 'sif.sqlite')!.parts!;
    expect(sqliteParts.length).toBeGreaterThan(0);
    for (const part of sqliteParts) expect(part.path).toBe(`/${endpoints.bulkPart.file('sif.sqlite', bulkPartName(part.sha256))}`);
    for (const [rel, bytes] of a) expect(bytes.equals(b.get(rel)!), rel).toBe(true);
  });
});

describe('the SQLite file\'s parts (derive/bulk.ts pageRanges)', () => {
  it('cut at each table\'s or index\'s first page and every average count after it, short pieces joined to the next, covering every page in order', () => {
    expect(pageRanges([2, 3, 12], 13, 4)).toEqual([[1, 3], [3, 7], [7, 11], [11, 14]]);
    fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 2, max: 300 })), fc.integer({ min: 1, max: 300 }), (roots, pages) => {
      const ranges = pageRanges(roots, pages, 8);
      expect(ranges.flatMap(([first, end]) => Array.from({ length: end - first }, (_, i) => first + i))).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
      const starts = [1, ...roots.filter((root) => root <= pages)];
      // Every cut a b-tree's first page or a whole number of averages after the last such page before it.
      for (const [first] of ranges) expect((first - Math.max(...starts.filter((start) => start <= first))) % 8, `${first}`).toBe(0);
      for (const [i, [first, end]] of ranges.entries()) {
        expect(end - first).toBeLessThan(8 + 4);
        if (i < ranges.length - 1) expect(end - first).toBeGreaterThanOrEqual(4);
      }
      // So at most 2 x pages / average + 1 parts, whatever the tables (format.ts bulkPartBytes).
      expect(ranges.length).toBeLessThanOrEqual((2 * pages) / 8 + 1);
    }));
  });

  it('a file of any size makes at most MAX_BULK_PARTS parts (each a read when the edge joins it)', () => {
    const sizes = fc.integer({ min: 0, max: 2 ** 34 });
    fc.assert(fc.property(sizes, fc.integer({ min: 1, max: 2 ** 24 }), fc.uniqueArray(fc.integer({ min: 2, max: 2 ** 22 }), { maxLength: 300 }), (bytes, lines, roots) => {
      const pageCount = Math.ceil(bytes / SQLITE_PAGE_SIZE);
      expect(pageRanges(roots, pageCount, bulkPartBytes(bytes) / SQLITE_PAGE_SIZE).length).toBeLessThanOrEqual(MAX_BULK_PARTS);
      expect(Math.ceil(lines / bulkPartLines(lines, bytes))).toBeLessThanOrEqual(MAX_BULK_PARTS);
    }));
    expect(bulkPartBytes(BULK_PART_BYTES)).toBe(BULK_PART_BYTES);
    expect(bulkPartBytes(100 * 1024 ** 2)).toBeGreaterThan(BULK_PART_BYTES);
  });

  it('a table grown by pages leaves the parts of the tables after it as they were, but for each one\'s first (its root)', async () => {
    const dir = await tempDir();
    const parts = async (cards: number) => {
      const objects = Array.from({ length: cards }, (_, i) => ({ id: i + 1, text: 'x'.repeat(3000) }));
      const later = Array.from({ length: 6000 }, (_, i) => ({ id: i + 1, name: `skill ${i}`, text: 'y'.repeat(500) }));
      const kinds: SqliteKind[] = [objects, later].map((list, i) => ({ name: ['cards', 'skill_t'][i], objects: list, json: list.map((o) => [JSON.stringify(o)]) }));
      const file = path.join(dir, `${cards}.sqlite`);
      // meta, cards, cards' id index, skill_t, skill_t's id index
      const roots = bulkSqlite(kinds, { truthVersion: 'v', date: null }, file);
      const bytes = fs.readFileSync(file);
      const ranges = pageRanges(roots, bytes.length / SQLITE_PAGE_SIZE, 8);
      const hash = ([first, end]: [number, number]) => sha256(bytes.subarray((first - 1) * SQLITE_PAGE_SIZE, (end - 1) * SQLITE_PAGE_SIZE));
      return { roots, all: ranges.map(hash), skills: ranges.filter(([first]) => first >= roots[3]).map(hash) };
    };
    const [before, after] = [await parts(400), await parts(460)];
    expect(after.roots[3]).toBeGreaterThan(before.roots[3]); // the cards grew by pages: everything after moved
    expect(after.skills.length).toBeGreaterThan(4);
    // Of the skills' parts (table and index), only each b-tree's first (its root names its pages) is new.
    expect(after.skills.filter((hash) => !before.all.includes(hash)).length).toBeLessThanOrEqual(2);
  });
});
