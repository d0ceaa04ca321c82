/**
 * One route suite, four hosts: the same requests against the edge handler in Node, `npm start`,
 * the Netlify edge function under Deno in front of a static host that applies the site's own
 * `_redirects` and `_headers`, and the site as Cloudflare Pages serves it under workerd
 * (test/hosts.ts). What a client sees must not depend on the host. Each host is started once
 * for the whole file.
 * - "every declared route": requests derived from the endpoint declarations (one published
 *   file of each endpoint, its route, its comma list and query variants, a missing one; an
 *   example for each edge-only route) answer the same status, headers and bytes everywhere.
 * - "on <host>": what each answer must be, checked on every host.
 */
import fs from 'fs-extra';
import fg from 'fast-glob';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSample, copyTree, packedObject, readJson, tempDir } from '../helpers.ts';
import { EXAMPLES, exampleUrl } from '../../generator/web/search/examples.js';
import { HOSTS, HOSTS_ON_A_COPY, WORKER_CONFIG, workerdPages, type Host, type HostName } from '../hosts.ts';
import { serveStatic } from '../staticServer.ts';
import { compiled } from '../bin.ts';
import { EDGE_PATH, NETLIFY_OTHER_METHODS, STATIC_HEADERS, STATIC_RULES, netlifyExcludedPaths, pagesRoutes } from '../../generator/contract/hostRouting.ts';
import { rawFileType } from '../../generator/runtime/edge/routes.ts';
import { RAN_CODE_HEADER } from '../../generator/runtime/edge/http.ts';
import { previewConfig } from '../../generator/hosts/cloudflare/build/workerPreview.ts';
import { OBJECT_TYPE_NAMES, allEndpoints, endpointOfFile, endpoints, objectEndpoint, type Endpoint, type ObjectType, type QueryParameter } from '../../generator/contract/endpoints.ts';
import { PAGES_COMPATIBILITY_DATE } from '../../generator/hosts/cloudflare/build/siteFiles.ts';
import { config as edgeConfig } from '../../generator/hosts/netlify/runtime/edge-functions/api.ts';
import { config as methodsConfig } from '../../generator/hosts/netlify/runtime/edge-functions/methods.ts';
import type { BulkIndexJson, CardJson, HappeningJson, ObjectListJson } from '../../generator/contract/schemas.ts';
import { KEY_PACK_SIZE } from '../../generator/contract/format.ts';
import { MAX_READS, MAX_VERSION_IDS } from '../../generator/contract/limits.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const JSON_TYPE = 'application/json; charset=utf-8';
const REVALIDATE = 'public, max-age=0, must-revalidate';
const HOST_NAMES = Object.keys(HOSTS) as HostName[];
/** What every host must answer alike (besides status and body). */
const COMPARED_HEADERS = ['content-type', 'access-control-allow-origin', 'cache-control', 'etag', 'allow'];
/** Requests the route comparison keeps in flight at once. */
const PARALLEL_REQUESTS = 8;

let out: string;
const hosts = {} as Record<HostName, Host>;
/** `wrangler pages dev` for its one test, started once the hosts are up: its seconds of start-up overlap the tests before it. */
let pages: Promise<Host> | undefined;
beforeAll(async () => {
  ({ out } = await buildSample());
  const started = await Promise.allSettled(HOST_NAMES.map(async (name) => (hosts[name] = await HOSTS[name](out))));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  pages = workerdPages(out);
  pages.catch(() => {}); // its test reports a failed start
});
afterAll(() => Promise.all([...Object.values(hosts).map((host) => host.close()), pages?.then((host) => host.close(), () => {})]));

/** Requests of the edge-only routes (no published file to derive them from), by route. */
const EDGE_EXAMPLES: Record<string, { path: string; init?: RequestInit }[]> = {
  '/api/v1/card/random.json': [
    { path: '/api/v1/card/random.json?keys=nothing' },
    { path: '/api/v1/card/random.json?q=rarity:ur&keys=rarity' },
    { path: '/api/v1/card/random.json?q=rarity:' },
  ],
  // The documented search examples (not the random orders, which differ per request), and a malformed query.
  ...Object.fromEntries((['card', 'accessory', 'event', 'song'] as const).map((kind) => [`/api/v1/search/${kind}`, [
    ...EXAMPLES.filter((e) => e.kind === kind && e.order !== 'random').map((e) => ({ path: `/api/v1/${exampleUrl(e)}` })),
    { path: `/api/v1/search/${kind}?q=(&stubs=yes` },
  ]])),
  '/api/v1/happening/{time}': [
    { path: `/api/v1/happening/${Date.parse('2019-04-25T00:00:00Z') / 1000}` },
    { path: `/api/v1/happening/${Date.parse('2019-04-25T00:00:00Z') / 1000}?datetime=iso8601&extended_time_period_for_events=yes` },
    { path: '/api/v1/happening/soon' },
  ],
  '/api/v1/bulk/{kind}.jsonl': [{ path: '/api/v1/bulk/cards.jsonl' }, { path: '/api/v1/bulk/char_t.jsonl?keys=id' }, { path: '/api/v1/bulk/nothing.jsonl' }],
  '/api/v1/bulk/sif.sqlite': [{ path: '/api/v1/bulk/sif.sqlite' }],
  // A chart's notes (from its pack), a leading zero, query parameters, the sample's version, a chart without notes, a list.
  '/api/v1/notes/{live_setting_id}.json': [
    { path: '/api/v1/notes/11.json' }, { path: '/api/v1/notes/011.json' }, { path: '/api/v1/notes/11.json?keys=position,EFFECT' },
    { path: '/api/v1/notes/11.json?version=sample-2026.11' }, { path: '/api/v1/notes/11.json?version=none' },
    { path: '/api/v1/notes/12.json' }, { path: '/api/v1/notes/11,21.json' },
  ],
  // Histories published once, under the card's ordinal and the accessory's id: a card, a leading zero, a missing id, a query.
  '/api/v1/history/card_t/{id}.json': [
    { path: '/api/v1/history/card_t/1003.json' }, { path: '/api/v1/history/card_t/01003.json' }, { path: '/api/v1/history/card_t/999999999.json' },
    { path: '/api/v1/history/card_t/x.json' }, { path: '/api/v1/history/card_t/1003.json?keys=id' },
  ],
  '/api/v1/history/accessory_t/{id}.json': [{ path: '/api/v1/history/accessory_t/1.json' }, { path: '/api/v1/history/accessory_t/999999999.json' }],
  '/api/v1/read_tl': [
    { path: '/api/v1/read_tl', init: { method: 'POST', body: JSON.stringify(['はじまりの朝', 'nothing']) } },
    { path: '/api/v1/read_tl', init: { method: 'POST', body: '{' } },
    { path: '/api/v1/read_tl' },
  ],
};

