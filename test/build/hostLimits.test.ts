/**
 * A site a host would refuse is not published: the build checks the site it made against its plan's hosts
 * before it publishes (the limits themselves, in memory: test/unit/hostFit.test.ts).
 */
import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLOUDFLARE_FREE, type HostPlan } from '../../generator/hosts/all/build/hostLimits.ts';
import { folderListing } from '../../generator/hosts/all/build/hostFit.ts';
import { build } from '../../generator/build/build.ts';
import { publishLayout } from '../../generator/build/publish/layout.ts';
import { copySample, publishedSample } from '../helpers.ts';
import { editDump, snapshot } from '../exportEdits.ts';

describe('the build checks the site against its plan before it publishes', () => {
  it('a file over a host limit fails the build with one line naming host, limit and file; the site untouched', async () => {
    const { out, before } = await publishedSample();
    const input = await copySample();
    await editDump(input, 'unit.sql', 'UPDATE unit_m SET smile_max = smile_max + 1;');
    // A limit one byte under the sample's largest file, through the declared table.
    const [largest, bytes] = [...folderListing(out).sizes].reduce((a, b) => (b[1] > a[1] ? b : a));
    const plan: HostPlan = { name: 'small', hosts: [{ ...CLOUDFLARE_FREE, fileBytes: bytes - 1 }] };
    // The edited site's largest file: the sample's, or a SQLite part at least as large (its parts are cut by content).
    const refusal = /^hosts stage: Cloudflare Free would refuse this site \(plan small\): bytes per file: largest ([\d,]+) of ([\d,]+) bytes \((\S+)\)$/;
    const error: Error = await build({ input, out, plan }).then(() => expect.unreachable(), (e: Error) => e);
    const [, size, limit, file] = refusal.exec(error.message) ?? [];
    expect([Number(size?.replace(/,/g, '')) >= bytes, limit, file === largest || file?.startsWith('api/v1/bulk/parts/sif.sqlite/')], error.message)
      .toEqual([true, (bytes - 1).toLocaleString('en-US'), true]);
    expect(await snapshot(out)).toEqual(before);
    const report = JSON.parse(await fs.readFile(publishLayout(out).report, 'utf8'));
    expect(report).toMatchObject({ ok: false, error: { stage: 'hosts', site_published: false } });
    expect(report.hosts[0].refusal).toBe(report.error.message);
  });
});
