/**
 * The local server as a client meets it: `npm start`-style processes on free 127.0.0.1 ports,
 * spoken to over HTTP (where only its answers are the subject, not its process, it runs in this
 * one). Every route, every error status and body, the limits, the CORS preflight and paths that
 * try to leave the site.
 */
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, buildSample, copyTree, packedObject, readJson, tempDir, writeDb } from '../helpers.ts';
import { keyPackOf } from '../../generator/contract/format.ts';
import { unitTables } from '../fixtures.ts';
import type { CardListJson, HappeningJson } from '../../generator/contract/schemas.ts';
import { peakRssMb, startServerProcess, type ServerProcess } from '../serverProcess.ts';
import { RUNNING_REQUESTS, WAITING_REQUESTS, startServer } from '../../generator/hosts/node/runtime/server.ts';
import { diskBytesReader, diskReader } from '../../generator/hosts/node/runtime/diskSite.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

const started: { stop(): Promise<void> }[] = [];

/** The server in its own process (test/serverProcess.ts), stopped after the file. */
async function start(...args: Parameters<typeof startServerProcess>): Promise<ServerProcess> {
  const server = await startServerProcess(...args);
  started.push(server);
  return server;
}

/** The server on `dir` in this process, for tests of its answers alone (a process costs more than they do), stopped after the file; its URL. */
async function serveHere(dir: string): Promise<URL> {
  const server = await startServer(dir, 0);
  started.push({ stop: () => server.close() });
  return new URL(server.url);
}

let out: string;
let base: string;
/** What the server started for the file printed. */
let printed: () => string;
/** The busy keep-alive client, talking to the file's server while the other tests run. */
let busyClient: ReturnType<typeof busyKeepAliveClient>;
const get = (p: string, init?: RequestInit) => fetch(new URL(p.slice(1), base), init);

/** An HTTP request with the path sent exactly as written (fetch would normalize it). */
function raw(target: string, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path: target, method }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

function expectJsonHeaders(response: Response, what: string) {
  expect(response.headers.get('content-type'), what).toBe(JSON_TYPE);
  expect(response.headers.get('access-control-allow-origin'), what).toBe('*');
}

async function ok<T = any>(p: string, init?: RequestInit): Promise<T> {
  const response = await get(p, init);
  expect(response.status, p).toBe(200);
  expectJsonHeaders(response, p);
  return response.json() as Promise<T>;
}

async function fails(p: string, status: number, message: RegExp, init?: RequestInit): Promise<Response> {
  const response = await get(p, init);
  expect(response.status, p).toBe(status);
  expectJsonHeaders(response, p);
  expect((await response.json()).error, p).toMatch(message);
  return response;
}

beforeAll(async () => {
  ({ out } = await buildSample());
  // A file beside the published folder that no request may reach.
  await fs.writeFile(path.join(path.dirname(out), 'secret.txt'), 'SECRET-TOKEN');
  const server = await start(out);
  [base, printed] = [server.url.href, server.output];
  busyClient = busyKeepAliveClient(server.url);
  busyClient.catch(() => {}); // its test reports a failure; unawaited until then, it is no unhandled rejection
});

afterAll(() => Promise.all(started.map((server) => server.stop())));

describe('npm start', () => {
  // The npm script itself answers the route suite (routes.test.ts), one of its hosts.
  it('serves the folder on 127.0.0.1 and prints the URL', async () => {
    expect(printed()).toContain(`Serving ${out} at ${base}`);
    expect(await (await get('/api/v1/info')).json()).toEqual(await readJson(out, 'api/v1/info.json'));
  });

  it('fails with a message when the folder does not exist', async () => {
    const missing = path.join(await tempDir(), 'nothing');
    await expect(start(missing))
      .rejects.toThrow(/exited with 1: start failed: .*nothing is not a folder/);
  });
});