/** The parameter values of a published file of `endpoint`, in its route's order. */
function fileParams(endpoint: Endpoint, rel: string): string[] {
  const template = endpoint.file!(...(endpoint.route.match(/\{\w+\}/g) ?? []).map(() => '\0'));
  const pattern = template.split('\0').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('([^/]+)');
  return new RegExp(`^${pattern}$`).exec(rel)!.slice(1);
}

const fillRoute = (endpoint: Endpoint, values: string[]) => {
  let i = 0;
  return endpoint.route.replace(/\{\w+\}/g, () => values[i++]);
};

/** The published files of each endpoint, by name. */
async function publishedFiles(): Promise<Map<Endpoint, string[]>> {
  const published = new Map<Endpoint, string[]>();
  for (const rel of (await fg('api/**', { cwd: out })).sort()) {
    const endpoint = endpointOfFile(rel);
    if (endpoint) published.set(endpoint, [...(published.get(endpoint) ?? []), rel]);
  }
  return published;
}

/**
 * The query strings a static route is asked with: each shaping parameter it declares, or, when
 * it declares none, one it does not take (every host must ignore it alike).
 */
function queryVariants(endpoint: Endpoint): string[] {
  const takes = (name: QueryParameter) => endpoint.query.includes(name);
  if (!takes('keys') && !takes('stubs') && !takes('datetime')) return ['keys=id,ordinal'];
  return [
    ...(takes('keys') ? ['keys=id,ordinal', 'keys='] : []),
    ...(takes('stubs') || takes('datetime') ? ['stubs=yes&datetime=iso8601'] : []),
  ];
}

/**
 * Requests of every declared route: for each endpoint with published files, the first two files
 * (by name) give its file URL, its route URL, a comma list of both (id-list routes), its query
 * variants and a missing one; edge-only routes take their EDGE_EXAMPLES.
 */
async function declaredRequests(): Promise<{ path: string; init?: RequestInit }[]> {
  const published = await publishedFiles();
  const { truth_version: truthVersion } = await fs.readJson(path.join(out, endpoints.info.file()));
  return allEndpoints().flatMap((endpoint) => {
    const files = published.get(endpoint);
    const type = OBJECT_TYPE_NAMES.find((t) => objectEndpoint[t].object === endpoint);
    if (type) return genericRequests(type, truthVersion);
    if (endpoint.host === 'edge') {
      expect(EDGE_EXAMPLES[endpoint.route], `${endpoint.route}: an edge route; give it an example in EDGE_EXAMPLES`).toBeDefined();
      return EDGE_EXAMPLES[endpoint.route];
    }
    // A static route the sample does not publish (changes.json before any update): a 404 alike everywhere.
    if (!files) return [{ path: fillRoute(endpoint, endpoint.parameters.map(() => '1')) }];
    const [first, second = first] = files.map((rel) => fileParams(endpoint, rel));
    const route = fillRoute(endpoint, first);
    const isList = endpoint.parameters.some((p) => ['ids', 'ordinals'].includes(p.name));
    // Object routes answer as an earlier version too (rebuilt from the history), and refuse an unknown one.
    const versions = endpoint.query.includes('version') ? [`version=${encodeURIComponent(truthVersion)}`, 'version=none'] : [];
    const paths = [
      `/${files[0]}`, route, ...[...queryVariants(endpoint), ...versions].map((query) => asked(endpoint, route, query)),
      ...(isList ? [fillRoute(endpoint, [`${second},${first},`]), fillRoute(endpoint, [`0${first}`])] : []),
      ...(first.length ? [fillRoute(endpoint, first.map(() => '999999999')), `/${files[0].replace(/\.json$/, '.JSON')}`] : []),
    ];
    return [...new Set(paths)].map((p) => ({ path: p }));
  });
}

/** A generic type's object route (answered by the edge from packs): its first two ids alone, .json, as a list, with queries, versions and a missing id. */
function genericRequests(type: ObjectType, truthVersion: string): { path: string }[] {
  const ids = (fs.readJsonSync(path.join(out, objectEndpoint[type].list.file())) as ObjectListJson).result.map((entry) => entry.id);
  expect(ids.length, `the sample publishes ${type} objects`).toBeGreaterThan(0);
  const [first, second = first] = ids.map(String);
  const route = `/api/v1/${type}/${first}`;
  const queries = ['keys=id,ordinal', 'keys=', 'stubs=yes&datetime=iso8601', `version=${encodeURIComponent(truthVersion)}`, 'version=none'];
  return [route, `${route}.json`, `/api/v1/${type}/${second},${first},`, `/api/v1/${type}/0${first}`, `/api/v1/${type}/999999999`, ...queries.map((q) => `${route}?${q}`)]
    .map((p) => ({ path: p }));
}

