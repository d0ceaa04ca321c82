/**
 * The bulk stage following a previous site in memory (input/previousSite.ts memorySite): the
 * `updated_in` of each bulk file carried from the previous site's index while the file is the
 * same, and the same bytes for the same input. Only the stage's own scratch folder is on disk.
 * test/bulk.test.ts checks the sample build's bulk files themselves.
 */
import { describe, expect, it } from 'vitest';
import { endpoints } from '../generator/contract/endpoints.ts';
import type { BulkIndexJson } from '../generator/contract/schemas.ts';
import { bulkPartName, PART_SPREAD } from '../generator/contract/format.ts';
import { cuts, deriveBulk } from '../generator/build/derive/bulk.ts';
import fc from 'fast-check';
import { MemoryFiles } from '../generator/build/render/files.ts';
import { memorySite, type PreviousSite } from '../generator/build/input/previousSite.ts';
import { copySample, expectUpdatedInCarried, nextInMemory, nextSampleVersion, renderInMemory, SAMPLE_INPUT, tempDir } from './helpers.ts';

/** No previous site: a first build. */
const noSite = () => memorySite(new Map());

describe('api/v1/bulk/index.json after a previous site', () => {
  it('carries updated_in from the previous site\'s index while a file\'s hash is unchanged', async () => {
    const { rendered } = renderInMemory(SAMPLE_INPUT);
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
      const { model, rendered } = renderInMemory(SAMPLE_INPUT);
      const files = new MemoryFiles();
      await deriveBulk(rendered, files, { truthVersion: model.truthVersion, date: null, previous: noSite(), scratch });
      return files;
    };
    const [a, b] = [await bulk(), await bulk()];
    expect([...a.keys()]).toEqual([...b.keys()]);
    expect(a.get(endpoints.bulkPart.file('sif.sqlite', bulkPartName(0)))!.length).toBeGreaterThan(0);
    for (const [rel, bytes] of a) expect(bytes.equals(b.get(rel)!), rel).toBe(true);
  });
});

describe('where bulk parts end (derive/bulk.ts cuts)', () => {
  /** The parts `cuts` makes of `units` (each unit its own mark). */
  const partsOf = (units: number[], average: number) => {
    let start = 0;
    return cuts(units, average).map((end) => units.slice(start, (start = end)));
  };

  it('covers every unit in order, each part within a quarter and PART_SPREAD times the average (the last may be shorter)', () => {
    fc.assert(fc.property(fc.array(fc.nat(), { maxLength: 400 }), fc.constantFrom(1, 2, 8, 32), (units, average) => {
      const parts = partsOf(units, average);
      expect(parts.flat()).toEqual(units);
      for (const part of parts) expect(part.length).toBeLessThanOrEqual(average * PART_SPREAD);
      for (const part of parts.slice(0, -1)) expect(part.length).toBeGreaterThanOrEqual(Math.max(1, average / 4));
    }));
  });

  it('a unit inserted, removed or changed rewrites its own part and the next at most: the parts after stay as they were', () => {
    fc.assert(fc.property(fc.array(fc.nat(), { minLength: 200, maxLength: 400 }), fc.nat(), fc.nat(), fc.constantFrom('insert', 'remove', 'change'), (units, at, value, edit) => {
      const i = at % units.length;
      const edited = [...units];
      if (edit === 'insert') edited.splice(i, 0, value);
      else if (edit === 'remove') edited.splice(i, 1);
      else edited[i] = value;
      const [before, after] = [partsOf(units, 8), partsOf(edited, 8)].map((parts) => parts.map((part) => part.join(',')));
      const changed = after.filter((part) => !before.includes(part));
      expect(changed.length).toBeLessThanOrEqual(3);
    }));
  });
});
