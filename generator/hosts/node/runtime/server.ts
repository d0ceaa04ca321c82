/**
 * The local server (`npm start`): http-server serving a published folder on 127.0.0.1,
 * with the edge handler mounted in front as a `before` middleware and the static rules and
 * headers derived from the endpoint declarations (edge/rewrites.ts), so it answers like Netlify does.
 */
import path from 'node:path';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createServer, type Middleware, type UnionRequest, type UnionResponse } from 'http-server';
import { handleRequest, type EdgeSite } from '../../../runtime/edge/handler.ts';
import { HttpError, errorResponse, methodNotAllowed } from '../../../runtime/edge/http.ts';
import { staticApiFile } from '../../../runtime/edge/staticHost.ts';
import { edgeKept } from '../../../runtime/edge/kept.ts';
import { checkSitePath } from '../../../runtime/edge/guard.ts';
import { withPathQuery } from '../../../runtime/edge/pathQuery.ts';
import { staticHeaders } from '../../../runtime/edge/rewrites.ts';
import { endpoints } from '../../../contract/endpoints.ts';
import { MAX_READ_TL_BYTES } from '../../../contract/limits.ts';
import { currentVersion, diskBytesReader, diskReader, fileCache } from './diskSite.ts';
import { Admission } from './admission.ts';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The one route that takes a body (declared as a POST; the edge handler caps it at 1 MiB). */
const BODY_ROUTE = { method: endpoints.readTl.method.toUpperCase(), path: endpoints.readTl.route };
/**
 * Requests under /api/ answered at once, and waiting their turn beyond those; more are
 * refused with a 503 (docs/limits.md). Answering is mostly CPU on one thread, so a few at a
 * time finish as fast as many, and each holds its answer's pieces.
 */
export const RUNNING_REQUESTS = 4;
export const WAITING_REQUESTS = 128;
/**
 * How long an idle keep-alive connection stays open. Node's 5 s is too short under load: a client
 * still busy reading answers and parsing them, for a second or two, reuses a connection the server
 * already timed out, and its request meets a reset (ECONNRESET) instead of an answer or a 503.
 */
const KEEP_ALIVE_SECONDS = 65;
/** Seconds a refused client is asked to wait before trying again. */
const RETRY_AFTER_SECONDS = 1;
/** A body is buffered up to this size and sent with a Content-Length; longer ones are streamed (chunked). */
const BUFFERED_BODY = 1024 * 1024;
/** Methods a Web Request cannot carry (the Request constructor throws on them). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * A read_tl body is received whole before its request asks for a place in the queue: a client
 * sending a byte at a time would otherwise hold one of the few places for as long as it drips,
 * and a few of them stall every /api/ request. Receiving holds no place, but has its limits:
 * this many seconds for the whole body (then a 408), at most this many bodies at once (then a
 * 503), and bytes past the handler's limit are not kept (it answers 413 at once).
 */
const BODY_SECONDS = 30;
const RECEIVING_BODIES = 256;

/**
 * An answer is written after its request has left its place among the 4 + 128: a client that
 * never reads (four of them asking for a large bulk file once stalled every /api/ request) holds
 * no place. Writing has its limits instead: a write that makes no progress for this many seconds
 * ends the connection (the status is sent by then), and at most this many answers are written at
 * once (beyond them a request is refused at once with a 503).
 */
const WRITE_STALL_SECONDS = 30;
const WRITING_ANSWERS = 256;
/** Bytes handed to the socket at a time: each must be taken within the stall time, so a slow reader that reads is never cut off. */
const WRITE_SLICE = 64 * 1024;

/** A body that did not arrive in time: refused, and the connection closed (the rest may never come). */
const tooSlow = (seconds: number) => new HttpError(408, `request body not received within ${seconds} s`, { connection: 'close' });

/**
 * The body of `req`, whole, or its first bytes past MAX_READ_TL_BYTES (the handler refuses
 * those); rejects after `seconds`, or as soon as the client goes away (`res` closes).
 */
