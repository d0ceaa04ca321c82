/**
 * One build's session with its output folder: take the lock, clean up after a killed
 * build, skip everything when the site is already up to date, publish atomically,
 * and always leave the report (see layout.ts for where these files live).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SiteFiles } from '../render/files.ts';
import { failedStage, InputError, type BuildReport } from '../report.ts';
import { publishLayout, type PublishLayout } from './layout.ts';
import { acquireLock } from './lock.ts';
import { isIntact, readManifest, scanFolder, writeManifest, type FolderScan, type Manifest } from './manifest.ts';
import { buildFingerprint } from './fingerprint.ts';
import { inputDigest } from '../input/treeDigest.ts';
import { Staging } from './staging.ts';

export interface PublishOptions {
  /** Rebuild even when nothing changed. */
  force?: boolean;
  /** Run every stage even when up to date, still trusting recorded hashes (the site depends on more than the input: --since). */
  rerun?: boolean;
}

/** The inode of the folder at `dir`, undefined when there is none. */
const inodeOf = (dir: string): number | undefined => (fs.existsSync(dir) ? fs.statSync(dir).ino : undefined);

/**
 * A build killed between the two renames leaves the site in `previous`: put it back. One
 * killed after the swap but before its manifest was renamed into place leaves the next
 * manifest describing the site: take it.
 */
function recover(layout: PublishLayout, report: BuildReport): void {
  if (!fs.existsSync(layout.out) && fs.existsSync(layout.previous)) {
    fs.renameSync(layout.previous, layout.out);
    report.warn(`${layout.out} was restored from an interrupted build`);
  }
  if (readManifest(layout.nextManifest, inodeOf(layout.out))) fs.renameSync(layout.nextManifest, layout.manifest);
  for (const leftover of [layout.staging, layout.previous, layout.nextManifest]) fs.rmSync(leftover, { recursive: true, force: true });
}

/** True when `dir` is a mount point: its own device, or listed as one in /proc/self/mountinfo (bind mounts). */
function isMountPoint(dir: string): boolean {
  if (fs.statSync(dir).dev !== fs.statSync(path.dirname(dir)).dev) return true;
  const real = fs.realpathSync(dir);
  const unescape = (field: string) => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
  try {
    return fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n').some((line) => unescape(line.split(' ')[4] ?? '') === real);
  } catch {
    return false; // no mountinfo (not Linux): the device test above is all there is
  }
}

/**
 * Replacing a folder deletes what is in it: only an absent or empty folder, or one the
 * builder's own manifest names (by inode), is ever replaced. Runs before anything is
 * written beside `out`, and again under the lock.
 */
function checkReplaceable(layout: PublishLayout, manifest: Manifest | null): void {
  if (!fs.existsSync(layout.out)) return;
  const refuse = (why: string) => {
    throw new InputError(`--out ${layout.out} ${why}; refusing to replace it`);
  };
  if (!fs.statSync(layout.out).isDirectory()) refuse('is not a folder');
  // The site is swapped in by renaming folders, which a mount point cannot be.
  if (isMountPoint(layout.out)) refuse('is a mount point (build into a folder inside it)');
  if (!manifest && fs.readdirSync(layout.out).length) refuse(`holds files that are not a site built here (no record of it in ${layout.work})`);
}

/** The manifest of the site at `out` (the next one, when a build was killed right after its swap). */
const siteManifest = (layout: PublishLayout): Manifest | null =>
  readManifest(layout.manifest, inodeOf(layout.out)) ?? readManifest(layout.nextManifest, inodeOf(layout.out));

/** Whether a failed build had already published its new site (the failure came after the swap). */
export const sitePublished = (error: unknown): boolean => !!(error as { sitePublished?: boolean } | null)?.sitePublished;

