/**
 * `npm run bench`: builds synthetic exports at game scale (the sample script's generated
 * cards, as client databases, without pictures: encoding pictures is sharp's work, done
 * once per picture and cached) and measures, in this one process:
 * - build_s: a full build into a new folder, the fastest of a few runs;
 * - floor_s: writing the same bytes into the same number of files with plain fs calls, the
 *   fastest of as many runs, each right after a build (their ratio: `ratio`); and both in CPU
 *   time, every thread of this process, user and kernel (`cpu_ratio`): on a machine other work
 *   loads, the wall time of either moves several-fold between runs, its CPU time far less;
 * - rebuild_s: a build of the unchanged input into the built folder;
 * - edge_p50_ms: the edge handler answering a 100-id card comma list from disk;
 * - edge1000_p50_ms, edge1000_reads (Deno), workerd1000_p50_ms, workerd1000_reads: the edge as it
 *   runs in production, a random 1,000-id card comma list with every read held back 20 ms (a
 *   CDN round trip), workerd1000_cold_cpu_ms and workerd1000_warm_cpu_ms: the workerd process's
 *   own CPU for that list (a fresh instance's first, and after it), and edge1000_held_mb beside
 *   edge1000_packs_mb: the memory one unread answer holds and the packs it read (bench/hosts.ts);
 * - page<N>_interactive_ms: public/index.html in headless Chromium from a plain static host: the time
 *   from navigation start until the card list is rendered and its filters answer (the page's
 *   `cards-interactive` mark), median of a few fresh loads;
 * - load: `npm start` in its own process under 50 concurrent 1,000-id lists for 20 s (bench/load.ts);
 * - versions: 20 successive versions of the 4,000-card export (a few hundred changed cards each)
 *   built in sequence into one site, the first and the last build's time (bench/versions.ts);
 * - bulk: what the bulk downloads and the file manifest add to a full build, and `npm run mirror`
 *   of the site after a one-card change (the files it fetches; bench/bulk.ts), at 4,000 cards;
 * - fits: the 20-version site against each host of the free plan (hosts/all/build/hostFit.ts: the margin,
 *   or why a host would refuse it; the bench's own builds check no limit, to measure the rest);
 * - edge cpu: the site's `_worker.js` per route kind on that site, cold and warm CPU ms (the
 *   medians of three fresh instances) and the heap after the whole mix, against the free budget
 *   (bench/edgeCpu.ts);
 * - rss_mb: peak resident memory so far.
 * Builds and floors alternate and every run writes a new folder (nothing is deleted until
 * the end), so both meet the same disk state; the fastest of each is the one other work
 * disturbed least. The last line is the 4,000-card headline.
 *
 * `npm run bench -- --builds`: the 4,000-card full builds and floors alone (build_s, floor_s and
 * their ratios), in a few minutes.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { execSync } from 'node:child_process';
import { build } from '../generator/build/build.ts';
import { PLANS, UNCHECKED_PLAN } from '../generator/hosts/all/build/hostLimits.ts';
import { fitHosts, folderListing } from '../generator/hosts/all/build/hostFit.ts';
import type { BuildReport } from '../generator/build/report.ts';
import { writeSampleExport } from '../generator/build/sample/make-sample.ts';
import { handleRequest } from '../generator/runtime/edge/handler.ts';
import { diskReader } from '../generator/hosts/node/runtime/diskSite.ts';
import { serveStatic } from '../test/staticServer.ts';
import { launchBrowser } from '../test/browser.ts';
import { formatLoad, loadTest } from './load.ts';
import { formatHosts, hostsBench } from './hosts.ts';
import { formatSearch, searchBench } from './search.ts';
import { bulkBench, formatBulk } from './bulk.ts';
import { formatVersions, versionsBench } from './versions.ts';
import { edgeCpuBench, formatEdgeCpu, type EdgeCpuResult } from './edgeCpu.ts';
import { buildNodeOptions } from './scale.ts';

interface Scale {
  cards: number;
  accessories: number;
  /** Full builds (and floors) to take the fastest of. */
  runs: number;
}

const SCALES: Scale[] = [
  { cards: 4000, accessories: 600, runs: 5 },
  { cards: 20000, accessories: 3000, runs: 1 },
];
/** --builds: the 4,000-card builds and floors only. */
const BUILDS_ONLY = process.argv.includes('--builds');
const EDGE_REQUESTS = 200;
const EDGE_LIST = 100;
const PAGE_LOADS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** A run's wall time and CPU time (every thread of this process, user and kernel), in ms. */
interface Timed {
  wall: number;
  cpu: number;
}

/** Times `run`, after flushing earlier writes so they do not slow it down. */
async function timed(run: () => unknown): Promise<Timed> {
  execSync('sync');
  const [start, cpu] = [performance.now(), process.cpuUsage()];
  await run();
  const { user, system } = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (user + system) / 1000 };
}

