/**
 * `npm run build -- --archive <folder>` (docs/archive.md): a folder of exports of several
 * regions and dates becomes one site whose history is the game's. The primary region's exports,
 * oldest first, are the site's versions, each built by the ordinary build (build.ts) following
 * the site of the one before; the other regions give availability (the `regions` member) and
 * English names. Steps already published (the archive's record says which, by fingerprint)
 * are not built again: adding one export costs the steps it changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { build, type BuildOptions } from '../build.ts';
import { InputFolder } from '../input/inputFiles.ts';
import { inputDigest } from '../input/treeDigest.ts';
import { readMeta, REGION_TIMEZONES } from '../input/curated.ts';
import { parseOffset } from '../input/time.ts';
import { buildFingerprint } from '../publish/fingerprint.ts';
import { publishLayout } from '../publish/layout.ts';
import { acquireLock } from '../publish/lock.ts';
import { checkCacheFolders } from '../publish/privateCache.ts';
import { UserError } from '../errors.ts';
import { describeCounts } from '../changes/diff.ts';
import type { BuildReport } from '../report.ts';
import { endpoints } from '../../contract/endpoints.ts';
import { findExports } from './findExports.ts';
import { census } from './census.ts';
import { regionFacts, type ArchiveExport } from './regionFacts.ts';

export interface ArchiveOptions extends Omit<BuildOptions, 'input' | 'since' | 'archive' | 'fresh'> {
  /** The folder of exports. */
  archive: string;
  /** The region whose exports are the site's versions; default jp. */
  primary?: string;
  /** Hears each step as it starts (the CLI prints a line). */
  onStep?: (line: string) => void;
}

/** One line of the archive's report per export. */
export interface ExportLine {
  name: string;
  rel: string;
  region: string;
  day: string;
  /** The version it is (primary exports), else null. */
  version: string | null;
  cards: number;
  songs: number | null;
  /** What it added and changed: the build's update for a version, ids new to its region otherwise. */
  update: string;
  /** What its step cost (primary exports): files and bytes the site changed; null when it was not built this time. */
  cost: { files: number; bytes: number } | null;
}

export interface ArchiveReport {
  exports: ExportLine[];
  leftOut: { rel: string; reason: string }[];
  /** Versions built this time (the others were up to date). */
  built: number;
  /** The report of the last version's build: the site as published. */
  site: BuildReport;
}

/** The day of `unix` in the region's time, YYYY-MM-DD. */
function dayOf(unix: number, region: string): string {
  return new Date((unix + parseOffset(REGION_TIMEZONES[region], region) * 60) * 1000).toISOString().slice(0, 10);
}

/** Region and date of an export: meta.json's, else what its data says; a reason when either cannot be known. `used` hears the census it read. */
function identify(rel: string, dir: string, folder: InputFolder, cacheDir: string, used: Set<string>): ArchiveExport | { rel: string; reason: string } {
  let meta;
  try {
    meta = readMeta(dir);
  } catch (error) {
    if (error instanceof UserError) return { rel, reason: error.message };
    throw error;
  }
  const digest = inputDigest(folder);
  const key = buildFingerprint(digest, { census: true });
  used.add(`${key}.json`);
  const read = census(folder, key, cacheDir);
  const region = meta.region ?? read.dataRegion;
  if (region === null) return { rel, reason: 'its region cannot be known: meta.json names none and neither its client files nor its texts tell (add "region" to its meta.json)' };
  // A bare day in meta.json is midnight in the region the data tells, when meta.json names none.
  if (meta.region === null && meta.date !== null) meta = readMeta(dir, region);
  const date = meta.date ?? read.dataDate;
  if (date === null) return { rel, reason: 'its date cannot be known: meta.json gives none and its data has no dated event or release (add "date" to its meta.json)' };
  const day = dayOf(date, region);
  return { rel, dir, region, date, day, name: `${region}-${day}`, digest, census: read };
}

/** Every export of the archive, identified; those that cannot be are left out with the reason. */
function readArchive(root: string, given: string, cacheDir: string, onStep: (line: string) => void) {
  const exports: ArchiveExport[] = [];
  const leftOut: { rel: string; reason: string }[] = [];
  const used = new Set<string>();
  for (const rel of findExports(root, given)) {
    onStep(`reading ${rel}`);
    const dir = path.join(root, rel);
    const found = identify(rel, dir, InputFolder.walk(dir), cacheDir, used);
    if ('reason' in found) leftOut.push(found);
    else exports.push(found);
  }
  // The census of an export no longer in the archive (or of an older generator) is not needed again.
  for (const name of fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : []) if (!used.has(name)) fs.rmSync(path.join(cacheDir, name), { force: true });
  const byName = new Map<string, ArchiveExport>();
  for (const e of exports) {
    const other = byName.get(e.name);
    if (other) throw new UserError(`--archive ${given}: ${other.rel} and ${e.rel} are both the ${e.region} export of ${e.day}; keep one of them`);
    byName.set(e.name, e);
  }
  return { exports: exports.sort((a, b) => a.date - b.date || a.name.localeCompare(b.name)), leftOut };
}