function receiveBody(req: UnionRequest, res: ServerResponse, seconds: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    let open = true;
    const finish = (result: () => void) => {
      if (!open) return;
      open = false;
      clearTimeout(timer);
      result();
    };
    const timer = setTimeout(() => finish(() => reject(tooSlow(seconds))), seconds * 1000);
    res.once('close', () => finish(() => reject(tooSlow(seconds))));
    req.on('data', (chunk: Buffer<ArrayBuffer>) => {
      if (!open) return; // drained: a body past the limit, or after the deadline
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_READ_TL_BYTES) finish(() => resolve(new Blob(chunks)));
    });
    req.on('end', () => finish(() => resolve(new Blob(chunks))));
    req.buffer = false;
  });
}

/** The request for the edge handler, with `body` (read_tl's); any other body is drained unread (union would otherwise keep every byte of it). */
function webRequest(req: UnionRequest, body: Blob | null): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of [value ?? []].flat()) headers.append(name, v);
  }
  if (!body) req.buffer = false; // chunks go to no listener: drained, never kept
  return new Request(new URL(req.url, 'http://127.0.0.1'), { method: req.method, headers, body });
}

/** How an answer is written: released when it stops taking a place among the running requests; `stallMs` without progress ends it. */
interface Writing {
  /** Called once the answer is computed and about to be written: frees its place among the running requests. */
  release?: () => void;
  stallMs: number;
}

/**
 * Resolves once `res` has taken what it was given (`event`: drain, or finish after the end) or the
 * client has gone away; a socket that takes nothing for `stallMs` is destroyed, and resolves too.
 */
const progressed = (res: ServerResponse, event: 'drain' | 'finish', stallMs: number) => new Promise<void>((resolve) => {
  if (res.destroyed || (event === 'finish' && res.writableFinished)) return resolve();
  const done = () => {
    clearTimeout(timer);
    res.off(event, done);
    res.off('close', done);
    resolve();
  };
  const timer = setTimeout(() => {
    res.destroy(); // 'close' follows: done
  }, stallMs);
  res.on(event, done);
  res.on('close', done);
});

/** Writes `chunk` a slice at a time, each taken by the socket within the stall time; false once the connection is gone. */
async function write(res: ServerResponse, chunk: Uint8Array, stallMs: number): Promise<boolean> {
  for (let at = 0; at < chunk.length && !res.destroyed; at += WRITE_SLICE) {
    if (!res.write(chunk.subarray(at, at + WRITE_SLICE))) await progressed(res, 'drain', stallMs);
  }
  return !res.destroyed;
}

/**
 * Writes a Web response to Node's: a short body with its Content-Length, a long one (a
 * streamed answer) chunk by chunk as the socket takes it, so no more than a chunk or two of
 * it is in memory; a client that goes away cancels the rest. An answer to HEAD says the
 * Content-Length its GET would (the response's own, else the body's when it is short, else none).
 */
async function send(res: ServerResponse, response: Response, head: boolean, { release, stallMs }: Writing): Promise<void> {
  const headers: Record<string, string | number> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const reader = response.body?.getReader();
  const start: Uint8Array[] = [];
  let size = 0;
  let ended = !reader;
  while (!ended && size <= BUFFERED_BODY) {
    const { done, value } = await reader!.read();
    if (done) ended = true;
    else size += start[start.push(value) - 1].length;
  }
  // 204 and 304 have no body, and a Content-Length would describe one; a HEAD keeps the length its response declares.
  const declared = head && response.headers.has('content-length');
  if (ended && !declared && response.status !== 204 && response.status !== 304) headers['content-length'] = size;
  release?.();
  res.writeHead(response.status, headers);
  if (head) {
    await reader?.cancel();
    res.end();
    return progressed(res, 'finish', stallMs);
  }
  for (const chunk of start) if (!(await write(res, chunk, stallMs))) break;
  while (!ended && !res.destroyed) {
    const { done, value } = await reader!.read();
    if (done) ended = true;
    else await write(res, value, stallMs);
  }
  if (!ended) await reader!.cancel();
  if (res.destroyed) return;
  res.end();
  await progressed(res, 'finish', stallMs);
}

/** The site as one request sees it: the version published when it began (a build that publishes meanwhile never mixes in). */
function siteReader(dir: string): () => Promise<EdgeSite> {
  const cache = fileCache();
  // What the edge keeps between requests: long parses only, each checked against its file's text
  // before use, since the folder is rebuilt in place (not immutable).
  const kept = edgeKept();
  return async () => {
    const root = await currentVersion(dir);
    return { read: diskReader(root, cache), readBytes: diskBytesReader(root, cache), kept };
  };
}

