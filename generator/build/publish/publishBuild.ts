/**
 * One build's session with its output folder: take the lock, clean up after a killed
 * build, tell whether the site is already up to date, publish atomically, and always
 * leave the report (see layout.ts for where these files live).
 */
import fs from 'node:fs';
import path from 'node:path';
import { StageError, UserError } from '../errors.ts';
import { publishLayout, type PublishLayout } from './layout.ts';
import { acquireLock } from './lock.ts';
import { isIntact, readManifest, scanFolder, writeManifest, type FolderScan, type Manifest } from './manifest.ts';
import { buildFingerprint } from './fingerprint.ts';
import { inputDigest } from '../input/treeDigest.ts';
import type { InputFolder } from '../input/inputFiles.ts';
import type { DigestedFiles } from '../siteFiles.ts';
import { Staging, type StagedSite } from './staging.ts';
import { checkCacheFolders, checkNoLinks } from './privateCache.ts';

/** The inode of the folder at `dir`, undefined when there is none. */
const inodeOf = (dir: string): number | undefined => (fs.existsSync(dir) ? fs.statSync(dir).ino : undefined);

/** Whether anything (a dangling link included) is at `file`. */
function lexists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * A build killed while moving a plain output folder aside (the one-time move to a link) leaves
 * the site in `previous`: put it back. One killed after the switch but before its manifest
 * was renamed into place leaves the next manifest describing the site: take it. Versions
 * the output folder no longer links to are deleted: the one replaced by the last build was
 * kept for the readers that were still reading it.
 */
function recover(layout: PublishLayout): string[] {
  const warnings: string[] = [];
  if (!lexists(layout.out) && fs.existsSync(layout.previous)) {
    fs.renameSync(layout.previous, layout.out);
    warnings.push(`${layout.out} was restored from an interrupted build`);
  }
  if (readManifest(layout.nextManifest, layout.out)) fs.renameSync(layout.nextManifest, layout.manifest);
  for (const leftover of [layout.staging, layout.scratch, layout.previous, layout.nextManifest, layout.link]) fs.rmSync(leftover, { recursive: true, force: true });
  const current = inodeOf(layout.out);
  for (const name of fs.existsSync(layout.sites) ? fs.readdirSync(layout.sites) : []) {
    const version = path.join(layout.sites, name);
    if (fs.lstatSync(version).ino !== current) fs.rmSync(version, { recursive: true, force: true });
  }
  return warnings;
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
    throw new UserError(`--out ${layout.out} ${why}; refusing to replace it`);
  };
  if (!fs.statSync(layout.out).isDirectory()) refuse('is not a folder');
  // The site is swapped in by renaming folders, which a mount point cannot be.
  if (isMountPoint(layout.out)) refuse('is a mount point (build into a folder inside it)');
  if (!manifest && fs.readdirSync(layout.out).length) refuse(`holds files that are not a site built here (no record of it in ${layout.work})`);
}

/**
 * The build keeps its own files (lock, manifest, caches) in `.cache/` beside the output
 * folder; an output folder named `.cache` would hold them, and creating them would create it.
 */
function checkOwnFilesOutside(layout: PublishLayout): void {
  const inside = [layout.work, layout.images].find((own) => own.startsWith(layout.out + path.sep));
  if (inside) throw new UserError(`--out ${layout.out} would hold the build's own files (${inside}); choose an output folder not named .cache`);
}

/** The manifest of the site at `out` (the next one, when a build was killed right after its swap). */
const siteManifest = (layout: PublishLayout): Manifest | null =>
  readManifest(layout.manifest, layout.out) ?? readManifest(layout.nextManifest, layout.out);

/**
 * Publishes the staged site: renamed to a new version folder, then a new link to it (relative,
 * so the project can move) renamed over the output folder, atomically: readers find the old
 * site or the new one, never none. The old version stays for readers still reading it until the
 * next build. A plain output folder (a site built before output folders were links, or an
 * empty folder) is moved aside first; that one time, the folder is absent between two renames.
 */
function swap(layout: PublishLayout): void {
  fs.mkdirSync(layout.sites, { recursive: true });
  const version = path.join(layout.sites, `${Date.now()}-${process.pid}`);
  fs.renameSync(layout.staging, version);
  fs.rmSync(layout.link, { force: true });
  fs.symlinkSync(path.relative(path.dirname(layout.out), version), layout.link);
  const plainFolder = lexists(layout.out) && !fs.lstatSync(layout.out).isSymbolicLink();
  if (plainFolder) fs.renameSync(layout.out, layout.previous);
  try {
    fs.renameSync(layout.link, layout.out);
  } catch (error) {
    if (plainFolder) fs.renameSync(layout.previous, layout.out);
    throw error;
  }
}

/** A site already published as a build would publish it: the report its build kept with it, and its number of files. */
export interface UpToDate {
  report: unknown;
  files: number;
}

/** What staging the site found: files changed and unchanged, and the published site's files it drops. */
export interface StagedCounts {
  changed: number;
  unchanged: number;
  removed: number;
}

export class PublishSession {
  private manifest: Manifest | null = null;
  private scan: FolderScan | null = null;
  private fingerprint = '';
  private staging: Staging | null = null;
  private staged: StagedSite | null = null;
  /** The change records the published site's build left for this one (Manifest.changeRecords). */
  changeRecords: unknown = undefined;
  /** What repairing after a killed build did, as warnings for the report. */
  recovered: string[] = [];

  private constructor(readonly layout: PublishLayout, private readonly release: () => void) {}