/** A version of the lineage: its export, the exports it knows, and the English export that names what it cannot. */
interface Step {
  export: ArchiveExport;
  known: ArchiveExport[];
  english: ArchiveExport | null;
  /** The build's fingerprint of the step's options (BuildOptions.archive.digest). */
  digest: string;
}

/**
 * The versions, oldest first: each knows the exports dated on or before it; the newest knows
 * every export (the site's current data counts all the archive has).
 */
function lineage(exports: ArchiveExport[], primary: string): Step[] {
  const versions = exports.filter((e) => e.region === primary);
  return versions.map((e, i) => {
    const known = i === versions.length - 1 ? exports : exports.filter((other) => other.date <= e.date);
    const english = primary === 'ww' ? null : known.filter((other) => other.region === 'ww').at(-1) ?? null;
    const digest = createHash('sha256').update(JSON.stringify({ known: known.map((k) => [k.name, k.digest]), english: english?.name ?? null })).digest('hex');
    return { export: e, known, english, digest };
  });
}

/** What the archive keeps beside the site: which step published which version, and each step's line. */
interface ArchiveRecord {
  steps: { version: string; key: string; line: ExportLine }[];
}

function readRecord(file: string): ArchiveRecord {
  try {
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as ArchiveRecord;
    return Array.isArray(record.steps) ? record : { steps: [] };
  } catch {
    return { steps: [] };
  }
}

function writeRecord(file: string, record: ArchiveRecord): void {
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 1)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

/** The truth versions the site in `out` lists (versions.json), oldest first; [] when it has none. */
function publishedVersions(out: string): string[] {
  try {
    const json = JSON.parse(fs.readFileSync(path.join(out, endpoints.versions.file()), 'utf8')) as { versions: { truth_version: string }[] };
    return json.versions.map((v) => v.truth_version);
  } catch {
    return [];
  }
}

type Served = Record<string, { sha256: string; bytes: number }>;

/** Each served file's SHA-256 and size (api/v1/manifest.json); none when the folder holds no site. */
function servedFiles(out: string): Served {
  try {
    return (JSON.parse(fs.readFileSync(path.join(out, endpoints.fileManifest.file()), 'utf8')) as { files: Served }).files;
  } catch {
    return {};
  }
}

/** The files whose bytes differ between two listings of served files, and their bytes in `after`: what a deploy uploads. */
function costBetween(before: Served, after: Served): { files: number; bytes: number } {
  const changed = Object.entries(after).filter(([rel, file]) => before[rel]?.sha256 !== file.sha256);
  return { files: changed.length, bytes: changed.reduce((sum, [, file]) => sum + file.bytes, 0) };
}

/** Ids an export of another region holds that the region's previous export did not. */
function regionLine(e: ArchiveExport, previous: ArchiveExport | undefined): ExportLine {
  const added = (now: readonly number[] | null, before: readonly number[] | null | undefined) => {
    const old = new Set(before ?? []);
    return (now ?? []).filter((id) => !old.has(id)).length;
  };
  const cards = added(e.census.cards, previous?.census.cards);
  const songs = added(e.census.songs, previous?.census.songs);
  const what = [`${cards} card${cards === 1 ? '' : 's'}`, `${songs} song${songs === 1 ? '' : 's'}`].join(', ');
  return {
    name: e.name, rel: e.rel, region: e.region, day: e.day, version: null, cards: e.census.cards.length, songs: e.census.songs?.length ?? null,
    update: previous ? `${what} new since ${previous.name}` : `first ${e.region} export: ${what}`, cost: null,
  };
}

/** Where the step `at` of `steps` is built, and from which site: the chain ends in `out`, the steps before it in `scratch`. */
function stepOptions(at: number, last: number, previousAt: string | null, out: string, scratch: string) {
  const into = at === last ? out : scratch;
  if (previousAt === null) return { into, fresh: true };
  return previousAt === into ? { into } : { into, since: previousAt };
}

/**
 * Builds the archive `options.archive` into `options.out`. The versions already published as
 * this archive would publish them are kept; the first that differs and every one after it are
 * built, each following the one before (in a scratch site, the last into `out`), so a failure
 * leaves `out` as it was. A version that differs before the newest published one (an export
 * inserted or changed in the middle) rebuilds the history from its first version.
 */
