/**
 * The staging of a build's files (generator/build/publish/staging.ts) on its own, over a published
 * folder made here with a builder's record trusting every file: the files carried on from it are
 * linked into the staged site by a writer while the build goes on, as the same files; when nothing
 * changed, the staging folder goes, and nothing linked into it comes back.
 */
import path from 'node:path';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';
import { KEEP_BATCH, Staging } from '../../generator/build/publish/staging.ts';
import { publishLayout } from '../../generator/build/publish/layout.ts';
import { scanFolder, type Manifest } from '../../generator/build/publish/manifest.ts';
import { sha256 } from '../../generator/build/digest.ts';
import { tempDir } from '../helpers.ts';

/** More files than a writer is handed at once, and some over: several batches handed on the way, the rest at the end. */
const CARRIED = 2 * KEEP_BATCH + 276;

/** A published folder of CARRIED small files, its record trusting each (hash and stats), and a staging of the next site over it. */
async function overPublished() {
  const out = path.join(await tempDir(), 'public');
  const layout = publishLayout(out);
  const rels = Array.from({ length: CARRIED }, (_, i) => `api/v1/history/${i % 3 ? 'card' : 'skill_t'}/${i}.json`);
  for (const folder of new Set(rels.map((rel) => path.dirname(rel)))) fs.mkdirSync(path.join(out, folder), { recursive: true });
  rels.forEach((rel, i) => fs.writeFileSync(path.join(out, rel), `{"id":${i}}`));
  await fs.ensureDir(layout.work);
  const scan = scanFolder(out);
  const records = Object.fromEntries([...scan.files].map(([rel, stat]) => [rel, { ...stat, hash: sha256(fs.readFileSync(path.join(out, rel))) }]));
  const staging = new Staging(layout, scan, { files: records } as unknown as Manifest, () => {});
  const files = staging.files();
  for (const rel of rels) files.carry(rel, path.join(out, rel));
  return { out, layout, rels, staging, files };
}

describe('the files an update carries on', () => {
  it('are linked into the staged site as the same files (same inode)', async () => {
    const { out, layout, rels, staging, files } = await overPublished();
    files.set('api/v1/info.json', Buffer.from('{"new":true}'));
    const staged = await staging.finish(0);
    expect([staged.commit, staged.changed, staged.unchanged]).toEqual([true, 1, CARRIED]);
    for (const rel of rels) expect((await fs.stat(path.join(layout.staging, rel))).ino, rel).toBe((await fs.stat(path.join(out, rel))).ino);
  });

  it('leave no staging folder behind when nothing changed, even those a writer was still linking', async () => {
    const { layout, staging } = await overPublished();
    const staged = await staging.finish(0);
    expect([staged.commit, staged.changed, staged.unchanged]).toEqual([false, 0, CARRIED]);
    expect(await fs.pathExists(layout.staging)).toBe(false);
    // A link made after the folder went would make it again: the writer had done them all before.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await fs.pathExists(layout.staging)).toBe(false);
  });
});