/** Receives read_tl bodies before admission (see BODY_SECONDS), at most RECEIVING_BODIES at once. */
function bodyReceiver(bodySeconds: number): (req: UnionRequest, res: ServerResponse) => Promise<Blob> {
  let receiving = 0;
  return async (req, res) => {
    if (receiving >= RECEIVING_BODIES) {
      req.buffer = false;
      // The body is drained as it comes, the connection kept: a refusal is a JSON 503, never a reset.
      throw new HttpError(503, `server busy: ${RECEIVING_BODIES} request bodies arriving at once; retry after ${RETRY_AFTER_SECONDS} s`, { 'retry-after': String(RETRY_AFTER_SECONDS) });
    }
    receiving++;
    try {
      return await receiveBody(req, res, bodySeconds);
    } finally {
      receiving--;
    }
  };
}

/** The route a URL asks for, with a query in the path (/api/v1;a=b/read_tl) read as the edge reads it; a malformed one is the handler's to refuse. */
function askedPath(url: URL): string {
  try {
    return withPathQuery(url).pathname;
  } catch {
    return url.pathname;
  }
}

/**
 * Whether http-server would serve, for the path `pathname` outside /api/, a file whose real path
 * leaves the site (a link inside it that leads out): the path itself, or the index.html of the
 * folder it names. An absent path is left to http-server (its 404).
 */
async function leavesSite(root: string, pathname: string): Promise<boolean> {
  const realRoot = await currentVersion(root);
  const target = path.join(root, decodeURIComponent(pathname));
  for (const file of [target, path.join(target, 'index.html')]) {
    const real = await fs.realpath(file).catch(() => null);
    if (real !== null && real !== realRoot && !real.startsWith(realRoot + path.sep)) return true;
  }
  return false;
}

/** The answer to a path outside /api/ that names no file of the site: the site's 404.html, as http-server answers one. */
async function notFoundPage(root: string, res: ServerResponse): Promise<void> {
  const page = await diskReader(await currentVersion(root))('404.html');
  res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', ...staticHeaders('/') });
  res.end(page ?? 'Not Found');
}

/** How long a server waits for a client: a read_tl body to arrive, a write to make progress (docs/limits.md). */
interface Patience {
  bodySeconds: number;
  writeStallSeconds: number;
}

function siteMiddleware(root: string, siteNow: () => Promise<EdgeSite>, admission: Admission, { bodySeconds, writeStallSeconds }: Patience): Middleware {
  const receive = bodyReceiver(bodySeconds);
  const stallMs = writeStallSeconds * 1000;
  /** Answers being written (each after its place among the running requests was freed). */
  let writing = 0;
  const refuse = (res: ServerResponse, error: HttpError, head: boolean) => send(res, errorResponse(error), head, { stallMs });
  const respond = async (req: UnionRequest, res: UnionResponse, next: () => void) => {
    const head = req.method === 'HEAD';
    let pathname: string;
    let asked: string;
    try {
      // Checked before URL parsing, which would silently resolve `..` segments.
      checkSitePath(req.url.split('?')[0]);
      if (FORBIDDEN_METHODS.has(req.method)) throw methodNotAllowed(req.method, 'GET, HEAD, POST, OPTIONS');
      const url = new URL(req.url, 'http://127.0.0.1');
      pathname = url.pathname;
      asked = askedPath(url);
    } catch (error) {
      req.buffer = false;
      return refuse(res.response, error as HttpError, head);
    }
    if (!pathname.startsWith('/api/')) {
      req.buffer = false; // a body sent with a static file's request is drained, never kept
      // http-server follows links: one inside the site that leads out of it names no file of the site (it serves only GET and HEAD).
      if ((req.method === 'GET' || req.method === 'HEAD') && (await leavesSite(root, pathname))) return notFoundPage(root, res.response);
      return next();
    }
    let body: Blob | null = null;
    try {
      if (req.method === BODY_ROUTE.method && asked === BODY_ROUTE.path) body = await receive(req, res.response);
    } catch (error) {
      if (res.response.destroyed) return; // the client went away while sending
      return refuse(res.response, error as HttpError, head);
    }
    const request = webRequest(req, body);
    if (writing >= WRITING_ANSWERS) {
      return refuse(res.response, new HttpError(503, `server busy: ${WRITING_ANSWERS} answers being written at once; retry after ${RETRY_AFTER_SECONDS} s`, { 'retry-after': String(RETRY_AFTER_SECONDS) }), head);
    }
    const leave = await admission.enter((leave) => res.response.once('close', leave));
    if (!leave) {
      if (res.response.destroyed) return;
      return refuse(res.response, new HttpError(503, `server busy: more than ${admission.running + admission.waiting} requests at once; retry after ${RETRY_AFTER_SECONDS} s`, { 'retry-after': String(RETRY_AFTER_SECONDS) }), head);
    }
    res.response.once('close', leave);
    let written = false;
    try {
      const site = await siteNow();
      const response = (await handleRequest(request, site))
        // Static API files get validators too, as Netlify's static files do.
        ?? await staticApiFile(site, request, pathname);
      // Once computed, the answer is written outside the running requests' places: a client that does not read holds none.
      const release = () => {
        leave();
        writing++;
        written = true;
      };
      return await send(res.response, response, head, { release, stallMs });
    } finally {
      leave();
      if (written) writing--;
    }
  };
  return (req, res, next) => {
    respond(req, res, next).catch((error) => {
      // A streamed answer that fails before its first byte is sent (a damaged bulk part: a 502) gets its error as the answer.
      if (!(error instanceof HttpError)) console.error(error);
      if (!res.response.headersSent) void refuse(res.response, error instanceof HttpError ? error : new HttpError(500, 'internal error'), false);
      else res.response.destroy();
    });
  };
}

