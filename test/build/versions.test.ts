/**
 * Versions of a site in folders: a fresh build given a copy of a site (--since) carries the whole
 * history on, and refuses, in one line, a copy whose history is damaged or whose files are not
 * regular files. The sites are the versions of test/versionSteps.ts, rendered in memory and
 * written to a folder; test/unit/versionsInMemory.test.ts checks their histories themselves.
 */
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import fs from 'fs-extra';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build/build.ts';
import { StageError, UserError } from '../../generator/build/errors.ts';
import { endpoints } from '../../generator/contract/endpoints.ts';
import type { BulkIndexJson, HistoryJson, VersionsJson } from '../../generator/contract/schemas.ts';
import { readJson, tempDir, writeSite } from '../helpers.ts';
import { editDump } from '../exportEdits.ts';
import { successiveVersions, writeVersion } from '../versionSteps.ts';

describe('versions of one site, --since a copy of it', () => {
  /** The export as the last version left it. */
  let input: string;
  /** The last version's site, in memory. */
  let site: ReadonlyMap<string, Buffer>;

  beforeAll(async () => {
    const versions = await successiveVersions();
    input = versions.input;
    site = versions.sites.at(-1)!.files;
  });

  /** A copy of the site in a folder of its own, which the test may change. */
  async function siteCopy(): Promise<string> {
    const copy = path.join(await tempDir(), 'copy');
    writeSite(site, copy);
    return copy;
  }

  it('continues the history from a copy of the site alone (--since, a fresh output folder, no build records)', async () => {
    const copy = await siteCopy();
    const fresh = path.join(await tempDir(), 'public');
    await editDump(input, 'unit.sql', 'UPDATE unit_m SET hp_max = 50 WHERE unit_number = 4;');
    await writeVersion(input, 'v4', 1600000000);
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
    const copy = await siteCopy();
    const fresh = path.join(await tempDir(), 'public');
    // Card 4 changed in the last step (v4), so its history is read and continued.
    await fs.writeFile(path.join(copy, endpoints.history.file('card', 4)), '{"type":"card","id":4,"versions":[');
    await expect(build({ input, out: fresh, since: copy })).rejects.toThrow(/history\/card\/4\.json: the previous site's history is unreadable/);
    await fs.writeJson(path.join(copy, endpoints.versions.file()), { versions: 'v1' });
    await expect(build({ input, out: fresh, since: copy })).rejects.toThrow(/versions\.json: the previous site's versions\.json is not one this builder publishes/);
    expect(await fs.pathExists(fresh)).toBe(false);
  }, 30_000);

  it('checks every history it carries from a --since site: a patch that does not apply, or a misfit, fails the build in one line', async () => {
    const copy = await siteCopy();
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

  it('holds every truth version it carries from a --since site to a new one\'s rules: refused in one line, or (a bulk file\'s updated_in) not carried', async () => {
    const copy = await siteCopy();
    const fresh = path.join(await tempDir(), 'public');
    await editDump(input, 'unit.sql', 'UPDATE unit_m SET hp_max = 51 WHERE unit_number = 4;');
    await writeVersion(input, 'v4', 1600000000);
    const file = (rel: string) => path.join(copy, rel);
    const failure = () => build({ input, out: fresh, since: copy }).then(() => null, (e: unknown) => (e as StageError).cause as Error);
    /** Writes `value` over the copy's `rel`, expects the build to fail with `message`, and puts the file back. */
    const refused = async (rel: string, value: unknown, message: RegExp) => {
      const before = await fs.readFile(file(rel));
      await fs.writeJson(file(rel), value);
      const error = await failure();
      expect(error, rel).toBeInstanceOf(UserError);
      expect(error!.message, rel).toMatch(message);
      expect(error!.message.split('\n'), rel).toHaveLength(1);
      await fs.writeFile(file(rel), before);
    };
    const versions = await fs.readJson(file(endpoints.versions.file())) as VersionsJson;
    await refused(endpoints.versions.file(), { versions: [{ ...versions.versions[0], truth_version: '../../../../tmp/PWN' }, ...versions.versions.slice(1)] },
      /versions\.json: the previous site's versions\.json is not one this builder publishes \(its truth_version "\.\.\/\.\.\/\.\.\/\.\.\/tmp\/PWN" cannot be one: /);
    const card3 = await fs.readJson(file(endpoints.history.file('card', 3))) as HistoryJson;
    await refused(endpoints.history.file('card', 3), { ...card3, versions: [{ ...card3.versions[0], truth_version: 'v1\u001b[2J' }, ...card3.versions.slice(1)] },
      /history\/card\/3\.json: the previous site's history is not one this builder publishes \(its truth_version "v1\\u001b\[2J" cannot be one: /);
    const list = await fs.readJson(file(endpoints.changes.file('v3')));
    await refused(endpoints.changes.file('v3'), { ...list, from: { ...list.from, truth_version: 'CON' } },
      /changes\/v3\.json: the previous site's v3\.json cannot be carried: its truth_version "CON" cannot be one: /);
    const info = await fs.readJson(file(endpoints.info.file()));
    await refused(endpoints.info.file(), { ...info, truth_version: 'a/b' }, /info\.json: the previous site's info\.json cannot be carried: its truth_version "a\/b" cannot be one: /);
    expect(await fs.pathExists(fresh)).toBe(false);
    // A bulk file's updated_in that a build would refuse is not carried: the file is then updated in this version.
    const index = await fs.readJson(file(endpoints.bulkIndex.file())) as BulkIndexJson;
    await fs.writeJson(file(endpoints.bulkIndex.file()), { ...index, files: index.files.map((f) => ({ ...f, updated_in: '../../PWN' })) });
    await build({ input, out: fresh, since: copy });
    const carried = await readJson<BulkIndexJson>(fresh, endpoints.bulkIndex.file());
    expect(carried.files.map((f) => f.updated_in)).toEqual(carried.files.map(() => 'v4'));
  }, 60_000);

  it('reads only regular files of a --since site: a named pipe or a device is refused in one line, never waited on or read without end', async () => {
    const copy = await siteCopy();
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