describe('static files', () => {
  it('serves every published JSON file with the JSON and CORS headers', async () => {
    const list = await readJson<CardListJson>(out, 'api/v1/card_list.json');
    const files = [
      'api/v1/card/1.json', 'api/v1/card_list.json', 'api/v1/card/set_list.json', 'api/v1/pair_list.json',
      'api/v1/accessory/1.json', 'api/v1/accessory_list.json', 'api/v1/info.json', 'api/v1/happening.json',
      `api/v1/pack/card_t/${keyPackOf(list.stubs[0].id)}.json`, 'api/v1/list/skill_t.json',
    ];
    for (const file of files) expect(await ok(`/${file}`)).toEqual(await readJson(out, file));
  });

  it('answers extensionless URLs as their .json files, and generic objects from their packs', async () => {
    expect(await ok('/api/v1/info')).toEqual(await readJson(out, 'api/v1/info.json'));
    expect(await ok('/api/v1/list/char_t')).toEqual(await readJson(out, 'api/v1/list/char_t.json'));
    expect(await ok('/api/v1/char_t/101')).toEqual({ result: [await packedObject(out, 'char_t', 101)] });
  });

  it('leaves the page and pictures to http-server', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const icon = await get('/images/card/icon/1003.png');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
  });

  it('answers HEAD without a body', async () => {
    const response = await get('/api/v1/card/1,2.json', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(await response.text()).toBe('');
  });

  it('answers HEAD with the Content-Length of its GET: a file, an edge answer, a bulk file joined from its parts', async () => {
    for (const p of ['/api/v1/card/1.json', '/api/v1/info', '/api/v1/card/1,2.json', '/api/v1/char_t/101', '/api/v1/bulk/cards.jsonl', '/api/v1/nothing']) {
      const got = await get(p);
      const length = (await got.arrayBuffer()).byteLength;
      expect(got.headers.get('content-length'), p).toBe(String(length));
      const head = await get(p, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-length')], p).toEqual([got.status, String(length)]);
    }
  });
});

describe('edge routes', () => {
  it('answers comma lists of cards and accessories in request order', async () => {
    expect((await ok('/api/v1/card/5,1,999.json')).cards.map((c: { ordinal: number }) => c.ordinal)).toEqual([5, 1]);
    expect((await ok('/api/v1/accessory/9,2.json')).accessories.map((a: { id: number }) => a.id)).toEqual([9, 2]);
  });

  it('answers generic objects with null for missing ids', async () => {
    const body = await ok('/api/v1/skill_t/2,999,1');
    expect(body.result.map((s: { id: number } | null) => s?.id ?? null)).toEqual([2, null, 1]);
  });

  it('answers a random card, never cached', async () => {
    const response = await get('/api/v1/card/random.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { cards } = await response.json();
    expect(await readJson(out, `api/v1/card/${cards[0].ordinal}.json`)).toEqual({ cards });
  });

  it('answers happening at an instant and now', async () => {
    const at = await ok<HappeningJson>(`/api/v1/happening/${Date.parse('2020-01-20T00:00:00Z') / 1000}`);
    expect([at.events.map((e) => e.id), at.gachas.map((g) => g.id)]).toEqual([[3], ['stella-dream-scout']]);
    const now = await get('/api/v1/happening/now');
    expect(now.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(await now.json())).toEqual(['events', 'gachas']);
  });

  it('applies ?stubs=yes, ?datetime=iso8601 and ?keys= on static and edge routes', async () => {
    const { cards: [card] } = await ok('/api/v1/card/16.json?stubs=yes&datetime=iso8601');
    expect(card.skill).toEqual({ ref: '/api/v1/skill_t/4' });
    expect(card.extra_data.release_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await ok('/api/v1/accessory_list.json?keys=id')).accessories[0]).toEqual({ id: 1 });
    expect((await ok('/api/v1/list/card_t?keys=ref')).result[0]).toEqual({ ref: '/api/v1/card_t/1003' });
  });
});

describe('errors', () => {
  it('answers each error with its status and {"error": ...}', async () => {
    await fails('/api/v1/card/9998,9999.json', 404, /no card with ordinal/);
    await fails('/api/v1/card/9999.json', 404, /^not found$/);
    expect(await ok('/api/v1/card_t/1')).toEqual({ result: [null] });
    await fails('/api/v1/card/1,a.json', 400, /malformed id "a"/);
    await fails('/api/v1/card/abc.json', 400, /malformed id "abc"/);
    await fails('/api/v1/foo_t/1', 400, /unknown object type "foo_t"/);
    expect(await ok('/api/v1/list/foo_t')).toEqual({ result: [] });
    await fails('/api/v1/happening/tomorrow', 400, /malformed time "tomorrow"/);
    await fails('/api/v1/card/1.json', 405, /method POST is not allowed/, { method: 'POST' });
    await fails('/api/v1/read_tl', 405, /method GET is not allowed/);
  });

  it('answers any other /api/ path with a JSON 404', async () => {
    for (const p of ['/api/v1/nothing', '/api/v1/card/', '/api/v2/card/1.json', '/api/', '/api/v1/list/card_t/extra', '/api/v1/nothing?keys=a']) {
      await fails(p, 404, /not found/);
    }
  });
});

describe('the 1,000-id limit', () => {
  let bigBase: string;
  const ordinalsUpTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  beforeAll(async () => {
    const input = path.join(await tempDir(), 'input');
    const cards = ordinalsUpTo(150).map((n) => ({ unit_id: 1000 + n, unit_number: n }));
    await writeDb(input, 'unit.sql', unitTables('modern', { cards }));
    bigBase = (await serveHere((await buildInto(input)).out)).href;
  });

  it('answers 1,000 ids in request order, over HTTP', async () => {
    const ids = ordinalsUpTo(1000).reverse();
    const response = await fetch(new URL(`api/v1/card/${ids.join(',')}.json`, bigBase));
    expect(response.status).toBe(200);
    expect((await response.json()).cards.map((c: { ordinal: number }) => c.ordinal)).toEqual(ids.filter((n) => n <= 150));
    const generic = await fetch(new URL(`api/v1/card_t/${ids.map((n) => 1000 + n).join(',')}`, bigBase));
    const { result } = await generic.json();
    expect(result).toHaveLength(1000);
    expect(result.filter((c: unknown) => c !== null)).toHaveLength(150);
  });

  it('refuses 1,001 ids with a 400', async () => {
    for (const p of [`api/v1/card/${ordinalsUpTo(1001).join(',')}.json`, `api/v1/card_t/${ordinalsUpTo(1001).join(',')}`]) {
      const response = await fetch(new URL(p, bigBase));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'too many ids: 1001 (at most 1000 per request)' });
    }
  });
});

