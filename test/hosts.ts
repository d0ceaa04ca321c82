/**
 * The hosts the route suite runs against, each started on a published folder and stopped
 * again, all answering `fetch(path, init)` with a Web Response (`path` from the site root):
 * - node handler: generator/runtime/edge/handler.ts in Netlify's chain (hosts/netlify/runtime/netlifyChain.ts) called in-process with the disk reader, and the
 *   static layer (netlifyStatic) for what it passes through;
 * - npm start: the local server, its own process, over HTTP;
 * - deno edge: generator/hosts/netlify/runtime/edge-functions/api.ts under Deno in front of the static layer over
 *   HTTP, chained as on Netlify (test/denoEdge.ts);
 * - workerd: the folder as a Cloudflare Worker with static assets serves it (wrangler.json),
 *   `_worker.js` and all, under Miniflare (workerd, offline) configured as `wrangler dev` would.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'fs-extra';
import { Miniflare } from 'miniflare';
import { tempDir } from './tempDirs.ts';
import { netlifyEdge } from '../generator/hosts/netlify/runtime/netlifyChain.ts';
import { edgeKept } from '../generator/runtime/edge/kept.ts';
import { diskBytesReader, diskReader } from '../generator/hosts/node/runtime/diskSite.ts';
import { netlifyStatic, serveHttp } from './netlifyStatic.ts';
import { startProcess, startServerProcess } from './serverProcess.ts';
import { httpClient } from './httpClient.ts';
import { PAGES_COMPATIBILITY_DATE } from '../generator/hosts/cloudflare/build/siteFiles.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Host {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
  /** What the host's process printed so far (hosts that are a process). */
  output?(): string;
}

export type HostName = 'node handler' | 'npm start' | 'deno edge' | 'workerd';

const overHttp = (url: URL, stop: () => Promise<void>): Host => {
  const client = httpClient(url);
  return {
    fetch: client.fetch,
    close: async () => {
      client.close();
      await stop();
    },
  };
};

async function nodeHandler(dir: string): Promise<Host> {
  const staticLayer = await netlifyStatic(dir);
  // Keeps long parses between requests, as npm start does.
  const site = { read: diskReader(dir), readBytes: diskBytesReader(dir), kept: edgeKept() };
  return {
    fetch: async (path, init) => {
      const request = new Request(new URL(path, 'http://sif.test/'), init);
      const response = (await netlifyEdge(request, site, () => staticLayer(request))) ?? (await staticLayer(request));
      // As over HTTP: an answer to HEAD has no body.
      return request.method === 'HEAD' ? new Response(null, response) : response;
    },
    close: async () => {},
  };
}

/** The local server in its own process: `npm start` itself, or (`viaNpm` false) its bundle under node, the same server without npm and tsx starting it. */
async function localServer(dir: string, viaNpm = true): Promise<Host> {
  const { url, stop, output } = await startServerProcess(dir, [], { viaNpm });
  return { ...overHttp(url, stop), output };
}

/** The Deno binary the `deno` npm package ships (its installer links it, once, beside its bin script). */
const denoBinary = (): string => createRequire(import.meta.url)('deno/install_api.cjs').runInstall();

/**
 * The edge function under Deno in front of the static layer of `dir` over HTTP; every response
 * of the static layer (so every read of the function) is held back `latencyMs`, and counted.
 */
