/**
 * The bulk downloads and the mirror at game scale:
 * - what the bulk stage (JSON Lines, SQLite, checksums, bulk/index.json) and the file manifest
 *   add to a full build, from the build report's stage timings (goal: under 15% of the build);
 * - `npm run mirror` of the site from the local server of `npm start` (in-process): a full
 *   copy, then, after a one-card change rebuilt into the served folder, the files it fetches
 *   (only those whose hash changed), checked against the two manifests.
 *
 * `npx tsx bench/bulk.ts <export folder> <work folder>` runs it on its own.
 */
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { build } from '../generator/build/build.ts';
import { UNCHECKED_PLAN } from '../generator/hosts/all/build/hostLimits.ts';
import { mirror } from '../generator/build/mirror/mirror.ts';
import { startServer } from '../generator/hosts/node/runtime/server.ts';
import { endpoints } from '../generator/contract/endpoints.ts';
import type { FileManifestJson } from '../generator/contract/schemas.ts';

export interface BulkResult {
  /** Per full build: the bulk and manifest stages' ms, and the whole build's. */
  builds: { bulk: number; manifest: number; total: number }[];
  full: { files: number; mib: number; seconds: number };
  update: { files: number; mib: number; seconds: number; changed: number };
}

const FULL_BUILDS = 2;
const mib = (bytes: number) => bytes / 2 ** 20;

/** The one card row the update changes: card #1's smile at its cap, in the export's unit database. */
function changeOneCard(input: string): void {
  const db = new Database(path.join(input, 'db/unit/unit.db_'));
  try {
    if (db.prepare('UPDATE unit_m SET smile_max = smile_max + 1 WHERE unit_number = 1').run().changes !== 1) throw new Error(`${input}: no card #1 to change`);
  } finally {
    db.close();
  }
}

/** Root-relative paths whose hash differs between two file manifests (or that only the second lists). */
const changedPaths = (before: FileManifestJson, after: FileManifestJson) =>
  Object.entries(after.files).filter(([key, entry]) => before.files[key]?.sha256 !== entry.sha256).map(([key]) => key);

export async function bulkBench(input: string, dir: string): Promise<BulkResult> {
  const builds: BulkResult['builds'] = [];
  const site = path.join(dir, 'bulk-site', 'public');
  for (let run = 0; run < FULL_BUILDS; run++) {
    // Each a fresh folder; the last one is the site the mirror copies.
    const out = run === FULL_BUILDS - 1 ? site : path.join(dir, `bulk-build-${run}`, 'public');
    const { timings } = await build({ input, out, plan: UNCHECKED_PLAN });
    builds.push({ bulk: timings.bulk, manifest: timings.manifest, total: Object.values(timings).reduce((a, b) => a + b, 0) });
  }
  const server = await startServer(site, 0);
  try {
    const copy = path.join(dir, 'bulk-copy', 'public');
    let start = performance.now();
    const first = await mirror({ from: server.url, out: copy });
    const full = { files: first.fetched.length, mib: mib(first.fetchedBytes), seconds: (performance.now() - start) / 1000 };
    const manifestOf = (folder: string) => JSON.parse(fs.readFileSync(path.join(folder, endpoints.fileManifest.file()), 'utf8')) as FileManifestJson;
    const before = manifestOf(site);
    const edited = path.join(dir, 'bulk-input');
    fs.cpSync(input, edited, { recursive: true });
    changeOneCard(edited);
    await build({ input: edited, out: site, plan: UNCHECKED_PLAN });
    const changed = changedPaths(before, manifestOf(site));
    start = performance.now();
    const second = await mirror({ from: server.url, out: copy });
    const update = { files: second.fetched.length, mib: mib(second.fetchedBytes), seconds: (performance.now() - start) / 1000, changed: changed.length };
    // Files of equal content download once, so the mirror fetches at most the changed paths, and every one it fetched changed.
    if (second.fetched.some((key) => !changed.includes(key))) throw new Error(`the mirror fetched files that did not change: ${second.fetched.join(' ')}`);
    if (JSON.stringify(manifestOf(copy)) !== JSON.stringify(manifestOf(site))) throw new Error('the copy does not list what the site lists');
    return { builds, full, update };
  } finally {
    await server.close();
  }
}

export function formatBulk(r: BulkResult): string {
  const shares = r.builds.map((b) => `${b.bulk}+${b.manifest} of ${b.total} ms (${(((b.bulk + b.manifest) / b.total) * 100).toFixed(1)}%)`);
  return `bulk: bulk+manifest stages per full build ${shares.join(', ')}; ` +
    `mirror from npm start: full copy ${r.full.files} files ${r.full.mib.toFixed(1)} MiB in ${r.full.seconds.toFixed(2)} s, ` +
    `after a one-card change ${r.update.files} files fetched (${r.update.changed} paths changed) ${r.update.mib.toFixed(2)} MiB in ${r.update.seconds.toFixed(2)} s`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, dir] = process.argv.slice(2);
  if (!input || !dir) throw new Error('usage: npx tsx bench/bulk.ts <export folder> <work folder>');
  console.log(formatBulk(await bulkBench(input, dir)));
}
