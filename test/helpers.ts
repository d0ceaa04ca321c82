/** Shared test fixtures: temporary folders, the sample build, and exports built from code. */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fs from 'fs-extra';
import fg from 'fast-glob';
import { expect, inject } from 'vitest';
import { build } from '../generator/build/build.ts';
import { closeExport, readExport } from '../generator/build/input/readExport.ts';
import { inputDigest } from '../generator/build/input/treeDigest.ts';
import { InputFolder } from '../generator/build/input/inputFiles.ts';
import { openSql } from '../generator/build/input/sqlDump.ts';
import { buildModel, type Model } from '../generator/build/model/buildModel.ts';
import { MemoryFiles } from '../generator/build/siteFiles.ts';
import type { ChangesFound } from '../generator/build/changes/deriveChanges.ts';
import type { BulkIndexJson } from '../generator/contract/schemas.ts';
import { memberSum, packWords } from '../generator/contract/packSum.ts';
import { runStages, type StageOptions } from '../generator/build/stages.ts';
import { memorySite, type PreviousSite } from '../generator/build/input/previousSite.ts';
import { BuildReport } from '../generator/build/report.ts';
import { publishLayout } from '../generator/build/publish/layout.ts';
import { Staging } from '../generator/build/publish/staging.ts';
import { scanFolder, writeManifest, type Manifest } from '../generator/build/publish/manifest.ts';
import { dumpSql, type TableDump } from '../generator/build/sample/sql.ts';
import { writeSampleExport } from '../generator/build/sample/make-sample.ts';
import { tempDir } from './tempDirs.ts';
import { editDump, snapshot } from './exportEdits.ts';
import { SAMPLE_INPUT, type SampleBuild } from './globalSetup.ts';
import { fixtureKey, keptFixture, readOutcome, writeOutcome } from './keptFixtures.ts';
import { SAMPLE_MARKER } from '../generator/build/input/sampleMarker.ts';
import { endpoints, objectEndpoint, type ObjectType } from '../generator/contract/endpoints.ts';
import { keyPackOf, packOf } from '../generator/contract/format.ts';

export { SAMPLE_INPUT, tempDir };

/** Read at once: the tests read thousands of small files, where a promise per read costs more than the read. */
export async function readJson<T = any>(dir: string, rel: string): Promise<T> {
  return JSON.parse(readFileSync(path.join(dir, rel), 'utf8')) as T;
}

/**
 * A generic object's JSON text exactly as its type's pack holds it (at the pack's offsets), null when the pack has none;
 * card_t's from the cards' pack at the ordinal its own pack names.
 */
export function packedText(dir: string, type: ObjectType, id: number): string | null {
  const file = path.join(dir, objectEndpoint[type].pack.file(type === 'card_t' ? keyPackOf(id) : packOf(id)));
  if (!existsSync(file)) return null;
  if (type === 'card_t') {
    const ordinal = (JSON.parse(readFileSync(file, 'utf8')) as { ordinals: Record<string, number> }).ordinals[id];
    return ordinal === undefined ? null : packMember(path.join(dir, endpoints.cardPack.file(packOf(ordinal))), ordinal);
  }
  return packMember(file, id);
}

/** A build's staging of a new site folder of its own (removed with the test's folders), and its files; stop it with abort(). */
export async function newStaging() {
  const out = path.join(await tempDir(), 'public');
  const layout = publishLayout(out);
  await fs.ensureDir(layout.work);
  const staging = new Staging(layout, scanFolder(out), null, () => {});
  return { staging, files: staging.files(), layout };
}

/** The JSON text of member `id` of the pack file at `file`, null when it has none. */
const packMember = (file: string, id: number): string | null => packMembers(readFileSync(file)).get(String(id))?.toString('utf8') ?? null;

/**
 * The members of a pack's bytes by id, each exactly the bytes at its offsets; throws when a
 * member's sum is not the one its offsets give (contract/packSum.ts), as the edge refuses it.
 */
export function packMembers(bytes: Buffer): Map<string, Buffer> {
  const { offsets } = JSON.parse(bytes.toString('utf8')) as { offsets: Record<string, [number, number, number]> };
  const words = packWords(bytes);
  return new Map(Object.entries(offsets).map(([id, [start, end, sum]]) => {
    if (memberSum(words, start, end) !== sum) throw new Error(`pack member ${id}: sum ${sum} is not that of its bytes`);
    return [id, bytes.subarray(start, end)];
  }));
}

/** A generic object as its type's pack publishes it (what `<type>/<id>` answers), null when there is none. */
export async function packedObject<T = any>(dir: string, type: ObjectType, id: number): Promise<T | null> {
  const text = packedText(dir, type, id);
  return text === null ? null : (JSON.parse(text) as T);
}

/** Builds `input` into a fresh temporary output folder. */
export async function buildInto(input: string) {
  const out = path.join(await tempDir(), 'public');
  const report = await build({ input, out });
  return { out, report };
}