export async function denoEdge(dir: string, latencyMs = 0): Promise<Host & { staticRequests(): number; runs(): Promise<number> }> {
  const staticLayer = await netlifyStatic(dir);
  let staticRequests = 0;
  const staticHost = await serveHttp((request) => (staticRequests++, staticLayer(request)), latencyMs);
  const args = ['run', '--no-config', '--no-remote', '--no-npm', '--no-prompt', '--allow-net=127.0.0.1', 'test/denoEdge.ts', staticHost.url];
  // Deno's module cache beside the build's (git-ignored, never in the temporary folder); no update check.
  const edge = await startProcess(denoBinary(), args, { env: { DENO_DIR: `${ROOT}.cache/deno`, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' } })
    .catch(async (error) => {
      await staticHost.close();
      throw error;
    });
  const host = overHttp(edge.url, async () => {
    await edge.stop();
    await staticHost.close();
  });
  return { ...host, staticRequests: () => staticRequests, runs: async () => Number(await (await host.fetch('/__function_runs')).text()) };
}

/** The repository's Cloudflare Worker configuration (a Worker with static assets, docs/hosts.md). */
export const WORKER_CONFIG = fs.readJsonSync(path.join(ROOT, 'wrangler.json')) as {
  name: string;
  compatibility_date: string;
  compatibility_flags?: string[];
  main: string;
  assets: {
    directory: string;
    binding: string;
    html_handling?: 'auto-trailing-slash' | 'force-trailing-slash' | 'drop-trailing-slash' | 'none';
    not_found_handling?: 'single-page-application' | '404-page' | 'none';
    run_worker_first?: boolean | string[];
  };
};

/** wrangler.json's `run_worker_first` as wrangler hands it to Miniflare's router: `true` or `false`, or path rules (`!/` ones serve assets). */
function routerConfig(runWorkerFirst: boolean | string[] | undefined) {
  if (!Array.isArray(runWorkerFirst)) return { has_user_worker: true, invoke_user_worker_ahead_of_assets: runWorkerFirst };
  const assetFirst = runWorkerFirst.filter((rule) => rule.startsWith('!/'));
  return {
    has_user_worker: true,
    static_routing: { user_worker: runWorkerFirst.filter((rule) => !assetFirst.includes(rule)), asset_worker: assetFirst.map((rule) => rule.slice(1)) },
  };
}

/**
 * The folder `dir` as a Cloudflare Worker with static assets serves it, under Miniflare (workerd,
 * offline) configured as `wrangler dev` configures it from the repository's wrangler.json with
 * the assets directory pointed at `dir` (Miniflare itself reads the folder's `.assetsignore`,
 * `_redirects` and `_headers`, as in `wrangler dev`): a file at the path is served without
 * running the worker, any other request runs `_worker.js`, behind a wrapper that counts its runs
 * and its reads through the assets binding, each read held back `readLatencyMs`. Nothing is
 * written: the wrapper is handed to Miniflare as a module's text.
 */
export async function workerdAssets(dir: string, readLatencyMs = 0): Promise<Host & { reads(): Promise<number>; runs(): Promise<number> }> {
  const root = path.resolve(dir);
  const { assets } = WORKER_CONFIG;
  const worker = withTmpdir(await tempDir('sif-miniflare-'), () => new Miniflare({
    host: '127.0.0.1',
    port: 0,
    name: WORKER_CONFIG.name,
    compatibilityDate: WORKER_CONFIG.compatibility_date,
    compatibilityFlags: WORKER_CONFIG.compatibility_flags,
    modulesRoot: root,
    modules: [
      { type: 'ESModule', path: path.join(root, '__countingWorker.js'), contents: countingWorker(`./${path.basename(WORKER_CONFIG.main)}`, readLatencyMs) },
      { type: 'ESModule', path: path.join(root, path.basename(WORKER_CONFIG.main)) },
    ],
    assets: {
      directory: root,
      binding: assets.binding,
      routerConfig: routerConfig(assets.run_worker_first),
      assetConfig: { html_handling: assets.html_handling, not_found_handling: assets.not_found_handling },
    },
  }));
  const url = await worker.ready;
  const host = overHttp(url, () => worker.dispose());
  const count = async (what: string) => Number(await (await host.fetch(`/api/__${what}`)).text());
  return { ...host, reads: () => count('reads'), runs: () => count('runs') };
}

/**
 * The folder `dir` as Cloudflare Pages serves it, under `wrangler pages dev` (workerd, offline)
 * with the pinned compatibility date: `_routes.json` sends the worker its paths, the assets
 * binding is Pages' own. wrangler's state, logs and temporary files go to a temporary folder.
 */
export async function workerdPages(dir: string): Promise<Host> {
  const work = await tempDir('sif-pages-');
  const args = ['pages', 'dev', path.resolve(dir), '--ip', '127.0.0.1', '--port', '0', '--inspector-port', '0',
    '--compatibility-date', PAGES_COMPATIBILITY_DATE, '--persist-to', path.join(work, 'state'), '--log-level', 'info'];
  // TMPDIR: its Miniflare's state folder in the test's own, removed with it (see withTmpdir).
  const env = { WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: path.join(work, 'logs'), NO_COLOR: '1', CI: '1', TMPDIR: work };
  const { url, stop } = await startProcess(path.join(ROOT, 'node_modules/.bin/wrangler'), args, { env, cwd: work });
  return overHttp(url, stop);
}

/**
 * `make()` with os.tmpdir() at `dir` while it runs (synchronously, so nothing else sees it).
 * Miniflare keeps its state in a folder under os.tmpdir() that its dispose() removes without
 * waiting (its cache's SQLite files can still be held open then): a worker ending right after a
 * host closed left it behind. Made in a test's own temporary folder, the file's cleanup removes it.
 */
function withTmpdir<T>(dir: string, make: () => T): T {
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return make();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

/** The site's `_worker.js` behind a wrapper answering GET /api/__runs (its runs, uncounted) and /api/__reads (its reads). */
const countingWorker = (worker: string, latencyMs: number) => `
import site from ${JSON.stringify(worker)};
let [runs, reads] = [0, 0];
const held = () => new Promise((done) => setTimeout(done, ${latencyMs}));
export default {
  async fetch(request, env, context) {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/__runs') return new Response(String(runs));
    if (pathname === '/api/__reads') return new Response(String(reads));
    runs++;
    const ASSETS = { fetch: async (file) => (reads++, await held(), env.ASSETS.fetch(file)) };
    return site.fetch(request, { ...env, ASSETS }, context);
  },
};
`;

export const HOSTS: Record<HostName, (dir: string) => Promise<Host>> = {
  'node handler': nodeHandler,
  'npm start': (dir) => localServer(dir),
  'deno edge': (dir) => denoEdge(dir),
  workerd: (dir) => workerdAssets(dir),
};

/**
 * The hosts on a copy of the site a test changed: the local server as its bundle, the same server
 * and process as `npm start` runs, without npm and tsx loading it again (about 1.5 s of CPU); the
 * npm script itself is the subject of the hosts on the shared site.
 */
export const HOSTS_ON_A_COPY: Record<HostName, (dir: string) => Promise<Host>> = { ...HOSTS, 'npm start': (dir) => localServer(dir, false) };