describe('POST /api/v1/read_tl', () => {
  const post = (body: string) => ({ method: 'POST', body, headers: { 'content-type': 'application/json' } });

  it('answers translations of the strings that have one', async () => {
    expect(await ok('/api/v1/read_tl', post('["はじまりの朝","nothing","ステラ・カップ"]')))
      .toEqual({ 'はじまりの朝': 'First Morning', 'ステラ・カップ': 'Stella Cup' });
  });

  it('takes 1,000 strings and 1 MiB, and refuses more', async () => {
    const strings = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `s${i}`));
    expect(await ok('/api/v1/read_tl', post(strings(1000)))).toEqual({});
    await fails('/api/v1/read_tl', 400, /too many strings: 1001/, post(strings(1001)));
    const ofSize = (bytes: number) => JSON.stringify(['x'.repeat(bytes - 4)]);
    expect(await ok('/api/v1/read_tl', post(ofSize(1024 * 1024)))).toEqual({});
    await fails('/api/v1/read_tl', 413, /larger than 1048576 bytes/, post(ofSize(1024 * 1024 + 1)));
    await fails('/api/v1/read_tl', 413, /larger than/, post(ofSize(4 * 1024 * 1024)));
  });

  it('takes its body on the path form of the query too (/api/v1;name=value/read_tl), as every host does', async () => {
    expect(await ok('/api/v1;stubs=yes/read_tl', post('["はじまりの朝"]'))).toEqual({ 'はじまりの朝': 'First Morning' });
  });

  it('is a 400 for a malformed body', async () => {
    await fails('/api/v1/read_tl', 400, /not JSON/, post('nope'));
    await fails('/api/v1/read_tl', 400, /array of strings/, post('[1, 2]'));
  });
});