/** The fastest of some runs, by wall time and by CPU time (each its own minimum). */
const fastest = (runs: Timed[]): Timed => ({ wall: Math.min(...runs.map((r) => r.wall)), cpu: Math.min(...runs.map((r) => r.cpu)) });
/** Runs as `<wall> s` each, then their CPU times. */
const runsLine = (runs: Timed[]) => `${runs.map((r) => seconds(r.wall)).join(' ')} s (cpu ${runs.map((r) => seconds(r.cpu)).join(' ')} s)`;
/** The headline's build and floor fields. */
const floorFields = (build: Timed, floor: Timed) =>
  `build_s=${seconds(build.wall)} floor_s=${seconds(floor.wall)} ratio=${(build.wall / floor.wall).toFixed(2)} ` +
  `build_cpu_s=${seconds(build.cpu)} floor_cpu_s=${seconds(floor.cpu)} cpu_ratio=${(build.cpu / floor.cpu).toFixed(2)}`;

const stages = (report: BuildReport) => Object.entries(report.timings).map(([k, v]) => `${k}=${v}`).join(' ');

/** Every file of a published folder, read into memory (not timed). */
function readSite(dir: string): [string, Buffer][] {
  const files: [string, Buffer][] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else files.push([child, fs.readFileSync(path.join(dir, child))]);
    }
  };
  walk('');
  return files;
}

/** The floor: the site's folders and files written with plain synchronous fs calls. */
function writePlain(files: [string, Buffer][], dir: string): void {
  for (const folder of new Set(files.map(([rel]) => path.dirname(path.join(dir, rel))))) fs.mkdirSync(folder, { recursive: true });
  for (const [rel, bytes] of files) fs.writeFileSync(path.join(dir, rel), bytes);
}