/** The accessors of a site held in memory: a rendered file parsed, a generic object from its type's pack. */
function accessors(files: MemoryFiles) {
  const json = <T = any>(rel: string): T => {
    const bytes = files.get(rel);
    if (!bytes) throw new Error(`${rel} was not rendered`);
    return JSON.parse(bytes.toString('utf8')) as T;
  };
  /** A generic object from its type's pack (what `<type>/<id>` answers), null when none is published. */
  const object = <T = any>(type: ObjectType, id: number): T | null => {
    const pack = files.get(objectEndpoint[type].pack.file(packOf(id)));
    return pack ? ((JSON.parse(pack.toString('utf8')) as { objects: Record<string, T> }).objects[id] ?? null) : null;
  };
  return { json, object };
}

/** `input` through the build's stages (stages.ts runStages) on files in memory, following `previous`; pictures taken as published, never encoded. */
async function stagesInMemory(input: string, previous: PreviousSite, options: Pick<StageOptions, 'recorded' | 'scratch' | 'renderOnly'> & { pictures: ReadonlySet<string> }) {
  const report = new BuildReport();
  const files = new MemoryFiles();
  const folder = InputFolder.walk(input);
  const done = await runStages(report, files, { input: folder, inputDigest: inputDigest(folder), previous, imageHost: null, images: options.pictures, ...options });
  return { files, report, ...accessors(files), ...done };
}

/**
 * `input` read, modelled and rendered in memory, without the picture and publishing stages: for
 * rule tests that only look at the JSON. `json(rel)` is a rendered file parsed (`files.has(rel)` says whether one is).
 * `pictures`: the site paths of the pictures taken as published (none by default).
 */
export const renderInMemory = (input: string, pictures: ReadonlySet<string> = new Set()) =>
  stagesInMemory(input, memorySite(new Map()), { recorded: null, scratch: null, renderOnly: true, pictures });

/** A site rendered in memory with what a build publishes after it follows a previous site: change lists, histories, bulk files. */
export type RenderedInMemory = Awaited<ReturnType<typeof renderInMemory>>;
export type SiteInMemory = RenderedInMemory & { changes: ChangesFound };

/**
 * `input` through every stage but the picture and publishing ones, in memory, following
 * `previous` (a site made so before; null: a first build) through the previous site's interface
 * (memorySite) instead of a folder. The snapshots the previous run kept stand for its build's
 * records, unless `readBack` (as --since, or a site without records): then its objects are read
 * back from its files. Only the bulk stage's own scratch folder is on disk; `bulk: false` leaves
 * that stage out (tests of the change lists, which no bulk file feeds: its SQLite database is
 * most of a sample site's time).
 */
export async function nextInMemory(input: string, previous: SiteInMemory | null, { readBack = false, pictures = new Set<string>(), bulk = true } = {}): Promise<SiteInMemory> {
  const previousSite = memorySite(previous?.files ?? new Map(), { named: readBack && previous !== null });
  const recorded = readBack ? null : previous?.changes.keep ?? null;
  const site = await stagesInMemory(input, previousSite, { recorded, scratch: bulk ? await tempDir() : null, pictures });
  return { ...site, changes: site.changes! };
}

/** Writes a site held in memory into the folder `dir`, as a published site (for the tests of folders: --since). */
export function writeSite(files: ReadonlyMap<string, Buffer>, dir: string): void {
  for (const [rel, bytes] of files) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), bytes);
  }
}

/**
 * Copies the folder `from` to `to` (absent), links as links. Blocking calls: a site is hundreds
 * of small files, where a promise per file costs more than the copy.
 */
export function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const [source, target] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (entry.isDirectory()) copyTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else copyFileSync(source, target);
  }
}

/**
 * A copy of the site published at `from`, with the builder's own files beside it (publish/layout.ts),
 * at a fresh `out` of the same name: a site that later builds take for one they built, for the cost
 * of a copy instead of a build. The record names the folder and each file by inode
 * (publish/manifest.ts), so it is rewritten with the copy's stats; the content hashes stay, as the
 * bytes do. `from` must not be building meanwhile.
 */
export async function copySite(from: string): Promise<string> {
  const source = publishLayout(from);
  const out = path.join(await tempDir(), path.basename(source.out));
  const target = publishLayout(out);
  copyTree(source.work, target.work);
  const version = path.join(target.sites, path.basename(await fs.realpath(from)));
  await fs.symlink(path.relative(path.dirname(out), version), out);
  await recordStats(out);
  return out;
}

/** Rewrites the builder's record of the site at `out` with its folder's and files' stats as they are now; the content hashes stay. */
export async function recordStats(out: string): Promise<void> {
  const { manifest: file } = publishLayout(out);
  const version = await fs.realpath(out);
  const { format: _, ...manifest } = (await fs.readJson(file)) as Manifest;
  for (const [rel, stat] of scanFolder(version).files) manifest.files[rel] = { ...manifest.files[rel], ...stat };
  writeManifest(file, { ...manifest, folder: (await fs.stat(version)).ino });
}

/**
 * The sample published at a fresh `out` that a test may break (a copy of the run's build), with its
 * snapshot: what a refused or failed build must leave alone.
 */