describe('slow uploads hold no place in the queue', () => {
  /** Opens a read_tl request that announces `bytes` of body and sends one; the socket, to drip more or close. */
  async function dripping(url: URL, bytes = 100): Promise<net.Socket> {
    const socket = net.connect(Number(url.port), url.hostname);
    socket.on('error', () => {}); // closed by the server or the test
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /api/v1/read_tl HTTP/1.1\r\nHost: ${url.hostname}\r\nContent-Type: application/json\r\nContent-Length: ${bytes}\r\n\r\n[`);
    return socket;
  }

  it('more read_tl bodies arriving a byte at a time than the queue has places: every other request is answered meanwhile', async () => {
    const url = await serveHere(out);
    const slow = await Promise.all(Array.from({ length: RUNNING_REQUESTS + WAITING_REQUESTS + 44 }, () => dripping(url)));
    try {
      for (const socket of slow) socket.write(' ');
      const list = await fetch(new URL('api/v1/card/1,2,3.json', url));
      expect(list.status).toBe(200);
      expect((await list.json()).cards).toHaveLength(3);
      const read = await fetch(new URL('api/v1/read_tl', url), { method: 'POST', body: '["はじまりの朝"]' });
      expect(await read.json()).toEqual({ 'はじまりの朝': 'First Morning' });
    } finally {
      slow.forEach((socket) => socket.destroy());
    }
  });

  it('a body that does not arrive within its deadline is a JSON 408, and the connection closed', async () => {
    const server = await startServer(out, 0, { bodySeconds: 0.3 });
    try {
      const socket = await dripping(new URL(server.url));
      const answer = await new Promise<string>((resolve) => {
        let received = '';
        socket.on('data', (data: Buffer) => (received += data.toString()));
        socket.on('close', () => resolve(received));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(answer).toMatch(/\r\n\r\n\{"error":"request body not received within 0\.3 s"\}$/);
    } finally {
      await server.close();
    }
  });
});

describe('slow readers hold no place in the queue', () => {
  /**
   * A site of one bulk file, `sif.sqlite`, of `parts` parts of 1 MiB of zeros (one file, linked):
   * larger than what the sockets of a client that reads nothing take in.
   */
  async function bigBulkSite(parts: number): Promise<string> {
    const dir = await tempDir();
    const partBytes = Buffer.alloc(1024 * 1024);
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    const first = path.join(dir, 'api/v1/bulk/parts/sif.sqlite/0000.part');
    await fs.outputFile(first, partBytes);
    const listed = [];
    for (let i = 0; i < parts; i++) {
      const rel = `api/v1/bulk/parts/sif.sqlite/${String(i).padStart(4, '0')}.part`;
      if (i) await fs.link(first, path.join(dir, rel));
      listed.push({ path: `/${rel}`, bytes: partBytes.length, sha256: sha256(partBytes) });
    }
    const whole = createHash('sha256');
    for (let i = 0; i < parts; i++) whole.update(partBytes);
    const file = { name: 'sif.sqlite', path: '/api/v1/bulk/sif.sqlite', type: 'all', format: 'sqlite', count: 0, bytes: parts * partBytes.length, sha256: whole.digest('hex'), updated_in: 'x', parts: listed };
    await fs.outputJson(path.join(dir, 'api/v1/bulk/index.json'), { truth_version: 'x', date: null, files: [file] });
    await fs.outputJson(path.join(dir, 'api/v1/info.json'), { truth_version: 'x' });
    return dir;
  }

  /**
   * A client that asks for `target` and reads nothing until `read()` is called; then it reads, and
   * resolves with the bytes it received once the server closed its connection.
   */
  function neverReading(url: URL, target: string): { read(): Promise<number> } {
    const socket = net.connect(Number(url.port), url.hostname);
    socket.on('error', () => {}); // a reset: 'close' tells
    socket.pause();
    socket.write(`GET ${target} HTTP/1.1\r\nHost: ${url.hostname}\r\n\r\n`);
    started.push({ stop: async () => void socket.destroy() });
    let received = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(received)));
    return { read: () => (socket.resume(), closed) };
  }

  it('clients that never read a large answer leave every other request answered, and their writes end once stalled', async () => {
    const bytes = 24 * 1024 * 1024;
    const server = await startServer(await bigBulkSite(bytes / (1024 * 1024)), 0, { writeStallSeconds: 0.5 });
    started.push({ stop: () => server.close() });
    const url = new URL(server.url);
    const stalled = Array.from({ length: RUNNING_REQUESTS + 2 }, () => neverReading(url, '/api/v1/bulk/sif.sqlite'));
    await new Promise((resolve) => setTimeout(resolve, 200)); // their answers under way, then stalled
    const plain = await fetch(new URL('api/v1/info.json', url), { signal: AbortSignal.timeout(3000) });
    expect(await plain.json()).toEqual({ truth_version: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 1000)); // past the stall time
    // Each write that made no progress for 0.5 s ended its connection: reading now, a client gets what was sent before, then the end.
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('a stalled write was never ended')), 5000));
    const received = await Promise.race([Promise.all(stalled.map((client) => client.read())), timeout]);
    for (const count of received) expect(count).toBeLessThan(bytes);
  });
});

describe('limits on every route', () => {
  /**
   * Sends `method target` with `bytes` zero bytes of body, then a plain GET on the same
   * connection, as a keep-alive client does; resolves with the status lines received
   * before the server closed the connection.
   */
  function bodyThenGet(served: ServerProcess, method: string, target: string, bytes: number): Promise<string[]> {
    const { hostname, port } = served.url;
    const chunk = Buffer.alloc(1024 * 1024);
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), hostname);
      let received = '';
      socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
      socket.on('close', () => resolve(received.match(/HTTP\/1\.1 \d{3}/g) ?? []));
      socket.on('error', () => {}); // a server that refuses the body closes the connection: 'close' tells
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: ${bytes}\r\n\r\n`);
      const write = (left: number) => {
        for (; left > 0; left -= chunk.length) if (!socket.write(chunk)) return void socket.once('drain', () => write(left - chunk.length));
        socket.write(`GET /api/v1/info HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
      };
      write(bytes);
    });
  }

  it('drains or refuses a body sent to any route but read_tl, never keeping it in memory', async () => {
    const served = await start(out);
    const before = peakRssMb(served.child.pid!);
    // A server that kept one body whole would grow by at least the body; the margin is for buffers a collection has not freed yet.
    const bodyMb = 96;
    const body = bodyMb * 1024 * 1024;
    expect(await bodyThenGet(served, 'GET', '/api/v1/info', body)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    expect(await bodyThenGet(served, 'POST', '/api/v1/card/1.json', body)).toEqual(['HTTP/1.1 405', 'HTTP/1.1 200']);
    expect(await bodyThenGet(served, 'GET', '/index.html', body)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    expect((await bodyThenGet(served, 'PUT', '/index.html', body))[0]).toBe('HTTP/1.1 405');
    expect(peakRssMb(served.child.pid!) - before).toBeLessThan(bodyMb - 8);
  });

  it('answers TRACE with a JSON 405 naming the allowed methods, on every path', async () => {
    for (const target of ['/api/v1/info', '/api/v1/read_tl', '/index.html']) {
      const response = await raw(target, 'TRACE');
      expect(response.status, target).toBe(405);
      expect(response.headers.allow, target).toBe('GET, HEAD, POST, OPTIONS');
      expect(JSON.parse(response.body).error, target).toMatch(/method TRACE is not allowed/);
    }
  });

  it('answers an overlong URL with a JSON 414 and the CORS header', async () => {
    const response = await raw(`/api/v1/card/${'1,'.repeat(20_000)}1.json`);
    expect(response.status).toBe(414);
    expect(response.headers['content-type']).toBe(JSON_TYPE);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(response.body).error).toMatch(/too long/);
  });

  it('npm start on a busy port fails with one line naming the port', async () => {
    const { port } = new URL(base);
    await expect(start(out, ['--port', port]))
      .rejects.toThrow(new RegExp(`exited with 1: start failed: port ${port} on 127\\.0\\.0\\.1 is in use[^\\n]*\\n?$`));
  });
});

describe('paths that try to leave the site', () => {
  const attempts = [
    '/../secret.txt', '/api/v1/../../../secret.txt', '/%2e%2e/secret.txt', '/api/v1/%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret.txt',
    '/images/..%2f..%2fsecret.txt', '/%252e%252e/secret.txt', '/..\\secret.txt', '/api/v1/..%5c..%5c..%5csecret.txt',
    '//secret.txt', '/api/v1/card/%00.json', '/secret.txt%00.json', `http://127.0.0.1/../secret.txt`,
  ];

  it('answers a 4xx and never a file from outside the published folder', async () => {
    for (const target of attempts) {
      const response = await raw(target);
      expect(response.status, target).toBeGreaterThanOrEqual(400);
      expect(response.status, target).toBeLessThan(500);
      expect(response.body, target).not.toContain('SECRET-TOKEN');
      expect(JSON.parse(response.body).error, target).toMatch(/not allowed/);
    }
  });

  it('does not serve the file under its plain name either', async () => {
    expect((await raw('/secret.txt')).status).toBe(404);
  });

  it('never serves a file whose real path leaves the site: links inside it that lead out name no file, under /api/ or not', async () => {
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'secret.json'), '{"secret":"SECRET-TOKEN"}');
    await fs.writeFile(path.join(outside, 'index.html'), 'SECRET-TOKEN');
    const site = path.join(await tempDir(), 'site');
    copyTree(await fs.realpath(out), site);
    await fs.symlink(path.join(outside, 'secret.json'), path.join(site, 'api/v1/leak.json'));
    await fs.symlink(path.join(outside, 'secret.json'), path.join(site, 'images/leak.png'));
    await fs.symlink(outside, path.join(site, 'escape'));
    await fs.symlink(outside, path.join(site, 'api/v1/escape'));
    // A link that stays inside the site is followed as before.
    await fs.symlink(path.join(site, 'api/v1/info.json'), path.join(site, 'api/v1/alias.json'));
    const url = await serveHere(site);
    for (const target of ['/api/v1/leak.json', '/api/v1/leak', '/api/v1/escape/secret.json', '/api/v1;keys=secret/leak.json', '/images/leak.png', '/escape/', '/escape/index.html', '/escape/secret.json']) {
      const response = await fetch(new URL(target.slice(1), url));
      expect(response.status, target).toBe(404);
      expect(await response.text(), target).not.toContain('SECRET-TOKEN');
    }
    expect(await (await fetch(new URL('api/v1/alias.json', url))).json()).toEqual(await readJson(out, 'api/v1/info.json'));
    expect(await diskReader(site)('api/v1/leak.json')).toBeNull();
    expect(await diskBytesReader(site)('api/v1/escape/secret.json')).toBeNull();
  });
});

