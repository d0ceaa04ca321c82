/**
 * Publishes rendered files atomically: the new site is assembled in a staging folder
 * beside the output (unchanged files hard-linked, so they keep their modification
 * times), then swapped in with two renames. Until the swap the old site is untouched.
 */
import path from 'node:path';
import fs from 'fs-extra';
import type { SiteFiles } from '../render/files.ts';
import type { BuildReport } from '../report.ts';

async function sameContent(file: string, content: Buffer): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    return stat.isFile() && stat.size === content.length && (await fs.readFile(file)).equals(content);
  } catch {
    return false;
  }
}

export async function writeSite(files: SiteFiles, out: string, report: BuildReport): Promise<void> {
  const target = path.resolve(out);
  const staging = `${target}.staging`;
  const previous = `${target}.previous`;
  await fs.remove(staging);
  await fs.ensureDir(staging);
  const existed = await fs.pathExists(target);
  report.changed = 0;
  report.unchanged = 0;
  for (const [rel, content] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const old = path.join(target, rel);
    const staged = path.join(staging, rel);
    await fs.ensureDir(path.dirname(staged));
    if (existed && (await sameContent(old, content))) {
      await fs.link(old, staged);
      report.unchanged++;
    } else {
      await fs.writeFile(staged, content);
      report.changed++;
    }
  }
  report.removed = existed ? (await listFiles(target)).filter((rel) => !files.has(rel)).length : 0;
  await fs.remove(previous);
  if (existed) await fs.rename(target, previous);
  await fs.rename(staging, target);
  await fs.remove(previous);
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await fs.readdir(path.join(dir, prefix), { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    return e.isDirectory() ? listFiles(dir, rel) : Promise.resolve([rel]);
  }));
  return nested.flat();
}
