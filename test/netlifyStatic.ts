/**
 * A static host that serves a built site the way Netlify's CDN does, for the edge function to
 * sit in front of: a file at the path wins; else the first matching rule of `_redirects` (a
 * rewrite, answered with the rule's status); else the site's 404.html with status 404; a method
 * but GET and HEAD, a bare text 405. Headers come from every
 * matching block of `_headers` (a header named twice is joined, as Netlify joins it), files
 * carry an ETag and answer If-None-Match. The rules are parsed from the site's own files, so
 * this checks what the build wrote, not the list it was written from. Like a CDN, it reads and
 * hashes each file once, not per request.
 */
import http from 'node:http';
import path from 'node:path';
import fs from 'fs-extra';
import { setTimeout as delay } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { notModified, withETag } from '../generator/runtime/edge/http.ts';

export type Answer = (request: Request) => Promise<Response>;

export interface RunningHost {
  /** Base URL ending in "/". */
  url: string;
  close(): Promise<void>;
}

interface Rewrite {
  from: RegExp;
  to: string;
  status: number;
}

interface HeaderBlock {
  for: RegExp;
  values: [string, string][];
}

const TYPES: Record<string, string> = {
  '.json': 'application/json', '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.png': 'image/png', '.webp': 'image/webp',
};
/** Netlify reads these files; it never serves them. */
const HOST_FILES = new Set(['/_redirects', '/_headers']);

/** A Netlify path pattern: `*` matches the rest of the path (bound to `:splat` in rewrites). */
const pattern = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('*', '(.*)')}$`);

const contentLines = (text: string) => text.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));

/** `_redirects`: `from to status` per line; only the rewrites (200, 404) a static API needs are emulated. */
function parseRedirects(text: string): Rewrite[] {
  return contentLines(text).map((line) => {
    const [from, to, status, ...rest] = line.trim().split(/\s+/);
    if (!['200', '404'].includes(status) || rest.length) throw new Error(`_redirects: not a "from to 200|404" rewrite: ${line}`);
    return { from: pattern(from), to, status: Number(status) };
  });
}

/** `_headers`: a path pattern on its own line, then its `Name: value` lines, indented. */
function parseHeaders(text: string): HeaderBlock[] {
  const blocks: HeaderBlock[] = [];
  for (const line of contentLines(text)) {
    const header = /^\s+([\w-]+):\s*(.*)$/.exec(line);
    if (!/^\s/.test(line)) blocks.push({ for: pattern(line.trim()), values: [] });
    else if (header && blocks.length) blocks.at(-1)!.values.push([header[1], header[2]]);
    else throw new Error(`_headers: not a "Name: value" line under a path: ${line}`);
  }
  return blocks;
}

/** The static layer of a Netlify site for the published folder `dir`, as a function of the request. */
export async function netlifyStatic(dir: string): Promise<Answer> {
  const root = path.resolve(dir);
  const rewrites = parseRedirects(await fs.readFile(path.join(root, '_redirects'), 'utf8'));
  const headerBlocks = parseHeaders(await fs.readFile(path.join(root, '_headers'), 'utf8'));

  const file = async (pathname: string): Promise<{ bytes: Buffer; type: string } | null> => {
    const rel = pathname.endsWith('/') ? `${pathname}index.html` : pathname;
    const full = path.join(root, rel);
    if (HOST_FILES.has(rel) || !full.startsWith(root + path.sep)) return null;
    const bytes = await fs.readFile(full).catch(() => null);
    return bytes && { bytes, type: TYPES[path.extname(full)] ?? 'application/octet-stream' };
  };

  const resolve = async (pathname: string) => {
    const direct = await file(pathname);
    if (direct) return { ...direct, status: 200 };
    for (const rule of rewrites) {
      const match = rule.from.exec(pathname);
      const target = match && (await file(rule.to.replace(':splat', match[1] ?? '')));
      if (match) return target ? { ...target, status: rule.status } : null;
    }
    return null;
  };

  const headersFor = (pathname: string, type: string) => {
    const custom = new Headers();
    for (const block of headerBlocks.filter((b) => b.for.test(pathname))) {
      for (const [name, value] of block.values) custom.append(name, value);
    }
    const headers = new Headers({ 'content-type': type });
    custom.forEach((value, name) => headers.set(name, value));
    return headers;
  };

  /** The answer to `pathname`, an ETag on a file's 200 (withETag); the site's 404.html where nothing matches, as on Netlify, else a plain 404. */
  const answer = async (request: Request, pathname: string) => {
    const found = (await resolve(pathname)) ?? (await file('/404.html').then((page) => page && { ...page, status: 404 }));
    if (!found) return new Response('Not Found', { status: 404, headers: headersFor(pathname, 'text/plain; charset=utf-8') });
    return (await withETag(request, new Response(new Uint8Array(found.bytes), { status: found.status, headers: headersFor(pathname, found.type) })))!;
  };

  // Answers to GET and HEAD, kept as a CDN keeps them: a file is read and hashed once, a conditional request compared with the kept ETag.
  const served = new Map<string, Promise<{ status: number; headers: Headers; body: ArrayBuffer }>>();
  const kept = (url: string, pathname: string) => {
    if (!served.has(pathname)) {
      const unconditional = answer(new Request(url), pathname);
      served.set(pathname, unconditional.then(async (response) => ({ status: response.status, headers: response.headers, body: await response.arrayBuffer() })));
    }
    return served.get(pathname)!;
  };
  return async (request) => {
    const pathname = decodeURIComponent(new URL(request.url).pathname);
    // Netlify's static layer serves GET and HEAD; any other method gets its bare text 405 (18 bytes), whatever the path.
    if (!['GET', 'HEAD'].includes(request.method)) return new Response('Method Not Allowed', { status: 405, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    const { status, headers, body } = await kept(request.url, pathname);
    return notModified(request, new Response(body, { status, headers }));
  };
}

/**
 * `answer` over HTTP on 127.0.0.1 (a free port), each response held back `latencyMs` (a CDN
 * round trip, for the benchmark). Request bodies are not passed on: a static host needs none.
 */
export async function serveHttp(answer: Answer, latencyMs = 0): Promise<RunningHost> {
  const server = http.createServer(async (req, res) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) for (const v of [value ?? []].flat()) headers.append(name, v);
      const response = await answer(new Request(new URL(req.url!, 'http://127.0.0.1'), { method: req.method, headers }));
      const body = Buffer.from(await response.arrayBuffer());
      if (latencyMs) await delay(latencyMs);
      const out: Record<string, string | number> = {};
      response.headers.forEach((value, name) => (out[name] = value));
      res.writeHead(response.status, [204, 304].includes(response.status) ? out : { ...out, 'content-length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((closed) => {
      server.close(() => closed());
      server.closeAllConnections();
    }),
  };
}