/**
 * A path asked with a query, in the form every host answers alike: where a file sits at the path
 * and the route takes query parameters, the query goes in the path (/api/v1;a=b/...), since a
 * host's static layer answers a query on a file's path with the plain file (see 'a query on a
 * published file' below).
 */
function asked(endpoint: Endpoint, route: string, query: string): string {
  const isFile = fs.existsSync(path.join(out, route.slice(1)));
  return isFile && endpoint.query.length ? `/api/v1;${query.split('&').join(';')}${route.slice('/api/v1'.length)}` : `${route}?${query}`;
}

describe('every declared route', () => {
  it('answers the same status, headers and body on every host, also to HEAD and If-None-Match', async () => {
    const requests = await declaredRequests();
    expect(requests.length).toBeGreaterThan(allEndpoints().length);
    const snapshot = async (name: HostName, p: string, init?: RequestInit) => {
      const response = await hosts[name].fetch(p, init);
      const headers = Object.fromEntries(COMPARED_HEADERS.map((header) => [header, response.headers.get(header)]));
      const etag = headers.etag;
      // A static file carries its host's own validator (Pages, like Netlify, makes its own): what agrees is that there is one.
      headers.etag = etag === null ? null : 'an ETag';
      // A 304 may repeat the media type or leave it out (RFC 9110 15.4.5): a Worker's static assets repeat it, the edge leaves it out.
      // A missing file of another format (a bulk part) has the JSON 404's body under its folder's media type where the host's
      // static layer answers it (Netlify: the 404 rule with the path's _headers).
      if (response.status === 304 || (response.status === 404 && rawFileType(p.split('?')[0]))) delete headers['content-type'];
      // Bytes, not text: the bulk files are not all text, and every host serves them byte for byte.
      return { etag, answer: { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') } };
    };
    /** Every host's answer to the same request (`init` may depend on the host), each like the first host's. */
    const alike = async (p: string, label: string, init: (name: HostName) => RequestInit | undefined) => {
      const answers = await Promise.all(HOST_NAMES.map((name) => snapshot(name, p, init(name))));
      answers.forEach(({ answer }, i) => expect(answer, `${HOST_NAMES[i]}: ${label} ${p}`).toEqual(answers[0].answer));
      return answers;
    };
    const check = async ({ path: p, init }: (typeof requests)[number]) => {
      const answers = await alike(p, '', () => init);
      const { status, headers } = answers[0].answer;
      const type = (status === 200 && rawFileType(p.split('?')[0])) || JSON_TYPE;
      if (status !== 204 && 'content-type' in headers) expect(headers['content-type'], p).toBe(type);
      expect(headers['access-control-allow-origin'], p).toBe('*');
      if (init?.method || status !== 200) return;
      await alike(p, 'HEAD', () => ({ method: 'HEAD' }));
      const etags = Object.fromEntries(HOST_NAMES.map((name, i) => [name, answers[i].etag]));
      if (headers.etag) await alike(p, 'If-None-Match', (name) => ({ headers: { 'if-none-match': etags[name]! } }));
    };
    // Several requests in flight at once: each host spends most of a request waiting, not computing.
    const queue = [...requests];
    await Promise.all(Array.from({ length: PARALLEL_REQUESTS }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await check(next);
    }));
  });
});

describe('reads of published files run no code on Netlify and Cloudflare', () => {
  /** The hosts whose routing decides per path whether code runs, with how many times it ran. */
  const counted = () => (['deno edge', 'workerd'] as const).map((name) => ({ name, runs: (hosts[name] as Host & { runs(): Promise<number> }).runs }));

  it('a plain GET of every kind of published file is served without running the function or worker', async () => {
    // Files that take a query on their own path (lists) run the edge on every host: the next test.
    const reads = [...(await publishedFiles())].filter(([endpoint]) => !endpoint.queryOnFile).flatMap(([, [rel]]) => [`/${rel}`, `/${rel.replace(/\.json$/, '')}`])
      .filter((p) => fs.existsSync(path.join(out, p.slice(1))));
    expect(reads.length).toBeGreaterThan(30);
    for (const { name, runs } of counted()) {
      const before = await runs();
      for (const p of reads) {
        const response = await hosts[name].fetch(p);
        expect(response.status, `${name} ${p}`).toBe(200);
        // What anyone can see with curl -I: no answer of code (docs/hosts.md).
        expect(response.headers.get(RAN_CODE_HEADER), `${name} ${p}`).toBeNull();
      }
      expect(await runs(), name).toBe(before);
    }
  });

  it('a query on a list\'s own path is answered on every host, never dropped; its plain read passes on to the file', async () => {
    const shaped = '/api/v1/list/card_t?keys=id,ordinal';
    const answers = await Promise.all(HOST_NAMES.map(async (name) => (await hosts[name].fetch(shaped)).json()));
    expect(answers[0].result.length).toBeGreaterThan(0);
    for (const entry of answers[0].result) expect(Object.keys(entry)).toEqual(['id', 'ordinal']);
    answers.forEach((answer, i) => expect(answer, HOST_NAMES[i]).toEqual(answers[0]));
    const file = fs.readFileSync(path.join(out, 'api/v1/list/card_t.json'));
    for (const { name, runs } of counted()) {
      const before = await runs();
      for (const p of ['/api/v1/list/card_t', '/api/v1/list/card_t.json', shaped]) {
        const response = await hosts[name].fetch(p);
        expect(response.headers.get(RAN_CODE_HEADER), `${name} ${p}`).toBe('1');
        if (p !== shaped) expect(Buffer.from(await response.arrayBuffer()).equals(file), `${name} ${p}`).toBe(true);
      }
      // Netlify's function reads the list by fetching it from its own site, a path it now runs for: one more run (docs/hosts.md),
      // unless the instance keeps the list from an earlier request (an immutable site's instance keeps what it parsed).
      const ran = (await runs()) - before;
      if (name === 'deno edge') expect([3, 4], name).toContain(ran);
      else expect(ran, name).toBe(3);
    }
  });

  it('what needs code runs it: comma lists, search, the bulk files\' own URLs, the query in the path', async () => {
    const coded = ['/api/v1/card/1,2.json', '/api/v1/card_t/1003', '/api/v1/search/card?q=ur', '/api/v1/bulk/cards.jsonl', '/api/v1;keys=id/card/1.json'];
    for (const { name, runs } of counted()) {
      const before = await runs();
      for (const p of coded) {
        const response = await hosts[name].fetch(p);
        expect(response.status, `${name} ${p}`).toBe(200);
        expect(response.headers.get(RAN_CODE_HEADER), `${name} ${p}`).toBe('1');
      }
      expect(await runs(), name).toBe(before + coded.length);
    }
    // npm start and the handler in-process mark the same answers.
    for (const name of HOST_NAMES) for (const p of coded) expect((await hosts[name].fetch(p)).headers.get(RAN_CODE_HEADER), `${name} ${p}`).toBe('1');
    expect(await (await hosts['deno edge'].fetch('/api/v1;keys=id/card/1.json')).json()).toEqual({ cards: [{ id: 1003 }] });
  });
});

describe('Cloudflare Pages (wrangler pages dev)', () => {
  it('answers a path below a file or an extensionless route with the JSON 404, never an error page with a stack', async () => {
    const host = await pages!;
    for (const p of ['/api/v1/info/x', '/api/v1/list/card_t/x', '/api/v1/card/1.json/x', '/api/v1/nothing']) {
      const response = await host.fetch(p);
      expect(response.status, p).toBe(404);
      expect(response.headers.get('content-type'), p).toBe(JSON_TYPE);
      expect(await response.json(), p).toEqual({ error: 'not found' });
    }
  }, 60_000);

  it('answers a missing file in a folder _routes.json keeps from the worker with the JSON 404 too (api/404.html)', async () => {
    const host = await pages!;
    const folders = pagesRoutes(EDGE_PATH).exclude.filter((glob) => glob.endsWith('/*')).map((glob) => glob.slice(0, -1));
    expect(folders.length).toBeGreaterThan(2);
    for (const folder of folders) {
      const p = `${folder}missing-file.json`;
      const response = await host.fetch(p);
      expect(response.status, p).toBe(404);
      expect(await response.json(), p).toEqual({ error: 'not found' });
    }
  }, 60_000);
});

describe('a damaged bulk file, on every host', () => {
  it('is a JSON 502 when its first part is damaged, and a broken connection when a later one is: never a short or wrong file', async () => {
    const copy = path.join(await tempDir(), 'damaged');
    copyTree(await fs.realpath(out), copy);
    const index: BulkIndexJson = await fs.readJson(path.join(copy, 'api/v1/bulk/index.json'));
    const parts = (name: string) => index.files.find((f) => f.name === name)!.parts!.map((part) => path.join(copy, part.path));
    await fs.rm(parts('cards.jsonl')[0]); // a missing part: a short 200 on the Worker, once
    const sqlite = parts('sif.sqlite');
    await fs.copyFile(sqlite[2], sqlite[1]); // the same size, other bytes: the whole file's ETag on a wrong file, once
    const damaged = await Promise.all(HOST_NAMES.map((name) => HOSTS_ON_A_COPY[name](copy)));
    try {
      for (const [i, host] of damaged.entries()) {
        const first = await host.fetch('/api/v1/bulk/cards.jsonl');
        expect([first.status, await first.json()], HOST_NAMES[i]).toEqual([502, { error: 'a published file this answer is made from is damaged; the site must be built and deployed again' }]);
        // The error status where the answer had not started (npm start reads a MiB before it sends), else a broken connection.
        const outcome = await host.fetch('/api/v1/bulk/sif.sqlite').then(
          async (response): Promise<string | number> => (response.status === 200 ? response.arrayBuffer().then(() => 'a whole 200', () => 'broken') : response.status),
          () => 'broken',
        );
        expect(outcome === 'broken' || outcome === 502, `${HOST_NAMES[i]}: ${outcome}`).toBe(true);
      }
    } finally {
      await Promise.all(damaged.map((host) => host.close()));
    }
  }, 60_000);
});

describe('a plain static host (no rules, no edge)', () => {
  it('serves every route that can be a file: static routes at their URL, lists and objects one id at its file', async () => {
    const site = await serveStatic(out);
    try {
      for (const [endpoint, [rel]] of await publishedFiles()) {
        const parameterized = endpoint.route.includes('{');
        const url = endpoint.host === 'static' || !parameterized ? fillRoute(endpoint, fileParams(endpoint, rel)) : `/${rel}`;
        const response = await fetch(new URL(url.slice(1), site.url));
        expect(response.status, url).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(fs.readFileSync(path.join(out, rel))), url).toBe(true);
      }
    } finally {
      await site.close();
    }
  });
});

