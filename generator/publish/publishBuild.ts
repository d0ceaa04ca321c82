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
import { isIntact, readManifest, scanFolder, writeManifest, type Manifest } from './manifest.ts';
import { buildFingerprint } from './fingerprint.ts';
import { writeSite } from './writeSite.ts';

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

/** The counts and warnings of the build that produced the site, for a build that had nothing to do. */
function replay(report: BuildReport, manifest: Manifest): void {
  const stored = manifest.report as Pick<ReturnType<BuildReport['toJSON']>, 'counts' | 'unreadable' | 'warnings'>;
  Object.assign(report.counts, stored.counts);
  Object.assign(report.unreadable, stored.unreadable);
  report.warnings.push(...stored.warnings);
  report.unchanged = Object.keys(manifest.files).length;
  report.upToDate = true;
}

/**
 * Runs `render` (the read, model and render stages) and publishes its files into
 * `out`, unless the site is up to date. A failure anywhere leaves `out` as it was.
 */
export async function publishBuild(
  input: string, out: string, report: BuildReport, options: PublishOptions, render: () => Promise<SiteFiles>,
): Promise<void> {
  const layout = publishLayout(out);
  fs.mkdirSync(layout.work, { recursive: true });
  const release = acquireLock(layout.lock, layout.out);
  try {
    recover(layout, report);
    const manifest = readManifest(layout.manifest);
    checkReplaceable(layout, manifest);
    const { fingerprint, scan } = await report.stage('check', () => ({ fingerprint: buildFingerprint(input), scan: scanFolder(layout.out) }));
    if (!options.force && manifest?.fingerprint === fingerprint && isIntact(scan, manifest)) {
      replay(report, manifest);
    } else {
      const files = await render();
      await report.stage('write', async () => {
        // A manifest never describes a half-swapped site: it goes before the swap, returns after.
        const records = await writeSite(files, layout, scan, manifest, report, () => fs.rmSync(layout.manifest, { force: true }));
        writeManifest(layout.manifest, { fingerprint, report: report.toJSON(), files: records });
      });
    }
    saveReport(layout, report);
  } catch (error) {
    saveReport(layout, report, error);
    throw error;
  } finally {
    release();
  }
}
