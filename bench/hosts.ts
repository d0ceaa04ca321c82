/**
 * The edge on its production runtimes, and the memory one request holds:
 * - Deno (Netlify's edge): the edge function in front of a local static host over HTTP;
 * - workerd (a Cloudflare Worker with static assets): the built `_worker.js` under Miniflare
 *   (test/hosts.ts workerdAssets);
 * each answering a random 1,000-id card list (fixed seed), every read of the site held back
 * 20 ms (a CDN round trip): p50 over a few requests after one to warm up, and the most
 * reads one request made. workerd's local asset server adds latency of its own, so its figure
 * stands beside Deno's rather than against a goal.
 * - workerd's CPU: the same list asked of a fresh instance (no read latency), the workerd
 *   process's own CPU time from /proc (Linux; its asset server, which serves the reads, runs in
 *   it too, and /proc counts in 10 ms ticks): the first request after one that started the
 *   isolate (cold, the median of CPU_INSTANCES instances) and the mean of the WARM_RUNS after it
 *   in the last instance.
 *   This is the runtime Cloudflare bills, where bench/edgeCpu.ts runs the same `_worker.js` in Node.
 * - held: requests answered by the handler in-process (one disk reader each, nothing shared
 *   between them) but not yet read by their client: the memory each holds, beside the bytes
 *   of the packs it read. A streamed answer holds at most what it read.
 *
 * `npx tsx bench/hosts.ts <published folder>` runs it on its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { handleRequest } from '../generator/runtime/edge/handler.ts';
import { diskBytesReader, diskReader } from '../generator/hosts/node/runtime/diskSite.ts';
import { denoEdge, workerdAssets, type Host } from '../test/hosts.ts';
import { childProcesses, cpuMs } from '../test/serverProcess.ts';
import { removeTempDirs } from '../test/tempDirs.ts';
import { listableOrdinals } from './load.ts';

const LIST = 1000;
const READ_LATENCY_MS = 20;
const REQUESTS = 20;
/**
 * A request unanswered this long is given up. `wrangler pages dev` logs every 4 KB its worker
 * reads through its inspector, one message to its Node process each: at 20,000 cards (packs of
 * megabytes) it once stopped answering altogether (docs/benchmark.md).
 */
const ANSWER_TIMEOUT_MS = 120_000;
/** Requests held open at once to measure the memory of one. */
const HELD = 8;
/** Fresh workerd instances whose first list's CPU is taken, and the requests after it in the last (warm). */
const CPU_INSTANCES = 3;
const WARM_RUNS = 10;

export interface HostFigures {
  p50: number;
  reads: number;
}

/** workerd's CPU ms for the list: cold (a fresh instance's first) and warm (mean). */
export interface CpuFigures {
  coldMs: number;
  warmMs: number;
}