export async function publishedSample() {
  const out = await copySite((await buildSample()).out);
  return { out, before: await snapshot(out) };
}

/** The shipped sample's build, once the run has it (test/globalSetup.ts): read it, never change it. */
export async function buildSample() {
  const { out, report } = await readOutcome<SampleBuild>(inject('sample'), 'sample build');
  return { out, report: Object.assign(new BuildReport(), report) };
}

/** The site paths of the pictures the sample's build published: what renderInMemory takes as published to render the sample's JSON as its build did. */
export const samplePictures = async (): Promise<Set<string>> => new Set(await fg('images/**/*.png', { cwd: (await buildSample()).out }));

/** `make`, run at the first call only: later calls share its promise (a fixture made once per test file, by the first test that asks). */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** Cards in the generated export that bigSite builds (with 600 accessories, no pictures). */
export const BIG_CARDS = 4000;

/** What the 4,000-card export is generated from. */
const BIG_EXPORT = { cards: BIG_CARDS, accessories: 600, format: 'sqlite', images: false } as const;

/**
 * A generated 4,000-card export and its site, made once per run by the first test file that asks
 * (or kept from an earlier run: test/keptFixtures.ts); files asking meanwhile wait for it. Read
 * it, never change it.
 */
export async function bigSite(): Promise<BigSite> {
  const turn = inject('bigSiteDir');
  const made = path.join(turn, 'made');
  const first = await fs.mkdir(turn).then(() => true, () => false); // atomic: only the first file makes it
  if (first) {
    await writeOutcome(made, keptFixture('big-site', fixtureKey(JSON.stringify(BIG_EXPORT)), async (into) => {
      await writeSampleExport(path.join(into, 'input'), BIG_EXPORT);
      await build({ input: path.join(into, 'input'), out: path.join(into, 'public') }); // checked against the free plan's hosts, as any build
    }).then((dir): BigSite => ({ input: path.join(dir, 'input'), out: path.join(dir, 'public') })));
  }
  return readOutcome<BigSite>(made, '4,000-card site');
}

type BigSite = { input: string; out: string };

/** A copy of the sample export that a test may change freely: without the sample's marker, it builds as anyone's export would. */
export async function copySample(): Promise<string> {
  const dir = path.join(await tempDir(), 'input');
  copyTree(SAMPLE_INPUT, dir);
  await fs.rm(path.join(dir, SAMPLE_MARKER));
  return dir;
}

/** A copy of the sample export as its next version, `next`, with one card's stats changed: the bulk downloads of cards change, those of characters do not. */
export async function nextSampleVersion(): Promise<string> {
  const input = await copySample();
  await fs.writeJson(path.join(input, 'meta.json'), { truth_version: 'next', region: 'jp' });
  await editDump(input, 'unit.sql', 'UPDATE unit_m SET smile_max = smile_max + 7 WHERE unit_number = 5;');
  return input;
}

/** Checks a bulk index built from nextSampleVersion after `before`: each file left unchanged keeps before's version as updated_in, each other one is `next`'s. */
export function expectUpdatedInCarried(before: BulkIndexJson, after: BulkIndexJson): void {
  const updatedIn = Object.fromEntries(after.files.map((f) => [f.name, f.updated_in]));
  for (const file of after.files) {
    const old = before.files.find((f) => f.name === file.name)!;
    expect(updatedIn[file.name], file.name).toBe(old.sha256 === file.sha256 ? before.truth_version : 'next');
  }
  expect([updatedIn['cards.jsonl'], updatedIn['char_t.jsonl']]).toEqual(['next', before.truth_version]);
}

/** Writes tables as a database file at `rel` under `dir`: a SQL dump for *.sql, else a real SQLite file. */
export async function writeDb(dir: string, rel: string, tables: TableDump[]): Promise<string> {
  const file = path.join(dir, rel);
  await fs.ensureDir(path.dirname(file));
  const sql = dumpSql(tables);
  if (file.endsWith('.sql')) {
    await fs.writeFile(file, sql);
  } else {
    openSql(sql, file).close();
  }
  return file;
}

/** Reads an export folder and builds its model, as the build's read and model stages do. */
export function modelAt(input: string): { model: Model; report: BuildReport } {
  const report = new BuildReport();
  const folder = InputFolder.walk(input);
  const game = readExport(folder, report, inputDigest(folder));
  try {
    return { model: buildModel(game, report), report };
  } finally {
    closeExport(game);
  }
}

/** Writes an export folder from code, builds its model, then deletes the folder. Keys ending in .sql or .db_ are databases (tables), others JSON files. */
export async function modelOf(files: Record<string, TableDump[] | unknown>): Promise<{ model: Model; report: BuildReport }> {
  const input = await tempDir('sif-model-');
  try {
    for (const [rel, content] of Object.entries(files)) {
      if (/\.(sql|db_)$/.test(rel)) await writeDb(input, rel, content as TableDump[]);
      else await fs.outputJson(path.join(input, rel), content);
    }
    return modelAt(input);
  } finally {
    await fs.remove(input);
  }
}
