/**
 * The edge's CPU per request, as Cloudflare bills it: the site's own `_worker.js` (bundled by
 * the build, hosts/all/build/hostRules.ts) loaded in a fresh worker thread per instance (its own V8
 * isolate and heap, as a Cloudflare isolate), with an `ASSETS` binding that reads the
 * published files from disk and hands each over as workerd does (AssetResponse: read whole,
 * once). Around each `fetch` call and the sending of its answer (JOIN_ANSWER), the CPU time
 * (user and system, of the whole process while the main thread waits; the site's reads
 * included, the module's loading excluded):
 * - cold: the first request of its kind in a fresh instance, the median of INSTANCES instances;
 * - warm: the median of the same kind's requests after it in an instance, the median of those;
 * each with the range the instances gave (the development VM moves by a third between one
 * instance and the next: one instance's figure is one draw, not a measure);
 * - heap: V8's heap after a fresh instance has served every kind once (collected first).
 * One line per route kind, and a summary against the budget (10 ms warm, 50 ms cold, 128 MB heap).
 *
 * `npx tsx bench/edgeCpu.ts [published folder]` runs it on its own; without a folder it builds
 * the bench's 4,000-card export (one version) first.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { build } from '../generator/build/build.ts';
import { UNCHECKED_PLAN } from '../generator/hosts/all/build/hostLimits.ts';
import { writeSampleExport } from '../generator/build/sample/make-sample.ts';
import { MAX_TERMS } from '../generator/web/search/query.js';
import { MAX_READS, MAX_VERSION_IDS } from '../generator/contract/limits.ts';
import { listableOrdinals, publishedOrdinals } from './load.ts';
import { randomOrdinals } from './hosts.ts';

export const BUDGET = { warmMs: 10, coldMs: 50, heapMb: 128 };
/** Requests of a kind after the cold one, in the same instance. */
const WARM_RUNS = 10;
/**
 * Fresh instances per kind, each round asking every kind once (so that a slow minute of the
 * machine falls on one instance of many kinds, not on every instance of one), as bench/hosts.ts
 * takes workerd's cold CPU.
 */
const INSTANCES = 3;
/**
 * Node's own Web classes made ready in each instance before its first request, as a Worker's runtime
 * has them (see INSTANCE); `EDGE_CPU_COLD_RUNTIME=1` leaves them to load during the cold request,
 * as the bench measured before 2026-11-28.
 */
const WARM_RUNTIME = process.env.EDGE_CPU_COLD_RUNTIME !== '1';
/**
 * How the instance takes each answer: as a host sends it (each chunk read from the body and copied
 * once into a 64 KiB buffer, as a write to a socket copies it; never joined), or with
 * `EDGE_CPU_JOIN_ANSWER=1` joined into one ArrayBuffer by `arrayBuffer()`, as the bench took it
 * before 2026-11-28 (session 18). Node's `arrayBuffer()` copies every byte twice into new memory
 * (undici joins the chunks, then copies the join), which no Worker's runtime does with an answer:
 * for a 3 MB list about 6 ms of this VM's CPU that were the bench's, not the handler's.
 */
const JOIN_ANSWER = process.env.EDGE_CPU_JOIN_ANSWER === '1';

interface BenchRequest {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
}

/** A route kind: its requests, the first asked cold, then all of them in turn. */
interface RouteKind {
  name: string;
  requests: BenchRequest[];
}

export interface KindFigures {
  name: string;
  /** The medians of the instances' figures, and the least and the most an instance gave. */
  coldMs: number;
  warmMs: number;
  coldRange: [number, number];
  warmRange: [number, number];
  /** Bytes of the first answer. */
  bytes: number;
  /** Files the cold request read, and their bytes; the same for the warm median (of bytes). Of the median instance's cold request. */
  coldReads: number;
  coldReadBytes: number;
  /** CPU ms the cold request spent reading files from disk through the ASSETS binding (a part of coldMs: the bench's, not the handler's). */
  coldReadMs: number;
  warmReads: number;
  warmReadBytes: number;
  /** CPU ms the warm requests spent reading files from disk (median), a part of warmMs. */
  warmReadMs: number;
}

export interface EdgeCpuResult {
  cards: number;
  versions: number;
  kinds: KindFigures[];
  /** MB of V8 heap (and of memory outside it, buffers) after one fresh instance served every kind once. */
  heapMb: number;
  externalMb: number;
}

interface Answer {
  status: number;
  bytes: number;
  cpuMs: number;
  /** Files the request read through ASSETS, and their bytes. */
  reads: number;
  readBytes: number;
  /** CPU ms of those reads from disk (a part of cpuMs). */
  readMs: number;
}