/**
 * A request Node's parser refuses (a URL or headers over 16 KiB, malformed HTTP) still
 * gets a JSON error with the CORS header, as every other error does.
 */
async function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): Promise<void> {
  if (!socket.writable) return void socket.destroy();
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 414 : 400;
  const response = errorResponse(new HttpError(status, status === 414 ? 'request URL or headers too long (over 16 KiB)' : 'malformed request'));
  const body = Buffer.from(await response.arrayBuffer());
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`];
  response.headers.forEach((value, name) => head.push(`${name}: ${value}`));
  socket.end(Buffer.concat([Buffer.from(`${[...head, `content-length: ${body.length}`, 'connection: close'].join('\r\n')}\r\n\r\n`), body]));
}

/**
 * union (http-server's server) reads and assigns `res._headers` and `res._headerNames` on
 * every response, and Node warns that those fields are deprecated (DEP0066). Fields of
 * the same names on the response itself, set before union sees it, take those accesses:
 * union keeps objects of its own there (it never reads them back), the headers live where
 * Node keeps them, and Node has nothing to warn about.
 */
export function shadowLegacyHeaderFields(_request: unknown, response: ServerResponse): void {
  for (const name of ['_headers', '_headerNames']) Object.defineProperty(response, name, { value: undefined, writable: true });
}

/**
 * Serves `dir` on 127.0.0.1:`port` (0: any free port); `bodySeconds`: the time a read_tl body may
 * take to arrive; `writeStallSeconds`: the time a write of an answer may make no progress.
 */
export function startServer(dir: string, port: number, { bodySeconds = BODY_SECONDS, writeStallSeconds = WRITE_STALL_SECONDS } = {}): Promise<RunningServer> {
  const root = path.resolve(dir);
  const server = createServer({
    root,
    before: [siteMiddleware(root, siteReader(root), new Admission(RUNNING_REQUESTS, WAITING_REQUESTS), { bodySeconds, writeStallSeconds })],
    // http-server adds these to every file it serves; only the site-wide rule matches outside /api/.
    headers: staticHeaders('/'),
    cache: 0,
    showDir: 'false',
  });
  server.server.keepAliveTimeout = KEEP_ALIVE_SECONDS * 1000;
  server.server.on('clientError', (error, socket) => void answerClientError(error, socket));
  server.server.prependListener('request', shadowLegacyHeaderFields);
  return new Promise((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${actual}/`,
        close: () => new Promise((done) => {
          server.server.close(() => done());
          server.server.closeAllConnections();
        }),
      });
    });
  });
}