export async function buildArchive(options: ArchiveOptions): Promise<ArchiveReport> {
  const root = path.resolve(options.archive);
  const out = path.resolve(options.out);
  if (out === root || out.startsWith(root + path.sep) || root.startsWith(out + path.sep)) {
    throw new UserError(`--out ${options.out} must not be inside --archive ${options.archive} or contain it`);
  }
  const primary = (options.primary ?? 'jp').toLowerCase();
  if (!Object.hasOwn(REGION_TIMEZONES, primary)) throw new UserError(`--primary ${options.primary}: not one of ${Object.keys(REGION_TIMEZONES).join(', ')}`);
  const layout = publishLayout(out);
  checkCacheFolders(layout);
  const work = layout.archive;
  fs.mkdirSync(work, { recursive: true });
  const release = acquireLock(path.join(work, 'lock.db'), out);
  try {
    return await buildLocked(options, { root, out, primary, work, imageCache: options.imageCache ?? layout.images });
  } finally {
    release();
  }
}

async function buildLocked(options: ArchiveOptions, { root, out, primary, work, imageCache }: { root: string; out: string; primary: string; work: string; imageCache: string }): Promise<ArchiveReport> {
  const onStep = options.onStep ?? (() => {});
  const { exports, leftOut } = readArchive(root, options.archive, path.join(work, 'census'), onStep);
  const steps = lineage(exports, primary);
  if (!steps.length) {
    const found = [...new Set(exports.map((e) => e.region))].join(', ') || 'none';
    throw new UserError(`--archive ${options.archive}: no ${primary} export (the primary region, --primary ${primary}); regions found: ${found}`);
  }
  const { imageHost = null, plan } = options;
  const keyOf = (step: Step) => buildFingerprint(step.export.digest, { archive: step.digest, imageHost, plan: plan?.name ?? null });
  const recordFile = path.join(work, 'record.json');
  const record = readRecord(recordFile);
  // The record speaks for the site only while the site lists exactly the versions it recorded.
  const trusted = JSON.stringify(publishedVersions(out)) === JSON.stringify(record.steps.map((s) => s.version));
  const recorded = trusted ? record.steps : [];
  // The first version that differs; when none does, the newest again (its build is up to date at once).
  const differs = steps.findIndex((step, i) => recorded[i]?.key !== keyOf(step));
  const first = differs === -1 ? steps.length - 1 : differs;
  // The site in --out is followed only from its newest version on: a version removed, or one that differs before it, rebuilds the chain.
  const followOut = recorded.length > 0 && recorded.length <= steps.length && first >= recorded.length - 1;
  const from = followOut ? first : 0;
  const scratch = path.join(work, 'lineage');
  const last = steps.length - 1;
  const lines: ExportLine[] = steps.slice(0, from).map((_, i) => ({ ...recorded[i].line, cost: null }));
  let previousAt: string | null = followOut ? out : null;
  let site: BuildReport | null = null;
  let built = 0;
  for (let at = from; at <= last; at++) {
    const step = steps[at];
    const where = stepOptions(at, last, previousAt, out, scratch);
    onStep(`version ${at + 1} of ${steps.length}: ${step.export.name} (${step.export.rel})`);
    // Its cost: the files that differ from the site it follows (what a deploy of it uploads).
    const before = servedFiles(previousAt ?? where.into);
    const report = await build({
      ...options, input: step.export.dir, out: where.into, since: where.since, fresh: where.fresh, imageCache,
      archive: {
        truthVersion: step.export.name, region: step.export.region, date: step.export.date,
        english: step.english ? InputFolder.walk(step.english.dir) : null, regions: regionFacts(step.known), digest: step.digest,
      },
    });
    previousAt = where.into;
    site = report;
    if (!report.upToDate) built++;
    lines.push({
      name: step.export.name, rel: step.export.rel, region: step.export.region, day: step.export.day, version: step.export.name,
      cards: step.export.census.cards.length, songs: step.export.census.songs?.length ?? null,
      update: report.update ? describeCounts(report.update) : 'first version', cost: costBetween(before, servedFiles(where.into)),
    });
  }
  writeRecord(recordFile, { steps: steps.map((step, i) => ({ version: step.export.name, key: keyOf(step), line: lines[i] })) });
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.rmSync(path.join(work, '.cache'), { recursive: true, force: true });
  const others = exports.filter((e) => e.region !== primary);
  const otherLines = others.map((e) => regionLine(e, others.filter((o) => o.region === e.region && o.date < e.date).at(-1)));
  const all = [...lines, ...otherLines].sort((a, b) => a.day.localeCompare(b.day) || a.name.localeCompare(b.name));
  return { exports: all, leftOut, built, site: site! };
}