  /**
   * Takes the output folder: refuses one this builder did not publish before anything is
   * written beside it, takes the lock, and repairs what a killed build left.
   */
  static open(out: string): PublishSession {
    const layout = publishLayout(out);
    checkOwnFilesOutside(layout);
    checkReplaceable(layout, siteManifest(layout));
    checkCacheFolders(layout);
    fs.mkdirSync(layout.work, { recursive: true });
    const session = new PublishSession(layout, acquireLock(layout.lock, layout.out));
    try {
      session.recovered = recover(layout);
      checkNoLinks(layout);
      session.manifest = readManifest(layout.manifest, layout.out);
      checkReplaceable(layout, session.manifest);
    } catch (error) {
      session.release();
      throw error;
    }
    return session;
  }

  /**
   * The check stage: digests the input (as walked once for the whole build) and scans the site. Up to date (same input and
   * generator, site intact, no `force`): nothing else needs to run, and the published site's
   * report is told (see begin). Returns the input's digest for the read stage.
   * `options`: the build options the site depends on besides its input (an image host).
   */
  check(input: InputFolder, { force = false, rerun = false, options = {} as Record<string, unknown> } = {}): { upToDate: UpToDate | null; inputDigest: string } {
    const digest = inputDigest(input);
    return { upToDate: this.begin(buildFingerprint(digest, options), { force, rerun }), inputDigest: digest };
  }

  /**
   * Scans the site for a publish of what `fingerprint` names (publish/fingerprint.ts: a build's
   * input, or the site a mirror copies). When the published site is that already and intact
   * (not `force`, not `rerun`), nothing needs to run: returns the report its build kept with it
   * (to replay) and its number of files; else null.
   */
  begin(fingerprint: string, { force = false, rerun = false } = {}): UpToDate | null {
    this.scan = scanFolder(this.layout.out);
    this.fingerprint = fingerprint;
    this.changeRecords = this.manifest?.changeRecords;
    // `rerun`: the site depends on more than the input (--since), so every stage runs, still trusting recorded hashes.
    const published = this.manifest;
    const upToDate = !force && !rerun && published?.fingerprint === this.fingerprint && isIntact(this.scan, published);
    // --force trusts no recorded hash: a file edited in place with its size and mtime restored is still repaired.
    if (force) this.manifest = null;
    return upToDate ? { report: published!.report, files: Object.keys(published!.files).length } : null;
  }

  /** The site's files: each file added is staged by writer threads while the rest renders; `onProgress` hears how many are staged. */
  files(onProgress: (done: number, total: number) => void = () => {}): DigestedFiles {
    this.staging = new Staging(this.layout, this.scan!, this.manifest, onProgress);
    return this.staging.files();
  }

  /** Rendering is done: the writer threads share the files added from now on. */
  renderingDone(): void {
    this.staging!.renderingDone();
  }

  /** The write stage's first half: waits until every file of `files` is staged, and tells what changed. */
  async finishStaging(files: DigestedFiles): Promise<StagedCounts> {
    const { scan } = this;
    const removed = [...scan!.files.keys()].filter((rel) => !files.has(rel)).length + scan!.others;
    this.staged = await this.staging!.finish(removed);
    return { changed: this.staged.changed, unchanged: this.staged.unchanged, removed };
  }

  /**
   * The write stage's second half, after finishStaging: swaps the staged site in when anything
   * changed, recording `changeRecords` and `report` (replayed when the next build has nothing to
   * do) for the next build. A failure after the swap is a StageError marked `sitePublished`.
   */
  async publish(changeRecords: unknown, report: Record<string, unknown>): Promise<void> {
    const { layout, staged } = this;
    const record = { fingerprint: this.fingerprint, report, changeRecords, files: staged!.records };
    if (!staged!.commit) return writeManifest(layout.manifest, { folder: inodeOf(layout.out)!, ...record });
    // Each manifest names its folder by inode, which the renames keep: whenever a build
    // dies, the manifest or the next one describes the folder at `out` (see recover).
    writeManifest(layout.nextManifest, { folder: inodeOf(layout.staging)!, ...record });
    swap(layout);
    this.staging = null;
    try {
      fs.renameSync(layout.nextManifest, layout.manifest);
      await fs.promises.rm(layout.previous, { recursive: true, force: true });
    } catch (error) {
      throw new StageError('write', error, true);
    }
  }

  /**
   * Ends the session: drops an unfinished staging, saves `report` (with the failure,
   * if any) and releases the lock. A report that cannot be saved after a successful
   * publish is a failure of its own; after a failed one, the first failure is the one told.
   */
  async close(report: Record<string, unknown>, failure?: unknown): Promise<void> {
    try {
      await this.staging?.abort();
      fs.rmSync(this.layout.scratch, { recursive: true, force: true });
      this.saveReport(report, failure);
    } catch (error) {
      if (failure === undefined) throw new StageError('report', error, true);
    } finally {
      this.release();
    }
  }

  private saveReport(report: Record<string, unknown>, error?: unknown): void {
    const cause = error instanceof StageError ? error.cause : error;
    const failure = error === undefined ? null : {
      stage: error instanceof StageError ? error.stage : null,
      message: cause instanceof Error ? cause.message : String(cause),
      site_published: error instanceof StageError && error.sitePublished,
    };
    // Never through a link (one planted since the session opened): the report is written only where it belongs.
    const fd = fs.openSync(this.layout.report, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW);
    try {
      fs.writeFileSync(fd, `${JSON.stringify({ ok: !failure, error: failure, ...report }, null, 2)}\n`);
    } finally {
      fs.closeSync(fd);
    }
  }
}