/**
 * The instance: a worker thread (plain JavaScript, evaluated, so it loads nothing of this
 * repository) importing the site's `_worker.js` as a module, answering the requests in order.
 */
const INSTANCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const { dir, requests, warmRuntime, joinAnswer } = workerData;
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc');
let reads = 0;
let readBytes = 0;
let readMs = 0;
/**
 * An asset as workerd hands it over: arrayBuffer() gives the bytes read, as workerd reads a body
 * whole in its own code (Node's would copy them twice more, which no Worker's runtime does); the
 * body, for an answer that passes the asset on, streams them as one chunk.
 */
class AssetResponse extends Response {
  #bytes;
  constructor(bytes) {
    super(new ReadableStream({ start(controller) { controller.enqueue(bytes); controller.close(); } }));
    this.#bytes = bytes;
  }
  async arrayBuffer() {
    const { buffer, byteOffset, byteLength } = this.#bytes;
    return byteOffset === 0 && byteLength === buffer.byteLength ? buffer : buffer.slice(byteOffset, byteOffset + byteLength);
  }
}
const ASSETS = {
  async fetch(input) {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const start = process.cpuUsage();
    try {
      const bytes = fs.readFileSync(path.join(dir, decodeURIComponent(url.pathname)));
      reads++;
      readBytes += bytes.length;
      return new AssetResponse(bytes);
    } catch {
      return new Response('not found', { status: 404 });
    } finally {
      const cpu = process.cpuUsage(start);
      readMs += (cpu.user + cpu.system) / 1000;
    }
  },
};
/** The answer's bytes, taken as a host sends them (see JOIN_ANSWER): read a chunk at a time, each copied once into the send buffer. */
const sendBuffer = new Uint8Array(64 * 1024);
async function send(response) {
  if (joinAnswer) return (await response.arrayBuffer()).byteLength;
  if (!response.body) return 0;
  const reader = response.body.getReader();
  let bytes = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    for (let at = 0; at < chunk.byteLength; at += sendBuffer.byteLength) sendBuffer.set(chunk.subarray(at, at + sendBuffer.byteLength));
    bytes += chunk.byteLength;
  }
  return bytes;
}
(async () => {
  const code = fs.readFileSync(path.join(dir, '_worker.js')).toString('base64');
  const worker = (await import('data:text/javascript;base64,' + code)).default;
  if (warmRuntime) {
    // Node loads its Web classes (fetch's Response and Headers, streams, encoders, Web Crypto) on their
    // first use, in JavaScript: tens of milliseconds a Worker's runtime, which has them built in, never
    // spends. Used once here, before any request, on nothing of the worker's.
    const stream = new ReadableStream({ pull(controller) { controller.enqueue(new TextEncoder().encode('{}')); controller.close(); } });
    await new Response(stream, { headers: { 'content-type': 'application/json' } }).arrayBuffer();
    const reader = new Response(new Uint8Array(2)).body.getReader();
    while (!(await reader.read()).done);
    await new Response('{}').text();
    new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(2));
    await crypto.subtle.digest('SHA-256', new Uint8Array(2));
    new Headers(new Response('').headers).set('x', '1');
  }
  const answers = [];
  for (const { url, method = 'GET', body } of requests) {
    const request = new Request('https://bench.test' + url, { method, body });
    reads = readBytes = readMs = 0;
    const start = process.cpuUsage();
    const response = await worker.fetch(request, { ASSETS });
    const bytes = await send(response);
    const cpu = process.cpuUsage(start);
    answers.push({ status: response.status, bytes, cpuMs: (cpu.user + cpu.system) / 1000, reads, readBytes, readMs });
  }
  collect();
  const heap = v8.getHeapStatistics();
  parentPort.postMessage({ answers, heap: { used: heap.used_heap_size, external: heap.external_memory } });
})().catch((error) => { throw error; });
`;

/** Runs `requests` in a fresh instance; every answer must be a 200. */
function inInstance(dir: string, requests: BenchRequest[]): Promise<{ answers: Answer[]; heap: { used: number; external: number } }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(INSTANCE, { eval: true, workerData: { dir, requests, warmRuntime: WARM_RUNTIME, joinAnswer: JOIN_ANSWER } });
    worker.once('message', (result: { answers: Answer[]; heap: { used: number; external: number } }) => {
      const failed = result.answers.findIndex((answer) => answer.status !== 200);
      if (failed >= 0) reject(new Error(`${requests[failed].method ?? 'GET'} ${requests[failed].url.slice(0, 120)} answered ${result.answers[failed].status}`));
      else resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const readJson = <T>(dir: string, rel: string): T => JSON.parse(fs.readFileSync(path.join(dir, rel), 'utf8')) as T;

/** The route mix, from what the site publishes: its ordinals and ids, its oldest version, its translated strings. */
function routeKinds(dir: string): RouteKind[] {
  const ordinals = listableOrdinals(dir);
  const ids = readJson<{ result: { id: number }[] }>(dir, 'api/v1/list/card_t.json').result.map((entry) => entry.id);
  const lists = (pool: number[], count: number) => [3, 4, 5].map((seed) => randomOrdinals(pool, count + seed).slice(seed).join(','));
  const { versions } = readJson<{ versions: { truth_version: string }[] }>(dir, 'api/v1/versions.json');
  const oldest = encodeURIComponent(versions[0].truth_version);
  const strings = Object.keys(readJson<Record<string, string>>(dir, 'api/v1/tl/0.json')).slice(0, 900);
  const readTl = JSON.stringify([...strings, ...Array.from({ length: 100 }, (_, i) => `not translated ${i}`)]);
  const get = (...urls: string[]) => urls.map((url) => ({ url }));
  // An hour into the newest event, so the answer has something in it.
  const during = readJson<{ events: { start_date: number }[] }>(dir, 'api/v1/happening.json').events[0].start_date + 3600;
  return [
    { name: 'card, one id with ?stubs=yes', requests: get(`/api/v1/card/${ordinals[Math.floor(ordinals.length / 2)]}.json?stubs=yes`) },
    { name: 'card, 100-id comma list', requests: get(...lists(ordinals, 100).map((list) => `/api/v1/card/${list}.json`)) },
    { name: 'card, 1,000-id comma list', requests: get(...lists(ordinals, 1000).map((list) => `/api/v1/card/${list}.json`)) },
    { name: 'card_t, 100-id comma list', requests: get(...lists(ids, 100).map((list) => `/api/v1/card_t/${list}`)) },
    { name: 'card_t, 1,000-id comma list', requests: get(...lists(ids, 1000).map((list) => `/api/v1/card_t/${list}`)) },
    { name: 'search, simple (rarity:ur)', requests: get('/api/v1/search/card?q=rarity%3Aur') },
    {
      name: 'search, costly (words, or, negation, order=random)',
      requests: get(`/api/v1/search/card?q=${encodeURIComponent('a -(group:1 or group:2) (smile>=3000 or pure>=3000 or skill:score)')}&order=random`),
    },
    // Queries made to cost, as long as a query may be: words that match nothing, and as many negated (a suggestion is tried for the first).
    { name: `search, ${MAX_TERMS} words matching nothing`, requests: get(`/api/v1/search/card?q=${encodeURIComponent(Array.from({ length: MAX_TERMS }, (_, i) => `zq${i}x`).join(' '))}`) },
    { name: `search, ${MAX_TERMS} negated words`, requests: get(`/api/v1/search/card?q=${encodeURIComponent(Array.from({ length: MAX_TERMS }, (_, i) => `-zq${i}x`).join(' '))}`) },
    { name: 'card/random.json?q=rarity:ssr', requests: get('/api/v1/card/random.json?q=rarity%3Assr') },
    { name: `?version= (oldest of ${versions.length}), one card`, requests: get(`/api/v1/card/${ordinals[0]}.json?version=${oldest}`) },
    { name: `?version= (oldest of ${versions.length}), ${MAX_VERSION_IDS}-id list`, requests: get(...lists(ordinals, MAX_VERSION_IDS).map((list) => `/api/v1/card/${list}.json?version=${oldest}`)) },
    { name: 'happening during an event', requests: get(`/api/v1/happening/${during}`) },
    { name: `read_tl, ${strings.length + 100} strings`, requests: [{ url: '/api/v1/read_tl', method: 'POST', body: readTl }] },
    { name: 'card_list.json with ?keys=&datetime=', requests: get('/api/v1/card_list.json?keys=id,ordinal,rarity&datetime=iso8601') },
  ];
}

/** One instance's figures of a kind: its cold request and the median of the warm ones. */
interface InstanceFigures {
  cold: Answer;
  warmMs: number;
  warmReads: number;
  warmReadBytes: number;
  warmReadMs: number;
}

/** The requests of `kind` in a fresh instance: the first cold, then WARM_RUNS more in turn. */
async function measureInstance(dir: string, kind: RouteKind): Promise<InstanceFigures> {
  const requests = Array.from({ length: WARM_RUNS + 1 }, (_, i) => kind.requests[i % kind.requests.length]);
  const { answers } = await inInstance(dir, requests);
  const [cold, ...warm] = answers;
  const warmMedian = (pick: (a: Answer) => number) => median(warm.map(pick));
  return { cold, warmMs: warmMedian((a) => a.cpuMs), warmReads: warmMedian((a) => a.reads), warmReadBytes: warmMedian((a) => a.readBytes), warmReadMs: warmMedian((a) => a.readMs) };
}

const range = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];

/** A kind's figures over its instances: medians, and the cold request's reads as the median instance made them. */
function kindFigures(name: string, instances: InstanceFigures[]): KindFigures {
  const colds = instances.map((i) => i.cold.cpuMs);
  const warms = instances.map((i) => i.warmMs);
  const coldMs = median(colds);
  const { cold, warmReads, warmReadBytes, warmReadMs } = instances.find((i) => i.cold.cpuMs === coldMs)!;
  return {
    name, coldMs, warmMs: median(warms), coldRange: range(colds), warmRange: range(warms), bytes: cold.bytes,
    coldReads: cold.reads, coldReadBytes: cold.readBytes, coldReadMs: cold.readMs, warmReads, warmReadBytes, warmReadMs,
  };
}

export async function edgeCpuBench(dir: string): Promise<EdgeCpuResult> {
  const kinds = routeKinds(dir);
  const instances: InstanceFigures[][] = kinds.map(() => []);
  for (let round = 0; round < INSTANCES; round++) {
    for (const [i, kind] of kinds.entries()) instances[i].push(await measureInstance(dir, kind));
  }
  const figures = kinds.map((kind, i) => kindFigures(kind.name, instances[i]));
  const { heap } = await inInstance(dir, kinds.map((kind) => kind.requests[0]));
  const { versions } = readJson<{ versions: unknown[] }>(dir, 'api/v1/versions.json');
  return {
    cards: publishedOrdinals(dir).length, versions: versions.length, kinds: figures,
    heapMb: heap.used / 2 ** 20, externalMb: heap.external / 2 ** 20,
  };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
const over = (value: number, max: number) => (value > max ? ' OVER' : '');
const spread = ([least, most]: [number, number]) => `(${least.toFixed(1)}-${most.toFixed(1)})`.padEnd(13);

/** One line per route kind, then the summary line against the budget. */
export function formatEdgeCpu(r: EdgeCpuResult): string[] {
  const width = Math.max(...r.kinds.map((k) => k.name.length));
  const lines = r.kinds.map((k) =>
    `edge cpu ${k.name.padEnd(width)}  cold ${k.coldMs.toFixed(1).padStart(6)} ms${over(k.coldMs, BUDGET.coldMs).padEnd(5)} ${spread(k.coldRange)}` +
    `  warm ${k.warmMs.toFixed(1).padStart(6)} ms${over(k.warmMs, BUDGET.warmMs).padEnd(5)} ${spread(k.warmRange)}  answer ${(k.bytes / 1024).toFixed(1)} KB, read cold ${k.coldReads} files ${mib(k.coldReadBytes)} in ${k.coldReadMs.toFixed(1)} ms, warm ${k.warmReads} ${mib(k.warmReadBytes)} in ${k.warmReadMs.toFixed(1)} ms`);
  const worst = (pick: (k: KindFigures) => number) => r.kinds.reduce((a, b) => (pick(b) > pick(a) ? b : a));
  const [cold, warm, reads] = [worst((k) => k.coldMs), worst((k) => k.warmMs), worst((k) => k.coldReads)];
  const coldOver = r.kinds.filter((k) => k.coldMs > BUDGET.coldMs).length;
  const warmOver = r.kinds.filter((k) => k.warmMs > BUDGET.warmMs).length;
  lines.push(
    `edge cpu (${r.cards} cards, ${r.versions} versions, _worker.js in ${INSTANCES} fresh isolates per kind, medians): ` +
    `worst cold ${cold.coldMs.toFixed(1)} of ${BUDGET.coldMs} ms (${cold.name}), ${coldOver} of ${r.kinds.length} kinds over; ` +
    `worst warm ${warm.warmMs.toFixed(1)} of ${BUDGET.warmMs} ms (${warm.name}), ${warmOver} over; ` +
    `heap after the whole mix ${r.heapMb.toFixed(1)} of ${BUDGET.heapMb} MB (+${r.externalMb.toFixed(1)} MB outside it); ` +
    `most files read ${reads.coldReads} of ${MAX_READS} (${reads.name})`,
  );
  return lines;
}

/** The bench's 4,000-card export (one version) built into `dir`/public. */
async function benchSite(dir: string): Promise<string> {
  const [input, out] = [path.join(dir, 'input'), path.join(dir, 'public')];
  await writeSampleExport(input, { cards: 4000, accessories: 600, format: 'sqlite', images: false });
  await build({ input, out, plan: UNCHECKED_PLAN });
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [given] = process.argv.slice(2);
  const work = given ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'sif-edge-cpu-'));
  try {
    const dir = given ?? (await benchSite(work!));
    for (const line of formatEdgeCpu(await edgeCpuBench(dir))) console.log(line);
  } finally {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }
}