function saveReport(layout: PublishLayout, report: BuildReport, error?: unknown): void {
  const failure = error === undefined ? null : {
    stage: failedStage(error) ?? null, message: (error as Error)?.message ?? String(error), site_published: sitePublished(error),
  };
  fs.writeFileSync(layout.report, `${JSON.stringify({ ok: !failure, error: failure, ...report.toJSON() }, null, 2)}\n`);
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

/** The counts and warnings of the build that produced the site, for a build that had nothing to do. */
function replay(report: BuildReport, manifest: Manifest): void {
  const stored = manifest.report as Pick<ReturnType<BuildReport['toJSON']>, 'counts' | 'unreadable' | 'warnings' | 'images'>;
  Object.assign(report.counts, stored.counts);
  Object.assign(report.unreadable, stored.unreadable);
  Object.assign(report.images, stored.images, { encoded: 0, reused: 0 });
  report.warnings.push(...stored.warnings);
  report.unchanged = Object.keys(manifest.files).length;
  report.upToDate = true;
  report.update = {}; // the data is the published site's
}

/**
 * Adds every file of the site to `files`; gets the export's digest so nothing hashes the input
 * twice, and what the published site's build kept (Manifest.kept); returns what to keep with the new site.
 */
type Render = (files: SiteFiles, inputDigest: string, kept: unknown) => Promise<unknown>;

/**
 * Stages what `render` adds to its files, then swaps the staged site in (when anything
 * changed). `manifest` null compares every old file byte by byte. A failure after the
 * swap is tagged `sitePublished`.
 */
async function stageAndSwap(
  layout: PublishLayout, scan: FolderScan, manifest: Manifest | null, fingerprint: string, report: BuildReport,
  render: Render, inputDigest: string, kept: unknown,
): Promise<void> {
  const staging = new Staging(layout, scan, manifest, (done, total) => report.advance(done, total));
  let swapped = false;
  try {
    const files = staging.files();
    const keep = await render(files, inputDigest, kept);
    await report.stage('write', async () => {
      const removed = [...scan.files.keys()].filter((rel) => !files.has(rel)).length + scan.others;
      const staged = await staging.finish(files.keys(), removed);
      Object.assign(report, { changed: staged.changed, unchanged: staged.unchanged, removed });
      const record = { fingerprint, report: report.toJSON(), kept: keep, files: staged.records };
      if (!staged.commit) return writeManifest(layout.manifest, { folder: inodeOf(layout.out)!, ...record });
      // Each manifest names its folder by inode, which the renames keep: whenever a build
      // dies, the manifest or the next one describes the folder at `out` (see recover).
      writeManifest(layout.nextManifest, { folder: inodeOf(layout.staging)!, ...record });
      swap(layout);
      swapped = true;
      fs.renameSync(layout.nextManifest, layout.manifest);
      await fs.promises.rm(layout.previous, { recursive: true, force: true });
    });
  } catch (error) {
    if (swapped && error && typeof error === 'object') Object.assign(error, { sitePublished: true });
    await staging.abort();
    throw error;
  }
}

/** Under the lock: repair what a killed build left, then publish unless the site is up to date. */
async function publishLocked(layout: PublishLayout, input: string, report: BuildReport, options: PublishOptions, render: Render) {
  recover(layout, report);
  const manifest = readManifest(layout.manifest, inodeOf(layout.out));
  checkReplaceable(layout, manifest);
  const { digest, scan } = await report.stage('check', () => ({ digest: inputDigest(input), scan: scanFolder(layout.out) }));
  const fingerprint = buildFingerprint(digest);
  if (!options.force && !options.rerun && manifest?.fingerprint === fingerprint && isIntact(scan, manifest)) {
    replay(report, manifest);
  } else {
    // --force trusts no recorded hash: a file edited in place with its size and mtime restored is still repaired.
    await stageAndSwap(layout, scan, options.force ? null : manifest, fingerprint, report, render, digest, manifest?.kept);
  }
}

/**
 * Runs `render` (the read, model and render stages, adding every file of the site to
 * the map it is given) and publishes the files into `out`, unless the site is up to
 * date. A failure before the swap leaves `out` as it was; one after it is tagged
 * `sitePublished`. Either way the site at `out` is whole and its manifest describes it.
 */
export async function publishBuild(
  input: string, out: string, report: BuildReport, options: PublishOptions, render: Render,
): Promise<void> {
  const layout = publishLayout(out);
  // Refused before anything is written beside `out` (its .cache folder included).
  checkReplaceable(layout, siteManifest(layout));
  fs.mkdirSync(layout.work, { recursive: true });
  const release = acquireLock(layout.lock, layout.out);
  try {
    try {
      await publishLocked(layout, input, report, options, render);
    } catch (error) {
      try {
        saveReport(layout, report, error);
      } catch {
        // The failure the report would describe is the one to tell.
      }
      throw error;
    }
    try {
      saveReport(layout, report);
    } catch (error) {
      throw Object.assign(error as Error, { sitePublished: true });
    }
  } finally {
    release();
  }
}
