/**
 * Search at the edge as it runs in production: the Netlify edge function under Deno, each read
 * an HTTP fetch from a local static host that holds every response back `latencyMs` (a CDN
 * round trip), answering the documented card examples (generator/web/search/examples.js) with
 * 100 results a page. Reports the p50 and p95 over every timed request, the most files one
 * request read (the index, then the page's objects: a few single files or the packs the page
 * touches, which an instance keeps once read), and the very first request (cold: the edge has
 * read nothing yet).
 *
 * `npx tsx bench/search.ts <published folder>` runs it on its own.
 */
import { fileURLToPath } from 'node:url';
import { denoEdge } from '../test/hosts.ts';
import { EXAMPLES, exampleUrl } from '../generator/web/search/examples.js';

export interface SearchResult {
  queries: number;
  requests: number;
  p50: number;
  p95: number;
  reads: number;
  cold: number;
}

/** Timed requests per query, after one to warm up. */
const REPEATS = 7;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

export async function searchBench(dir: string, latencyMs = 20): Promise<SearchResult> {
  const host = await denoEdge(dir, latencyMs);
  try {
    const paths = EXAMPLES.filter((e) => e.kind === 'card').map((e) => `/api/v1/${exampleUrl(e)}&page_size=100`);
    const times: number[] = [];
    let reads = 0;
    let cold = 0;
    for (const path of paths) {
      for (let i = 0; i <= REPEATS; i++) {
        const before = host.staticRequests();
        const start = performance.now();
        const response = await host.fetch(path);
        await response.text();
        if (response.status !== 200) throw new Error(`${path}: the edge under Deno answered ${response.status}`);
        if (i) times.push(performance.now() - start);
        else cold ||= performance.now() - start;
        reads = Math.max(reads, host.staticRequests() - before);
      }
    }
    return { queries: paths.length, requests: times.length, p50: percentile(times, 0.5), p95: percentile(times, 0.95), reads, cold };
  } finally {
    await host.close();
  }
}

export const formatSearch = (r: SearchResult) =>
  `search (Deno edge, 20 ms reads): ${r.queries} queries x ${REPEATS}, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, at most ${r.reads} reads; first request (cold) ${r.cold.toFixed(1)} ms`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: npx tsx bench/search.ts <published folder>');
  console.log(formatSearch(await searchBench(dir)));
}
