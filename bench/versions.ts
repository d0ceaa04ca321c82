/**
 * History cost at game scale: VERSIONS successive versions of a 4,000-card export, each
 * changing a few hundred cards (hp_max of every card whose id falls in that version's
 * residue class, so each version touches other cards too), built in sequence into one
 * site. Reports the first and the last build's wall time (goal: last <= 1.3 x first: a build
 * must not grow with the number of versions kept) and the history stage of each.
 *
 * `npx tsx bench/versions.ts <export folder> <work folder>` runs it on its own.
 */
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { build } from '../generator/build/build.ts';
import { UNCHECKED_PLAN } from '../generator/hosts/all/build/hostLimits.ts';

const VERSIONS = 20;
/** Each version changes the cards whose id modulo this is its residue: about 4,000 / 13 = 300. */
const SPREAD = 13;

export interface VersionsResult {
  /** The site the builds published: every version's history (bench/edgeCpu.ts measures ?version= on it). */
  out: string;
  /** Wall ms and history stage ms of each build, in order. */
  builds: { total: number; history: number; changed: number; stages: Record<string, number> }[];
}

function editVersion(input: string, version: number): void {
  const db = new Database(path.join(input, 'db/unit/unit.db_'));
  try {
    db.prepare('UPDATE unit_m SET hp_max = hp_max + 1 WHERE unit_id % ? = ?').run(SPREAD, version % SPREAD);
  } finally {
    db.close();
  }
  fs.writeFileSync(path.join(input, 'meta.json'), JSON.stringify({ truth_version: `bench-${version}`, region: 'jp', date: 1500000000 + version * 86400 }));
}

export async function versionsBench(input: string, dir: string): Promise<VersionsResult> {
  const edited = path.join(dir, 'versions-input');
  const out = path.join(dir, 'versions-site', 'public');
  fs.cpSync(input, edited, { recursive: true });
  const builds: VersionsResult['builds'] = [];
  for (let version = 1; version <= VERSIONS; version++) {
    if (version > 1) editVersion(edited, version);
    else fs.writeFileSync(path.join(edited, 'meta.json'), JSON.stringify({ truth_version: 'bench-1', region: 'jp', date: 1500086400 }));
    const start = performance.now();
    const report = await build({ input: edited, out, plan: UNCHECKED_PLAN });
    builds.push({ total: performance.now() - start, history: report.timings.history ?? 0, changed: report.changed, stages: { ...report.timings } });
  }
  return { out, builds };
}

const stages = (build: VersionsResult['builds'][number]) => Object.entries(build.stages).map(([k, v]) => `${k}=${v}`).join(' ');

export function formatVersions({ builds }: VersionsResult): string {
  const [first, last] = [builds[0], builds.at(-1)!];
  return `versions: ${builds.length} successive versions of one site: first build ${(first.total / 1000).toFixed(2)} s, ` +
    `last ${(last.total / 1000).toFixed(2)} s (${(last.total / first.total).toFixed(2)}x; goal <= 1.3x), ` +
    `history stage ${builds.map((b) => b.history).join(' ')} ms, files written ${builds.map((b) => b.changed).join(' ')}; ` +
    `stages of the first ${stages(first)}, of the last ${stages(last)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, dir] = process.argv.slice(2);
  if (!input || !dir) throw new Error('usage: npx tsx bench/versions.ts <export folder> <work folder>');
  console.log(formatVersions(await versionsBench(input, dir)));
}