/**
 * A client busy parsing other answers on a keep-alive connection to `url`: it asks for a list, reads
 * the answer 3 s late, and asks again 3.8 s later on the same connection. Resolves with the status
 * lines received before it asked again, whether the connection had closed by then, and the status
 * lines at the end. Started with the file (beforeAll) and awaited by its test, the last: its 7 s
 * of waiting pass while the other tests run.
 */
async function busyKeepAliveClient(url: URL) {
  const socket = net.connect(Number(url.port), url.hostname);
  let received = '';
  let closed = false;
  const statusLines = () => received.match(/HTTP\/1\.1 \d{3}/g);
  socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
  socket.on('error', () => {}); // a reset: 'close' tells
  socket.on('close', () => (closed = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  const ask = `GET /api/v1/card/1,2,3,4,5.json HTTP/1.1\r\nHost: ${url.hostname}\r\n\r\n`;
  socket.pause(); // busy parsing other answers: the server finishes writing long before this one is read
  socket.write(ask);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  socket.resume();
  await new Promise((resolve) => setTimeout(resolve, 3800));
  const beforeAskingAgain = { statusLines: statusLines(), closed };
  if (!closed) {
    socket.write(ask);
    await new Promise((resolve) => socket.once('data', resolve).once('close', resolve));
  }
  socket.destroy();
  return { beforeAskingAgain, atTheEnd: statusLines() };
}

describe('a busy client on a keep-alive connection', () => {
  it('reads its answer 3 s late and asks again 3.8 s later (within the 4 s a client allows for a 5 s keep-alive): answered, never reset', async () => {
    const { beforeAskingAgain, atTheEnd } = await busyClient;
    expect(beforeAskingAgain.statusLines).toEqual(['HTTP/1.1 200']);
    expect(beforeAskingAgain.closed).toBe(false);
    expect(atTheEnd).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
  }, 15_000);
});

describe('the disk reader (generator/hosts/node/runtime/diskSite.ts)', () => {
  it('reads regular files inside its folder only, a pipe, device, folder or path out answering null without waiting', async () => {
    const dir = await tempDir();
    const outside = path.join(await tempDir(), 'secret.json');
    fs.writeFileSync(outside, '{}');
    fs.mkdirSync(path.join(dir, 'folder.json'));
    execFileSync('mkfifo', [path.join(dir, 'pipe.json')]);
    fs.symlinkSync('/dev/zero', path.join(dir, 'device.json'));
    fs.writeFileSync(path.join(dir, 'a.json'), '[1]');
    const read = diskReader(dir);
    for (const rel of ['folder.json', 'pipe.json', 'device.json', 'absent.json', `../${path.basename(path.dirname(outside))}/secret.json`, '', 'a.json/x']) {
      expect(await read(rel), rel).toBeNull();
    }
    expect(await read('a.json')).toBe('[1]');
    expect(await diskBytesReader(dir)('a.json')).toEqual(new Uint8Array(Buffer.from('[1]')));
  });

  it('keeps what it read, and reads a file anew once it changed (another inode, size or time)', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'a.json');
    const time = new Date('2020-01-01T00:00:00Z');
    /** `content` written at `at`, its modification time set back to `time`. */
    const write = (at: string, content: string) => {
      fs.writeFileSync(at, content);
      fs.utimesSync(at, time, time);
    };
    write(file, '[1]');
    const read = diskReader(dir);
    expect(await read('a.json')).toBe('[1]');
    write(file, '[2]'); // the same inode, size and time: taken for the file read before, so not read again
    expect(await read('a.json')).toBe('[1]');
    write(file, '[22]'); // only the size differs
    expect(await read('a.json')).toBe('[22]');
    write(`${file}.new`, '[33]');
    fs.renameSync(`${file}.new`, file); // as a build publishes: only the inode differs
    expect(await read('a.json')).toBe('[33]');
    write(file, '[44]');
    fs.utimesSync(file, time, new Date('2021-01-01T00:00:00Z')); // only the time differs
    expect(await read('a.json')).toBe('[44]');
    fs.rmSync(file);
    expect(await read('a.json')).toBeNull();
  });
});