/** Hosts whose own static layer answers a published file before any code of ours runs (their behavior, documented in docs/hosts.md). */
const CLOUDFLARE_ASSETS = new Set<HostName>(['workerd']);

describe.each(HOST_NAMES)('on %s', (name) => {
  let host: Host;
  beforeAll(() => {
    host = hosts[name];
  });

  /** A JSON answer with the headers every JSON response keeps. */
  async function answered(p: string, status: number, init?: RequestInit): Promise<Response> {
    const response = await host.fetch(p, init);
    expect(response.status, p).toBe(status);
    expect(response.headers.get('content-type'), p).toBe(JSON_TYPE);
    expect(response.headers.get('access-control-allow-origin'), p).toBe('*');
    return response;
  }
  const ok = async <T = any>(p: string, init?: RequestInit): Promise<T> => (await answered(p, 200, init)).json() as Promise<T>;
  const file = <T = any>(rel: string) => readJson<T>(out, rel);
  const objectIds = async (type: string) => (await file<ObjectListJson>(`api/v1/list/${type}.json`)).result.map((entry) => entry.id);

  /** A bulk file as its parts on disk make it, in bulk/index.json's order. */
  async function joinedParts(name: string): Promise<Buffer> {
    const index = await file<BulkIndexJson>('api/v1/bulk/index.json');
    const parts = index.files.find((f) => f.name === name)!.parts!;
    return Buffer.concat(await Promise.all(parts.map((part) => fs.readFile(path.join(out, part.path)))));
  }

  describe('/api/v1/bulk/', () => {
    it('serves the bulk files byte for byte with their media types', async () => {
      const sqlite = await host.fetch('/api/v1/bulk/sif.sqlite');
      expect(sqlite.status).toBe(200);
      expect(sqlite.headers.get('content-type')).toBe('application/vnd.sqlite3');
      expect(Buffer.from(await sqlite.arrayBuffer()).equals(await joinedParts('sif.sqlite'))).toBe(true);
      const lines = await host.fetch('/api/v1/bulk/cards.jsonl?keys=id');
      expect(lines.headers.get('content-type')).toBe('application/jsonl; charset=utf-8');
      expect(await lines.text()).toBe((await joinedParts('cards.jsonl')).toString('utf8'));
    });
  });

  describe('/api/v1/card/<ordinal>.json', () => {
    it('serves the published file, revalidated by any cache', async () => {
      const response = await answered('/api/v1/card/1.json', 200);
      expect(response.headers.get('cache-control')).toBe(REVALIDATE);
      expect(await response.json()).toEqual(await file('api/v1/card/1.json'));
    });
  });

  describe('/api/v1/card/<ordinals>.json', () => {
    it('answers the cards of a comma list in request order, each as in its own file', async () => {
      const { cards } = await ok<{ cards: CardJson[] }>('/api/v1/card/3,1,2.json');
      expect(cards.map((c) => c.ordinal)).toEqual([3, 1, 2]);
      expect(cards[1]).toEqual((await file('api/v1/card/1.json')).cards[0]);
    });
  });

  describe('id lists as upstream parsed them', () => {
    it('take 1,000 ordinals, a trailing comma and leading zeros, answered from the packs', async () => {
      const ordinals = Array.from({ length: 1000 }, (_, i) => 1000 - i);
      const { cards } = await ok<{ cards: CardJson[] }>(`/api/v1/card/${ordinals.join(',')},.json`);
      const { stubs } = await file('api/v1/card_list.json');
      expect(cards.map((c) => c.ordinal)).toEqual(stubs.map((s: CardJson) => s.ordinal).reverse());
      expect(await ok('/api/v1/card/01.json')).toEqual(await file('api/v1/card/1.json'));
    });

    it('answer missing generic objects as null entries with 200, even when every id is missing', async () => {
      const [id] = await objectIds('char_t');
      expect(await ok(`/api/v1/char_t/999999,${id},`)).toEqual({ result: [null, await packedObject(out, 'char_t', id)] });
      expect(await ok('/api/v1/char_t/999999')).toEqual({ result: [null] });
    });

    it('never fail list/<type>: an unknown type is an empty list', async () => {
      expect(await ok('/api/v1/list/nothing_t')).toEqual({ result: [] });
    });
  });

  describe('/api/v1/card_t/<ids>', () => {
    it('answers one id as its published .json file', async () => {
      const [id] = await objectIds('card_t');
      expect(await ok(`/api/v1/card_t/${id}`)).toEqual({ result: [await packedObject(out, 'card_t', id)] });
    });

    it('answers a comma list with one entry per id in request order', async () => {
      const [a, b] = await objectIds('card_t');
      expect(await ok(`/api/v1/card_t/${b},${a}`)).toEqual({ result: [await packedObject(out, 'card_t', b), await packedObject(out, 'card_t', a)] });
    });
  });

  describe(`a request's reads: at most ${MAX_READS} files, refused before reading past them`, () => {
    const version = async () => encodeURIComponent((await file('api/v1/info.json')).truth_version);
    /** card_t ids in `blocks` key packs beyond the sample's own: each an id of its own block, most of them with no pack. */
    const inKeyPacks = async (blocks: number) => [...(await objectIds('card_t')), ...Array.from({ length: blocks }, (_, i) => (i + 1) * KEY_PACK_SIZE + 1)];

    it('answers a card_t list whose key packs and cards\' packs are within them', async () => {
      const ids = await inKeyPacks(40);
      const { result } = await ok<{ result: unknown[] }>(`/api/v1/card_t/${ids.join(',')}`);
      expect(result.filter((entry) => entry !== null)).toHaveLength((await objectIds('card_t')).length);
    });

    it('refuses a card_t list of more key packs with a 400 that says so', async () => {
      const { error } = await (await answered(`/api/v1/card_t/${(await inKeyPacks(MAX_READS)).join(',')}`, 400)).json();
      expect(error).toMatch(/^card_t's packs name the cards of 2048 ids each: these ids fall in \d+; a request reads at most 50 files of the site: ask in parts$/);
    });

    it(`refuses a ?version= list of more than ${MAX_VERSION_IDS} ids, and answers one of ${MAX_VERSION_IDS}`, async () => {
      const ordinals = Array.from({ length: MAX_VERSION_IDS + 1 }, (_, i) => i + 1);
      const { error } = await (await answered(`/api/v1/card/${ordinals.join(',')}.json?version=${await version()}`, 400)).json();
      expect(error).toBe(`?version= lists take at most ${MAX_VERSION_IDS} distinct ids, not ${MAX_VERSION_IDS + 1} (each id's history is a read of its own, and a request reads at most ${MAX_READS} files of the site): ask in parts`);
      const { cards } = await ok<{ cards: CardJson[] }>(`/api/v1/card/${ordinals.slice(1).join(',')}.json?version=${await version()}`);
      expect(cards.length).toBeGreaterThan(0);
    });
  });

  describe('/api/v1/list/card_t and /api/v1/info', () => {
    it('serve the published .json files under their extensionless URLs', async () => {
      expect(await ok('/api/v1/list/card_t')).toEqual(await file('api/v1/list/card_t.json'));
      expect(await ok('/api/v1/info')).toEqual(await file('api/v1/info.json'));
    });
  });

  describe('/api/v1/search/<kind> and card/random.json?q=', () => {
    it('answers a page of the cards a query matches, in the asked order, each as in its own file', async () => {
      const { stubs } = await file('api/v1/card_list.json');
      const all: CardJson[] = await Promise.all(stubs.map(async (s: CardJson) => (await file(`api/v1/card/${s.ordinal}.json`)).cards[0]));
      const smile = (c: CardJson) => c.smile[c.smile.length - 1];
      const expected = all.filter((c) => c.rarity !== 1 && c.attribute !== 3).sort((a, b) => smile(b) - smile(a) || a.ordinal - b.ordinal);
      const body = await ok(`/api/v1/search/card?q=${encodeURIComponent('-rarity:n -attr:cool')}&order=smile&dir=desc&page_size=3`);
      expect(body).toEqual({ result: expected.slice(0, 3), total: expected.length, page: 1, page_size: 3, next: 'card?q=-rarity%3An+-attr%3Acool&order=smile&dir=desc&page_size=3&page=2', suggestion: null });
      const { cards } = await ok<{ cards: CardJson[] }>('/api/v1/card/random.json?q=rarity:ur');
      expect(cards[0].rarity).toBe(4);
      // Bare words: a rarity, an attribute and a family name; a word that finds nothing gets a suggestion.
      const family = all[0].char_name.split(' ')[0].toLowerCase();
      const byWords = await ok(`/api/v1/search/card?q=${encodeURIComponent(`${family} smile`)}&page_size=100`);
      expect(byWords.result.map((c: CardJson) => c.ordinal)).toEqual(all.filter((c) => c.char_name.toLowerCase().split(' ').includes(family) && c.attribute === 1).map((c) => c.ordinal));
      expect(await ok(`/api/v1/search/card?q=${family.slice(0, -1)}`)).toMatchObject({ total: 0, suggestion: family });
    });

    it('answers a malformed query with a 400 naming the column, on accessories and events too', async () => {
      expect(await (await answered('/api/v1/search/accessory?q=name:', 400)).json()).toEqual({ error: 'query column 6: expected a value after "name:"' });
      expect((await ok('/api/v1/search/event?q=start>=2000&page_size=100')).total).toBe((await objectIds('event_t')).length);
    });
  });

  describe('/api/v1/happening/<unix seconds>', () => {
    it('answers the events and gachas active at that instant', async () => {
      const at = await ok<HappeningJson>(`/api/v1/happening/${Date.parse('2019-04-25T00:00:00Z') / 1000}`);
      expect([at.events.map((e) => e.id), at.gachas.map((g) => g.id)]).toEqual([[1], ['opening-scout']]);
    });
  });

  describe('POST /api/v1/read_tl', () => {
    it('answers {original: translation} for the strings that have one, whatever the body type', async () => {
      for (const type of ['application/json', 'text/plain']) {
        const body = JSON.stringify(['はじまりの朝', 'nothing', 'パンダ先生']);
        expect(await ok('/api/v1/read_tl', { method: 'POST', body, headers: { 'content-type': type } }))
          .toEqual({ 'はじまりの朝': 'First Morning', 'パンダ先生': 'Panda Sensei' });
      }
    });
  });

  describe('the query in the path on a route that takes none', () => {
    it('is ignored, as a query on its path is: the file, byte for byte (packs, history, bulk parts, the change index)', async () => {
      const [pack] = await fg('api/v1/pack/card/*.json', { cwd: out });
      const [history] = await fg('api/v1/history/card/*.json', { cwd: out });
      const [part] = await fg('api/v1/bulk/parts/sif.sqlite/*.part', { cwd: out });
      for (const rel of [pack, history, part, 'api/v1/changes/index.json', 'api/v1/versions.json']) {
        const response = await host.fetch(`/api/v1;keys=id;stubs=yes/${rel.slice('api/v1/'.length)}`);
        expect(response.status, rel).toBe(200);
        expect(response.headers.get('content-type'), rel).toBe(rawFileType(`/${rel}`) ?? JSON_TYPE);
        expect(Buffer.from(await response.arrayBuffer()).equals(fs.readFileSync(path.join(out, rel))), rel).toBe(true);
      }
      expect(await (await answered('/api/v1;keys=id/pack/card/999999.json', 404)).json()).toEqual({ error: 'not found' });
    });
  });

  describe('a method but GET and HEAD on a published file\'s path', () => {
    it('is the JSON 405 naming the methods it takes, and OPTIONS the CORS preflight (but a Worker\'s static assets, before any code)', async () => {
      const [pack] = await fg('api/v1/pack/card/*.json', { cwd: out });
      for (const p of ['/api/v1/card/1.json', '/api/v1/info', `/${pack}`, '/api/v1/bulk/index.json', '/api/v1/list/card_t', '/api/v1/card/1,2.json']) {
        // A Worker's static assets answer every method but GET and HEAD on a file they serve with an empty 405 of their own, which
        // no configuration routes to the worker but by path (run_worker_first would run it for every read): docs/hosts.md.
        if (CLOUDFLARE_ASSETS.has(name) && fs.existsSync(path.join(out, p.slice(1))) && !p.startsWith('/api/v1/list/')) {
          for (const method of ['POST', 'DELETE', 'OPTIONS']) {
            const response = await host.fetch(p, { method });
            expect([response.status, await response.text()], `${method} ${p}`).toEqual([405, '']);
          }
          continue;
        }
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
          const response = await answered(p, 405, { method, body: method === 'DELETE' ? undefined : '{}' });
          expect(response.headers.get('allow'), `${method} ${p}`).toBe('GET, HEAD, OPTIONS');
          expect((await response.json()).error, `${method} ${p}`).toBe(`method ${method} is not allowed here (allowed: GET, HEAD, OPTIONS)`);
        }
        const preflight = await host.fetch(p, { method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } });
        expect(preflight.status, `OPTIONS ${p}`).toBe(204);
        expect(preflight.headers.get('access-control-allow-origin'), `OPTIONS ${p}`).toBe('*');
      }
    });
  });

  describe('OPTIONS /api/... (the CORS preflight)', () => {
    it('lets any origin POST to read_tl with the headers it asks for', async () => {
      const response = await host.fetch('/api/v1/read_tl', {
        method: 'OPTIONS',
        headers: { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')).toBe('content-type');
    });
  });

  describe('unknown /api/ paths', () => {
    it('are a JSON 404', async () => {
      for (const p of ['/api/v1/nothing', '/api/v2/card/1.json', '/api/']) {
        expect(await (await answered(p, 404)).json(), p).toEqual({ error: 'not found' });
      }
    });

    it('a missing generic object is a null entry, .json or not, never a rewrite to <id>.json.json', async () => {
      for (const p of ['/api/v1/card_t/999999.json', '/api/v1/char_t/999999.json', '/api/v1/char_t/999999']) {
        expect(await ok(p), p).toEqual({ result: [null] });
      }
    });

    it('a path segment longer than a file name can be is a JSON 404', async () => {
      for (const p of [`/api/v1/set/${'a'.repeat(300)}.json`, `/api/v1/${'é'.repeat(200)}`, `/api/v1/changes/${'b'.repeat(256)}.json`]) {
        expect(await (await answered(p, 404)).json(), p).toEqual({ error: 'not found' });
      }
    });

    it('a path below a file or an extensionless route is a JSON 404, never an error page', async () => {
      for (const p of ['/api/v1/info/x', '/api/v1/list/card_t/x', '/api/v1/card/1.json/x', '/api/v1/info.json/x']) {
        expect(await (await answered(p, 404)).json(), p).toEqual({ error: 'not found' });
      }
    });

    it('the JSON 404\'s own file is a 404 too', async () => {
      expect(await (await answered('/api/404.json', 404)).json()).toEqual({ error: 'not found' });
    });
  });

  describe('paths outside /api/', () => {
    it('serve the page and its files as published, and a missing one as 404.html with status 404', async () => {
      for (const [p, rel] of [['/', 'index.html'], ['/site/app.js', 'site/app.js'], ['/images/card/icon/1003.png', 'images/card/icon/1003.png']]) {
        const response = await host.fetch(p);
        expect(response.status, p).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(fs.readFileSync(path.join(out, rel))), p).toBe(true);
      }
      const missing = await host.fetch('/nothing/here');
      expect(missing.status).toBe(404);
      expect(await missing.text()).toBe(fs.readFileSync(path.join(out, '404.html'), 'utf8'));
    });
  });

  describe('an encoded slash (%2F)', () => {
    it('is a 400 wherever the edge sees it, encoded once or twice: never read as a separator or a name', async () => {
      // A Worker's static assets decode it before any code runs: a path naming a file once decoded is that file, never more.
      const decodedByHost = CLOUDFLARE_ASSETS.has(name) ? ['/api/v1/card%2F1.json'] : [];
      for (const p of decodedByHost) expect(await ok(p), p).toEqual(await file('api/v1/card/1.json'));
      for (const p of ['/api/v1/card%2F1.json', '/api/v1/card_t%2f1003', '/api/v1/card/1%2F2.json', '/api/v1/card%252F1.json'].filter((p) => !decodedByHost.includes(p))) {
        expect((await (await answered(p, 400)).json()).error, p).toMatch(/encoded slash/);
      }
    });
  });

  describe('?keys=', () => {
    it('naming no key keeps every key', async () => {
      const whole = { result: [await packedObject(out, 'card_t', 1003)] };
      for (const p of ['/api/v1/card_t/1003?keys=', '/api/v1/card_t/1003.json?keys=%20,', '/api/v1/card_t/1003,?keys=']) {
        expect(await ok(p), p).toEqual(whole);
      }
    });
  });

  describe('ETag and If-None-Match', () => {
    it('a computed answer carries a strong ETag and the revalidating cache policy', async () => {
      const response = await answered('/api/v1/card/2,1.json', 200);
      expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
      expect(response.headers.get('cache-control')).toBe(REVALIDATE);
      const other = await host.fetch('/api/v1/card/1,2.json');
      expect(other.headers.get('etag')).not.toBe(response.headers.get('etag'));
    });

    it('is a 304 without body, same ETag and CORS header, when the client has the current copy', async () => {
      for (const p of ['/api/v1/card/2,1.json', '/api/v1/card_t/1003,1006', '/api/v1/card/1.json']) {
        const etag = (await host.fetch(p)).headers.get('etag')!;
        // A Worker's static assets compare If-None-Match as one tag: a list matches only where the edge answers.
        const list = CLOUDFLARE_ASSETS.has(name) && p === '/api/v1/card/1.json' ? [] : [`"other", ${etag}`];
        for (const ifNoneMatch of [etag, `W/${etag}`, ...list]) {
          const cached = await host.fetch(p, { headers: { 'if-none-match': ifNoneMatch } });
          expect(cached.status, `${p} ${ifNoneMatch}`).toBe(304);
          expect(cached.headers.get('etag')).toBe(etag);
          expect(cached.headers.get('access-control-allow-origin')).toBe('*');
          expect(await cached.text()).toBe('');
        }
        expect((await host.fetch(p, { headers: { 'if-none-match': '"stale"' } })).status, p).toBe(200);
      }
    });
  });
});

describe('host rules (_redirects, _headers, _worker.js, _routes.json, netlify.toml)', () => {
  const site = (rel: string) => fs.readFileSync(path.join(out, rel), 'utf8');

  it('the build writes the rule list as _redirects, in order, in the format Netlify and Cloudflare read', () => {
    expect(site('_redirects').trim().split('\n')).toEqual(STATIC_RULES.map((rule) => `${rule.from}  ${rule.to}  ${rule.status}`));
  });

  it('every literal static route is a published file (a host without rules or edge serves it); the only rule is the JSON 404', async () => {
    const published = new Set(await fg('**', { cwd: out }));
    const literal = allEndpoints().filter((e) => e.method === 'get' && e.file && !e.route.includes('{') && published.has(e.file()));
    expect(literal.map((e) => e.route)).toContain('/api/v1/list/card_t');
    for (const endpoint of literal) expect(published.has(endpoint.route.slice(1)), endpoint.route).toBe(true);
    expect(STATIC_RULES).toEqual([{ from: EDGE_PATH, to: '/api/404.json', status: 404 }]);
  });

  it('the build writes the static headers as _headers', () => {
    for (const block of STATIC_HEADERS) {
      const lines = Object.entries(block.values).map(([header, value]) => `  ${header}: ${value}\n`);
      expect(site('_headers')).toContain(`${block.for}\n${lines.join('')}`);
    }
  });

  it('the Pages worker is bundled into _worker.js and routed the edge path; a missing path has a 404.html', () => {
    expect(site('_worker.js')).toMatch(/^\/\/ Cloudflare Pages worker, bundled by npm run build from generator\/hosts\/cloudflare\/runtime\/pagesWorker\.ts\./);
    expect(site('_worker.js')).not.toMatch(/^import /m); // one module: Pages uploads it as it is
    const routes = JSON.parse(site('_routes.json'));
    expect(routes).toEqual(pagesRoutes(EDGE_PATH));
    // Cloudflare's limits: at least one include rule, at most 100 rules, each at most 100 characters.
    expect(routes.include.length).toBeGreaterThan(0);
    expect(routes.include.length + routes.exclude.length).toBeLessThanOrEqual(100);
    for (const rule of [...routes.include, ...routes.exclude]) expect(rule.length).toBeLessThanOrEqual(100);
    // What Pages serves without the worker holds only files that every host serves as they are.
    expect(routes.exclude).toEqual(expect.arrayContaining(['/api/v1/pack/card/*', '/api/v1/history/card/*', '/api/v1/history/notes/pack/*', '/api/v1/bulk/parts/*']));
    expect(site('.assetsignore').trim().split('\n')).toEqual(['_worker.js', '_routes.json']);
    expect(site('404.html')).toContain('<title>Not found</title>');
  });

  it('_worker.js is the same bundle when built by another process from another folder', async () => {
    const { stdout } = await run(process.execPath, [await compiled('test/printWorker.ts')], { cwd: await tempDir(), encoding: 'buffer' });
    expect(stdout.equals(fs.readFileSync(path.join(out, '_worker.js')))).toBe(true);
  });

  it('netlify.toml keeps only the build; the edge function declares its own path, the edge path', () => {
    const toml = fs.readFileSync(path.join(ROOT, 'netlify.toml'), 'utf8');
    for (const table of ['[[redirects]]', '[[headers]]', '[[edge_functions]]']) expect(toml).not.toContain(table);
    // Netlify deploys every file of the folder it names as a function: the two functions, nothing else of the host.
    const functions = /^\s*edge_functions = "(.+)"$/m.exec(toml)![1];
    expect(fs.readdirSync(path.join(ROOT, functions)).sort()).toEqual(['api.ts', 'methods.ts']);
    expect(edgeConfig).toEqual({ path: EDGE_PATH, excludedPath: netlifyExcludedPaths() });
    // The same function for the other methods on the whole edge path, the excluded ones among them: Netlify's static layer would answer them with a bare text 405.
    expect(methodsConfig).toEqual({ path: EDGE_PATH, method: [...NETLIFY_OTHER_METHODS] });
  });
});

describe('npm start', () => {
  it('prints no warning (a deprecation included) while it answers', async () => {
    const host = hosts['npm start'];
    for (const p of ['/', '/index.html', '/api/v1/info', '/api/v1/card/1,2.json', '/nothing']) await (await host.fetch(p)).arrayBuffer();
    await new Promise((settled) => setTimeout(settled, 300)); // a warning reaches stderr after the answer
    const printed = host.output!();
    expect(printed).toMatch(/Serving .* at http:\/\/127\.0\.0\.1:\d+\//);
    expect(printed).not.toMatch(/\(node:\d+\)|Warning/);
  });
});

describe('docs/hosts.md', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/hosts.md'), 'utf8');

  it('the Worker configuration deploys the built folder with the worker it is tested with', () => {
    expect(WORKER_CONFIG).toMatchObject({ main: 'public/_worker.js', compatibility_date: PAGES_COMPATIBILITY_DATE, assets: { directory: 'public', binding: 'ASSETS', not_found_handling: 'none' } });
  });

  it('npm run worker previews any site with the same configuration, its folder in place of public/', () => {
    const config = previewConfig('/srv/site');
    expect(config).toEqual({ ...WORKER_CONFIG, main: '/srv/site/_worker.js', assets: { ...WORKER_CONFIG.assets, directory: '/srv/site' } });
    expect(doc).toContain('npm run worker -- --dir <site>');
  });

  it('names the compatibility date the worker is tested with', () => {
    expect(doc).toContain(`--compatibility-date ${PAGES_COMPATIBILITY_DATE}`);
    expect(doc).toContain(`compatibility date to \`${PAGES_COMPATIBILITY_DATE}\``);
  });
});
