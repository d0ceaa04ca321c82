/**
 * Load on `npm start`: the local server in its own process (as `npm start` runs it), asked
 * by `concurrency` clients at once, each sending 1,000-id card lists back to back for
 * `seconds`. Reports the latency percentiles of complete answers, the statuses, and the
 * server's peak resident memory (VmHWM: the kernel's high-water mark of the process).
 *
 * `npx tsx bench/load.ts <published folder> [concurrency] [seconds]` runs it on its own.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { peakRssMb, startServerProcess } from '../test/serverProcess.ts';
import { packOf } from '../generator/contract/format.ts';
import { MAX_READS } from '../generator/contract/limits.ts';

export interface LoadResult {
  concurrency: number;
  seconds: number;
  requests: number;
  statuses: Record<number, number>;
  p50: number;
  p99: number;
  peakRssMb: number;
}

/** One GET with the body read and dropped: its status and milliseconds to the last byte. */
export function timedGet(url: URL, agent: http.Agent): Promise<{ status: number; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    http.get(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, ms: performance.now() - start }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** The card ordinals a site publishes (its card list). */
export function publishedOrdinals(dir: string): number[] {
  const list = JSON.parse(fs.readFileSync(path.join(dir, 'api/v1/card_list.json'), 'utf8')) as { stubs: { ordinal: number }[] };
  return list.stubs.map((stub) => stub.ordinal);
}

/**
 * The ordinals a comma list may name at any scale: those of the first MAX_READS blocks. A list
 * reads a pack per block it touches and a request at most MAX_READS files (docs/limits.md), so on
 * a site of more than MAX_READS x PACK_SIZE ordinals (the bench's 20,000 cards; a real export's
 * stop near 4,000) a list spread over all of them is refused with a 400, as the API means to.
 */
export const listableOrdinals = (dir: string): number[] => publishedOrdinals(dir).filter((ordinal) => packOf(ordinal) < MAX_READS);

/** `count` ordinals spread over the site, a different rotation per client, so clients do not all ask for one list. */
function listFor(ordinals: number[], count: number, client: number): number[] {
  const step = Math.max(1, Math.floor(ordinals.length / count));
  return Array.from({ length: Math.min(count, ordinals.length) }, (_, i) => ordinals[(i * step + client * 7) % ordinals.length]);
}

/** The goal: 50 clients for 20 s, p50 under 1 s, peak memory under 400 MB. */
export async function loadTest(dir: string, options = { concurrency: 50, seconds: 20, ids: 1000 }): Promise<LoadResult> {
  const ordinals = listableOrdinals(dir);
  const { url, child } = await startServerProcess(dir);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const times: number[] = [];
  const statuses: Record<number, number> = {};
  const until = performance.now() + options.seconds * 1000;
  try {
    await Promise.all(Array.from({ length: options.concurrency }, async (_, client) => {
      const target = new URL(`api/v1/card/${listFor(ordinals, options.ids, client).join(',')}.json`, url);
      while (performance.now() < until) {
        // A keep-alive connection the server closed as the client reused it counts as status 0, not as the end of the run.
        const { status, ms } = await timedGet(target, agent).catch(() => ({ status: 0, ms: NaN }));
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === 200) times.push(ms);
      }
    }));
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))] ?? NaN;
    return { ...options, requests: Object.values(statuses).reduce((a, b) => a + b, 0), statuses, p50: at(0.5), p99: at(0.99), peakRssMb: peakRssMb(child.pid!) };
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
  }
}

export const formatLoad = (r: LoadResult) =>
  `load (npm start): ${r.concurrency} clients x ${r.seconds} s of 1000-id card lists: ${r.requests} requests ` +
  `(${Object.entries(r.statuses).map(([s, n]) => `${s}: ${n}`).join(', ')}), p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, ` +
  `server peak rss ${r.peakRssMb.toFixed(0)} MB`;

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [dir, concurrency = '50', seconds = '20'] = process.argv.slice(2);
  console.log(formatLoad(await loadTest(dir, { concurrency: Number(concurrency), seconds: Number(seconds), ids: 1000 })));
}
