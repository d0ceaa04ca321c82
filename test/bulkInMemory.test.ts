/**
 * The bulk stage following a previous site in memory (input/previousSite.ts memorySite): the
 * `updated_in` of each bulk file carried from the previous site's index while the file is the
 * same, and the same bytes for the same input. Only the stage's own scratch folder is on disk.
 * test/bulk.test.ts checks the sample build's bulk files themselves.
 */
import { describe, expect, it } from 'vitest';
import { endpoints } from '../generator/contract/endpoints.ts';
import type { BulkIndexJson } from '../generator/contract/schemas.ts';
import { bulkPartName } from '../generator/contract/format.ts';
import { deriveBulk } from '../generator/build/derive/bulk.ts';
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
