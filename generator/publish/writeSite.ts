/**
 * Publishes rendered files atomically. Each file is first compared with the published
 * one (through the manifest's hash while the old file is untouched, else byte by byte).
 * When nothing differs, nothing is touched at all. Otherwise the new site is assembled
 * in a staging folder, unchanged files hard-linked from the old site (so they keep their
 * inode and modification time), and swapped in with two renames. Until the swap the old
 * site is untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SiteFiles } from '../render/files.ts';
import type { BuildReport } from '../report.ts';
import { mapLimit } from '../images/pool.ts';
import type { PublishLayout } from './layout.ts';
import { contentHash, sameStat, type FileRecord, type FileStat, type FolderScan, type Manifest } from './manifest.ts';

/** Parallel file operations: enough to keep the disk busy, few enough to keep memory flat. */
const CONCURRENCY = 32;
/** Progress is reported every this many files. */
const PROGRESS_STEP = 500;

interface PlannedFile {
  rel: string;
  content: Buffer;
  hash: string;
  /** The published file's stats when its content is already right. */
  kept: FileStat | null;
}

function isUnchanged(file: string, old: FileStat, record: FileRecord | undefined, content: Buffer, hash: string): boolean {
  if (record && sameStat(old, record)) return record.hash === hash;
  return old.size === content.length && fs.readFileSync(file).equals(content);
}

function plan(files: SiteFiles, out: string, scan: FolderScan, manifest: Manifest | null): PlannedFile[] {
  return [...files].map(([rel, content]) => {
    const hash = contentHash(content);
    const old = scan.files.get(rel);
    const kept = old && isUnchanged(path.join(out, rel), old, manifest?.files[rel], content, hash) ? old : null;
    return { rel, content, hash, kept };
  });
}

/** Every folder the files need, parents first. */
function folders(rels: string[]): string[] {
  const dirs = new Set<string>();
  for (const rel of rels) {
    for (let dir = path.posix.dirname(rel); dir !== '.' && !dirs.has(dir); dir = path.posix.dirname(dir)) dirs.add(dir);
  }
  return [...dirs].sort();
}

/** Builds the staging folder; returns the manifest records of the new site. */
async function stage(planned: PlannedFile[], layout: PublishLayout, report: BuildReport): Promise<Record<string, FileRecord>> {
  fs.rmSync(layout.staging, { recursive: true, force: true });
  fs.mkdirSync(layout.staging);
  for (const dir of folders(planned.map((f) => f.rel))) fs.mkdirSync(path.join(layout.staging, dir));
  let done = 0;
  const records = await mapLimit(planned, CONCURRENCY, async ({ rel, content, hash, kept }): Promise<FileRecord> => {
    const staged = path.join(layout.staging, rel);
    let stat = kept;
    if (stat) await fs.promises.link(path.join(layout.out, rel), staged);
    else {
      await fs.promises.writeFile(staged, content);
      const { size, mtimeMs, ino } = await fs.promises.lstat(staged);
      stat = { size, mtimeMs, ino };
    }
    if (++done % PROGRESS_STEP === 0) report.advance(done, planned.length);
    return { hash, ...stat };
  });
  return Object.fromEntries(planned.map((f, i) => [f.rel, records[i]]));
}

/** Two renames; if the second fails the old site is put back. */
function swap(layout: PublishLayout): void {
  const hadSite = fs.existsSync(layout.out);
  if (hadSite) fs.renameSync(layout.out, layout.previous);
  try {
    fs.renameSync(layout.staging, layout.out);
  } catch (error) {
    if (hadSite) fs.renameSync(layout.previous, layout.out);
    throw error;
  }
}

/**
 * Publishes `files` into `layout.out`, given the old site's scan and manifest. Sets the
 * report's changed/unchanged/removed counts and returns the new site's manifest records.
 * `beforeSwap` runs just before the old site is replaced.
 */
export async function writeSite(
  files: SiteFiles, layout: PublishLayout, scan: FolderScan, manifest: Manifest | null, report: BuildReport,
  beforeSwap: () => void,
): Promise<Record<string, FileRecord>> {
  const planned = plan(files, layout.out, scan, manifest);
  report.unchanged = planned.filter((f) => f.kept).length;
  report.changed = planned.length - report.unchanged;
  report.removed = [...scan.files.keys()].filter((rel) => !files.has(rel)).length;
  const siteExists = fs.existsSync(layout.out);
  if (siteExists && report.changed === 0 && report.removed === 0 && scan.others === 0) {
    return Object.fromEntries(planned.map(({ rel, hash, kept }) => [rel, { hash, ...kept! }]));
  }
  const records = await stage(planned, layout, report);
  beforeSwap();
  swap(layout);
  await fs.promises.rm(layout.previous, { recursive: true, force: true });
  return records;
}