async function edgeLatency(out: string, ordinals: number[]): Promise<number> {
  const site = { read: diskReader(out) };
  const url = `https://bench.test/api/v1/card/${ordinals.slice(0, EDGE_LIST).join(',')}.json`;
  const times: number[] = [];
  for (let i = 0; i < EDGE_REQUESTS; i++) {
    const start = performance.now();
    const response = await handleRequest(new Request(url), site);
    if (response?.status !== 200) throw new Error(`edge handler answered ${response?.status ?? 'null'} for a ${EDGE_LIST}-id list`);
    await response.text();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Median time to an interactive card list over fresh page loads (the static host sends no-store, so each load fetches every file). */
async function pageInteractive(out: string, root: string): Promise<number> {
  const site = await serveStatic(out);
  const context = await launchBrowser(fs.mkdtempSync(path.join(root, 'chromium-')));
  try {
    const times: number[] = [];
    for (let i = 0; i < PAGE_LOADS; i++) {
      const page = await context.newPage();
      await page.goto(site.url);
      await page.waitForSelector('body[data-ready="true"]');
      times.push(await page.evaluate(() => performance.getEntriesByName('cards-interactive')[0].startTime));
      await page.close();
    }
    return median(times);
  } finally {
    await context.close();
    await site.close();
  }
}

async function measure(scale: Scale, root: string) {
  const dir = path.join(root, `cards-${scale.cards}`);
  const input = path.join(dir, 'input');
  await writeSampleExport(input, { cards: scale.cards, accessories: scale.accessories, format: 'sqlite', images: false });
  const builds: Timed[] = [];
  const floors: Timed[] = [];
  let out = '';
  let files: [string, Buffer][] = [];
  for (let run = 0; run < scale.runs; run++) {
    out = path.join(dir, `build-${run}`, 'public');
    builds.push(await timed(async () => console.log(`  build ${run}: ${stages(await build({ input, out, plan: UNCHECKED_PLAN }))} ms`)));
    if (!files.length) files = readSite(out);
    floors.push(await timed(() => writePlain(files, path.join(dir, `floor-${run}`, 'public'))));
  }
  if (BUILDS_ONLY) {
    console.log(
      `${scale.cards} cards, ${scale.accessories} accessories: ${files.length} files, ${(files.reduce((n, [, b]) => n + b.length, 0) / 2 ** 20).toFixed(1)} MiB; ` +
      `full builds ${runsLine(builds)}, floors ${runsLine(floors)}\n` +
      `bench: cards=${scale.cards} files=${files.length} ${floorFields(fastest(builds), fastest(floors))} rss_mb=${(process.resourceUsage().maxRSS / 1024).toFixed(0)} ` +
      `load=${os.loadavg().map((l) => l.toFixed(1)).join('/')}`,
    );
    return null;
  }
  const rebuilds: number[] = [];
  for (let run = 0; run < 3; run++) rebuilds.push((await timed(() => build({ input, out, plan: UNCHECKED_PLAN }))).wall);
  const forced = (await timed(() => build({ input, out, force: true, plan: UNCHECKED_PLAN }))).wall;
  const ordinals = files.flatMap(([rel]) => /^api\/v1\/card\/(\d+)\.json$/.exec(rel)?.[1] ?? []).map(Number).sort((a, b) => a - b);
  const edge = await edgeLatency(out, ordinals);
  const hosts = await hostsBench(out, { workerd: scale.cards === SCALES[0].cards });
  console.log(`  ${formatHosts(hosts)}`);
  const pageMs = await pageInteractive(out, dir);
  console.log(`  ${formatLoad(await loadTest(out))}`);
  if (scale.cards === SCALES[0].cards) {
    // Search at game scale only: past MAX_READS packs of cards (6,400; the bench's 20,000), a page of 100 results
    // spread over the site names more blocks than a request may read, a 400 as the API means (docs/limits.md).
    console.log(`  ${formatSearch(await searchBench(out))}`);
    console.log(`  ${formatBulk(await bulkBench(input, dir))}`);
  }
  let edgeCpu: EdgeCpuResult | null = null;
  if (scale.cards === SCALES[0].cards) {
    const versions = await versionsBench(input, dir);
    console.log(`  ${formatVersions(versions)}`);
    // The site of 20 versions: the full game's size with its history, as the hosts will hold it.
    for (const fit of fitHosts(folderListing(versions.out), PLANS.free)) console.log(`  fits ${fit.line}${fit.refusal ? ` -- REFUSED: ${fit.refusal}` : ''}`);
    edgeCpu = await edgeCpuBench(versions.out);
    for (const line of formatEdgeCpu(edgeCpu)) console.log(`  ${line}`);
  }
  const result = {
    cards: scale.cards, files: files.length, build: fastest(builds), floor: fastest(floors),
    rebuild: median(rebuilds), forced, edge, hosts, edgeCpu, page: pageMs, rss: process.resourceUsage().maxRSS / 1024,
  };
  console.log(
    `${scale.cards} cards, ${scale.accessories} accessories: ${result.files} files, ` +
    `${(files.reduce((n, [, b]) => n + b.length, 0) / 2 ** 20).toFixed(1)} MiB; ` +
    `full builds ${runsLine(builds)}, floors ${runsLine(floors)}, ` +
    `rebuilds ${rebuilds.map(seconds).join(' ')} s, forced rebuild (every stage, nothing rewritten) ${seconds(forced)} s, ` +
    `edge p50 ${edge.toFixed(2)} ms, page interactive ${pageMs.toFixed(0)} ms, peak rss ${result.rss.toFixed(0)} MB`,
  );
  return result;
}

/** The headline's edge CPU fields: the worst kind cold and warm, and the heap after the whole mix. */
const edgeCpuFields = (r: EdgeCpuResult) =>
  `edge_cpu_cold_max_ms=${Math.max(...r.kinds.map((k) => k.coldMs)).toFixed(1)} edge_cpu_warm_max_ms=${Math.max(...r.kinds.map((k) => k.warmMs)).toFixed(1)} ` +
  `edge_heap_mb=${r.heapMb.toFixed(1)}`;

// The builds run in this process: it must run as `npm run build` runs the CLI, or it measures another build.
const missing = buildNodeOptions().filter((option) => !process.execArgv.includes(option));
if (missing.length) {
  console.error(`bench/bench.ts: node runs without ${missing.join(' ')}, which npm run build gives it: run npm run bench`);
  process.exit(1);
}
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sif-bench-'));
try {
  const results = [];
  for (const scale of BUILDS_ONLY ? SCALES.slice(0, 1) : SCALES) results.push(await measure(scale, root));
  const r = results[0];
  if (r) console.log(
    `bench: cards=${r.cards} files=${r.files} ${floorFields(r.build, r.floor)} rebuild_s=${seconds(r.rebuild)} rebuild_ratio=${(r.rebuild / r.build.wall).toFixed(3)} ` +
    `edge_p50_ms=${r.edge.toFixed(2)} edge${r.hosts.ids}_p50_ms=${r.hosts.deno.p50.toFixed(1)} edge${r.hosts.ids}_reads=${r.hosts.deno.reads} ` +
    `${typeof r.hosts.workerd === 'string' ? `workerd${r.hosts.ids}=none ` : `workerd${r.hosts.ids}_p50_ms=${r.hosts.workerd.p50.toFixed(1)} workerd${r.hosts.ids}_reads=${r.hosts.workerd.reads} `}` +
    `${typeof r.hosts.workerdCpu === 'string' ? '' : `workerd${r.hosts.ids}_cold_cpu_ms=${r.hosts.workerdCpu.coldMs.toFixed(0)} workerd${r.hosts.ids}_warm_cpu_ms=${r.hosts.workerdCpu.warmMs.toFixed(1)} `}` +
    `edge${r.hosts.ids}_held_mb=${r.hosts.heldMb.toFixed(1)} edge${r.hosts.ids}_packs_mb=${r.hosts.packsMb.toFixed(1)} ` +
    `${r.edgeCpu ? `${edgeCpuFields(r.edgeCpu)} ` : ''}page${r.cards}_interactive_ms=${r.page.toFixed(0)} rss_mb=${r.rss.toFixed(0)}`,
  );
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
