/**
 * The changelog of sites in folders: versions of the sample export built one after another into
 * the same --out (the build's own records), an unchanged rebuild that touches no file, --since a
 * site published elsewhere, and the build's summary line. test/unit/changesInMemory.test.ts checks
 * the change lists themselves.
 */
import path from 'node:path';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';
import { build, type BuildOptions } from '../../generator/build/build.ts';
import { endpoints } from '../../generator/contract/endpoints.ts';
import { describeCounts } from '../../generator/build/changes/diff.ts';
import { copySample, copySite, copyTree, once, readJson, tempDir } from '../helpers.ts';
import { contentDiff, editDump, rewritten, snapshot } from '../exportEdits.ts';
import { buildSummary } from '../../generator/build/summary.ts';

const INDEX = endpoints.changeIndex.file();
const listOf = (version: string) => endpoints.changes.file(version);

/** The test's export `input` (a folder it may change) built into one --out again and again. */
function versionsOf(input: string, out: string) {
  return {
    input,
    out,
    build: (options: Partial<BuildOptions> = {}) => build({ input, out, ...options }),
    json: <T = any>(rel: string) => readJson<T>(out, rel),
    /** meta.json naming the next version (and its date, when given). */
    version: (truthVersion: string, date?: number | string) =>
      fs.writeJson(path.join(input, 'meta.json'), { truth_version: truthVersion, region: 'jp', ...(date === undefined ? {} : { date }) }),
    edit: (sql: string) => editDump(input, 'unit.sql', sql),
  };
}

type Versions = ReturnType<typeof versionsOf>;

/** The sample (without pictures: they are no data) in a folder the test may change, not built yet. */
async function successiveVersions(): Promise<Versions> {
  const input = await copySample();
  await fs.remove(path.join(input, 'assets'));
  return versionsOf(input, path.join(path.dirname(input), 'public'));
}

/**
 * The versions many tests start from, each built once for the file (the first test that asks builds
 * it) and handed out as copies (export and site) the test may change: a copy costs far less than the
 * builds that made it.
 */
const STARTS = {
  /** The first version, built. */
  'first build': once(async () => {
    const v = await successiveVersions();
    await v.build();
    return v;
  }),
  /** Then v2 (no date in meta.json), with one card added, built over it. */
  'v2 with a card added': once(async () => {
    const v = await builtVersions('first build');
    await v.version('v2');
    await v.edit(ADD_CARD(5000, 37));
    await v.build();
    return v;
  }),
} satisfies Record<string, () => Promise<Versions>>;

/** A copy of a start's export and site. */
async function builtVersions(start: keyof typeof STARTS): Promise<Versions> {
  const base = await STARTS[start]();
  const input = path.join(await tempDir(), 'input');
  copyTree(base.input, input);
  return versionsOf(input, await copySite(base.out));
}

/** A copy of the ordinal-1 card as a new readable card. */
const ADD_CARD = (unitId: number, ordinal: number) => `CREATE TEMP TABLE c AS SELECT * FROM unit_m WHERE unit_number = 1;
  UPDATE c SET unit_id = ${unitId}, unit_number = ${ordinal}; INSERT INTO unit_m SELECT * FROM c;`;

describe('/api/v1/changes/index.json and /api/v1/changes.json: the history', () => {
  it('an unchanged rebuild publishes no new list and changes no byte, with --force too', async () => {
    const v = await builtVersions('v2 with a card added');
    const before = await snapshot(v.out);
    const upToDate = await v.build();
    expect(upToDate.upToDate).toBe(true);
    expect(describeCounts(upToDate.update!)).toBe('none');
    const forced = await v.build({ force: true });
    expect(forced.upToDate).toBe(false);
    expect(describeCounts(forced.update!)).toBe('none');
    const after = await snapshot(v.out);
    expect(contentDiff(before.files, after.files)).toEqual([]);
    expect(rewritten(before.files, after.files)).toEqual([]);
    expect((await v.json(INDEX)).changes).toHaveLength(1);
  });
});

describe('--since <dir>', () => {
  it('compares with a site published elsewhere and carries its history', async () => {
    const v = await builtVersions('v2 with a card added'); // v.out: the second version, with its list
    await v.version('v3');
    await v.edit('DELETE FROM unit_m WHERE unit_number = 5');
    const other = path.join(await tempDir(), 'public');
    const report = await build({ input: v.input, out: other, since: v.out });
    expect(report.update?.cards).toEqual({ added: 0, removed: 1, changed: 0 });
    expect((await readJson(other, listOf('v3'))).types.cards.removed_ordinals).toEqual([5]);
    expect((await readJson(other, INDEX)).changes.map((c: any) => [c.truth_version, c.from_truth_version])).toEqual([['v3', 'v2'], ['v2', 'sample-2026.11']]);
    expect(await fs.readFile(path.join(other, listOf('v2')))).toEqual(await fs.readFile(path.join(v.out, listOf('v2'))));
    // The next build into that folder compares with its own previous build again: up to date.
    expect((await build({ input: v.input, out: other })).upToDate).toBe(true);
    // --since runs even when the output is up to date; against the same data nothing changed.
    const before = await snapshot(other);
    expect(describeCounts((await build({ input: v.input, out: other, since: other })).update!)).toBe('none');
    expect(contentDiff(before.files, (await snapshot(other)).files)).toEqual([]);
  });

  it('fails with one line naming the folder when it is not a published site, leaving --out as it was', async () => {
    const v = await builtVersions('first build');
    const before = await snapshot(v.out);
    const notASite = await tempDir();
    await v.version('v2');
    await expect(v.build({ since: notASite })).rejects.toThrow(`--since ${notASite}: api/v1/info.json is missing`);
    expect(contentDiff(before.files, (await snapshot(v.out)).files)).toEqual([]);
  });
});

describe('the build summary', () => {
  it('ends with the update line: what this build changed, or none', async () => {
    const v = await successiveVersions();
    const summary = async (options?: Partial<BuildOptions>) => buildSummary(await v.build(options), 'report.json');
    expect(await summary()).not.toMatch(/^update:/m);
    await v.version('v2');
    await v.edit(`${ADD_CARD(5000, 37)} UPDATE unit_skill_level_m SET activation_rate = activation_rate + 1 WHERE unit_skill_id = 2;`);
    expect((await summary()).split('\n').at(-1)).toMatch(/^update: 1 card added, \d+ cards changed, 1 skill changed, 1 character changed, 1 set changed$/);
    expect((await summary({ force: true })).split('\n').at(-1)).toBe('update: none');
  });
});