export interface HostsResult {
  ids: number;
  deno: HostFigures;
  /** Or why there is no figure: no answer within ANSWER_TIMEOUT_MS, or not run (see hostsBench). */
  workerd: HostFigures | string;
  /** Or why there is none: not run, or no /proc to read it from. */
  workerdCpu: CpuFigures | string;
  /** MB held by one unread answer, and MB of the packs it read. */
  heldMb: number;
  packsMb: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `count` distinct ordinals drawn by a fixed-seed generator (mulberry32), so every run asks for the same list. */
export function randomOrdinals(ordinals: number[], count: number): number[] {
  let seed = 12;
  const next = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const pool = [...ordinals];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}

/** p50 and the most reads of one request, for `list` asked of `host` (`reads()` counts the site's reads so far). */
async function timeList(host: Host, list: string, reads: () => Promise<number>, name: string): Promise<HostFigures> {
  const ask = async () => {
    const response = await host.fetch(list, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${name} answered ${response.status} for a ${LIST}-id list`);
  };
  await ask();
  const times: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const before = await reads();
    const start = performance.now();
    await ask();
    times.push(performance.now() - start);
    counts.push((await reads()) - before);
  }
  return { p50: median(times), reads: Math.max(...counts) };
}

async function onHost<H extends Host>(start: () => Promise<H>, measure: (host: H) => Promise<HostFigures>): Promise<HostFigures> {
  const host = await start();
  try {
    return await measure(host);
  } finally {
    await host.close();
  }
}

/** A request's last CPU reaches /proc at the next tick: waited for before a reading. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 100));

/** workerd's own CPU for `list` (see the header); the isolate started by a request that reads one small file. */
async function workerdCpu(out: string, list: string): Promise<CpuFigures | string> {
  if (!fs.existsSync('/proc/self/stat')) return 'no /proc';
  const colds: number[] = [];
  let warmMs = 0;
  for (let i = 0; i < CPU_INSTANCES; i++) {
    const known = new Set(childProcesses('workerd'));
    const host = await workerdAssets(out);
    try {
      const pid = childProcesses('workerd').find((p) => !known.has(p));
      if (pid === undefined) return 'no workerd process found';
      const ask = async (url: string) => (await host.fetch(url, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) })).arrayBuffer();
      /** workerd's CPU ms for `asking`, read once its last tick has reached /proc. */
      const cpuOf = async (asking: () => Promise<unknown>) => {
        const start = cpuMs(pid);
        await asking();
        await settled();
        return cpuMs(pid) - start;
      };
      await ask('/api/v1/happening/0');
      await settled();
      colds.push(await cpuOf(() => ask(list)));
      if (i === CPU_INSTANCES - 1) warmMs = (await cpuOf(async () => { for (let k = 0; k < WARM_RUNS; k++) await ask(list); })) / WARM_RUNS;
    } finally {
      await host.close();
    }
  }
  return { coldMs: median(colds), warmMs };
}

/**
 * A collected heap's size in bytes: V8's heap (strings included) and memory outside it (buffers).
 * Collected three times with a turn of the event loop between: the memory of buffers collected is
 * given back after the collection that found them, so one collection read at once counted buffers
 * already let go (the figure swung from -0.2 to 12.8 MB between runs; it is steady this way).
 */
async function usedAfterGc(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** Memory one unread 1,000-id answer holds, and the bytes of the packs it read, both in MB. */
async function heldPerRequest(out: string, url: string): Promise<{ heldMb: number; packsMb: number }> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const read = new Set<string>();
  const answer = () => {
    const [text, bytes] = [diskReader(out), diskBytesReader(out)];
    return handleRequest(new Request(url), { read: (rel) => (read.add(rel), text(rel)), readBytes: (rel) => (read.add(rel), bytes(rel)) });
  };
  // Modules and lazily built tables, before the baseline; an answer that is no list would measure nothing.
  const first = (await answer())!;
  if (first.status !== 200) throw new Error(`held: ${url.slice(0, 80)}... answered ${first.status} in-process (a site whose files are links out of it? the disk reader serves none)`);
  await first.arrayBuffer();
  const before = await usedAfterGc(gc);
  const held = await Promise.all(Array.from({ length: HELD }, answer));
  const heldBytes = ((await usedAfterGc(gc)) - before) / HELD;
  await Promise.all(held.map((response) => response!.body?.cancel()));
  const packBytes = [...read].reduce((sum, rel) => sum + fs.statSync(path.join(out, rel)).size, 0);
  return { heldMb: heldBytes / 2 ** 20, packsMb: packBytes / 2 ** 20 };
}

/** The reason for a request given up after ANSWER_TIMEOUT_MS; any other failure stands. */
function unlessTimedOut(error: unknown): string {
  if ((error as Error).name === 'TimeoutError') return `no answer within ${ANSWER_TIMEOUT_MS / 1000} s`;
  throw error;
}

/**
 * `workerd: false` leaves workerd out: `npm run bench` runs it at 4,000 cards only, since at
 * 20,000 wrangler's local server (`wrangler pages dev`, measured before the Worker target) either
 * stopped answering or reset the connection after the first answer (docs/benchmark.md), which
 * says nothing of the handler and failed the whole bench.
 */
export async function hostsBench(out: string, { workerd: runWorkerd = true } = {}): Promise<HostsResult> {
  const ids = randomOrdinals(listableOrdinals(out), LIST);
  const list = `/api/v1/card/${ids.join(',')}.json`;
  try {
    const deno = await onHost(() => denoEdge(out, READ_LATENCY_MS), (host) => timeList(host, list, async () => host.staticRequests(), 'Deno'));
    const workerd = runWorkerd
      ? await onHost(() => workerdAssets(out, READ_LATENCY_MS), (host) => timeList(host, list, host.reads, 'workerd')).catch(unlessTimedOut)
      : 'not run at this scale';
    const cpu = runWorkerd ? await workerdCpu(out, list).catch(unlessTimedOut) : 'not run at this scale';
    return { ids: ids.length, deno, workerd, workerdCpu: cpu, ...(await heldPerRequest(out, `https://bench.test${list}`)) };
  } finally {
    await removeTempDirs();
  }
}

export const formatHosts = (r: HostsResult) =>
  `hosts (${READ_LATENCY_MS} ms reads), ${r.ids}-id card list: Deno p50 ${r.deno.p50.toFixed(1)} ms in ${r.deno.reads} reads, ` +
  `workerd ${typeof r.workerd === 'string' ? r.workerd : `p50 ${r.workerd.p50.toFixed(1)} ms in ${r.workerd.reads} reads`}, ` +
  `its CPU ${typeof r.workerdCpu === 'string' ? r.workerdCpu : `cold ${r.workerdCpu.coldMs.toFixed(0)} ms, warm ${r.workerdCpu.warmMs.toFixed(1)} ms`}; ` +
  `one unread answer holds ${r.heldMb.toFixed(1)} MB ` +
  `of the ${r.packsMb.toFixed(1)} MB of packs it read`;

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [dir] = process.argv.slice(2);
  if (!dir) throw new Error('usage: npx tsx bench/hosts.ts <published folder>');
  console.log(formatHosts(await hostsBench(dir)));
}
