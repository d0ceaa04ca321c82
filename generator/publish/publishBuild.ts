/**
 * One build's session with its output folder: take the lock, clean up after a killed
 * build, skip everything when the site is already up to date, publish atomically,
 * and always leave the report (see layout.ts for where these files live).
 */
import fs from 'node:fs';
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
}

/** A build killed between the two renames leaves the site in `previous`: put it back. */
function recover(layout: PublishLayout, report: BuildReport): void {
  if (!fs.existsSync(layout.out) && fs.existsSync(layout.previous)) {
    fs.renameSync(layout.previous, layout.out);
    report.warn(`${layout.out} was restored from an interrupted build`);
  }
  fs.rmSync(layout.staging, { recursive: true, force: true });
  fs.rmSync(layout.previous, { recursive: true, force: true });
}

/** Replacing a folder deletes what is in it: only replace a site this generator made. */
function checkReplaceable(layout: PublishLayout, manifest: Manifest | null): void {
  if (!fs.existsSync(layout.out)) return;
  if (!fs.statSync(layout.out).isDirectory()) throw new InputError(`--out ${layout.out} is not a folder`);
  const entries = fs.readdirSync(layout.out);
  if (!manifest && entries.length && !entries.includes('api')) {
    throw new InputError(`--out ${layout.out} holds files that are not a site built here (no api/ folder); refusing to replace it`);
  }
}

function saveReport(layout: PublishLayout, report: BuildReport, error?: unknown): void {
  const failure = error === undefined ? null : { stage: failedStage(error) ?? null, message: (error as Error)?.message ?? String(error) };
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
}

/** Adds every file of the site to `files`; gets the export's digest so nothing hashes the input twice. */
type Render = (files: SiteFiles, inputDigest: string) => Promise<void>;

/** Stages what `render` adds to its files, then swaps the staged site in (when anything changed). */
async function stageAndSwap(
  layout: PublishLayout, scan: FolderScan, manifest: Manifest | null, fingerprint: string, report: BuildReport,
  render: Render, inputDigest: string,
): Promise<void> {
  const staging = new Staging(layout, scan, manifest, (done, total) => report.advance(done, total));
  try {
    const files = staging.files();
    await render(files, inputDigest);
    await report.stage('write', async () => {
      const removed = [...scan.files.keys()].filter((rel) => !files.has(rel)).length + scan.others;
      const staged = await staging.finish(files.keys(), removed);
      Object.assign(report, { changed: staged.changed, unchanged: staged.unchanged, removed });
      if (staged.commit) {
        // A manifest never describes a half-swapped site: it goes before the swap, returns after.
        fs.rmSync(layout.manifest, { force: true });
        swap(layout);
        await fs.promises.rm(layout.previous, { recursive: true, force: true });
      }
      writeManifest(layout.manifest, { fingerprint, report: report.toJSON(), files: staged.records });
    });
  } catch (error) {
    await staging.abort();
    throw error;
  }
}

/**
 * Runs `render` (the read, model and render stages, adding every file of the site to
 * the map it is given) and publishes the files into `out`, unless the site is up to
 * date. A failure anywhere leaves `out` as it was.
 */
export async function publishBuild(
  input: string, out: string, report: BuildReport, options: PublishOptions, render: Render,
): Promise<void> {
  const layout = publishLayout(out);
  fs.mkdirSync(layout.work, { recursive: true });
  const release = acquireLock(layout.lock, layout.out);
  try {
    recover(layout, report);
    const manifest = readManifest(layout.manifest);
    checkReplaceable(layout, manifest);
    const { digest, scan } = await report.stage('check', () => ({ digest: inputDigest(input), scan: scanFolder(layout.out) }));
    const fingerprint = buildFingerprint(digest);
    if (!options.force && manifest?.fingerprint === fingerprint && isIntact(scan, manifest)) {
      replay(report, manifest);
    } else {
      await stageAndSwap(layout, scan, manifest, fingerprint, report, render, digest);
    }
    saveReport(layout, report);
  } catch (error) {
    saveReport(layout, report, error);
    throw error;
  } finally {
    release();
  }
}
