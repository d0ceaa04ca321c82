/**
 * The local server (`npm start`): http-server serving a published folder on 127.0.0.1,
 * with the edge handler mounted in front as a `before` middleware and the static rules and
 * headers derived from the endpoint declarations (edge/rewrites.ts), so it answers like Netlify does.
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { createServer, type Middleware, type UnionRequest, type UnionResponse } from 'http-server';
import { handleRequest, type EdgeSite } from '../edge/handler.ts';
import { HttpError, errorResponse, methodNotAllowed } from '../edge/http.ts';
import { staticApiFile } from '../edge/staticHost.ts';
import { checkSitePath } from '../edge/guard.ts';
import { staticHeaders } from '../edge/rewrites.ts';
import { endpoints } from '../contract/endpoints.ts';
import { diskReader } from './diskSite.ts';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The one route that takes a body (declared as a POST; the edge handler caps it at 1 MiB). */
const BODY_ROUTE = { method: endpoints.readTl.method.toUpperCase(), path: endpoints.readTl.route };
/** Methods a Web Request cannot carry (the Request constructor throws on them). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The request body as a Web stream: union buffers it, and replays it once `buffer` is
 * switched off. `close()` drops whatever arrives after the response (a body the handler
 * did not read to its end).
 */
function bodyStream(req: UnionRequest): { stream: ReadableStream<Uint8Array>; close(): void } {
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => open && controller.enqueue(new Uint8Array(chunk)));
      req.on('end', () => {
        if (open) controller.close();
        open = false;
      });
      req.buffer = false;
    },
    cancel() {
      open = false;
    },
  });
  return { stream, close: () => (open = false) };
}

/**
 * The request for the edge handler. Only read_tl gets its body; any other body is
 * drained unread (union would otherwise keep every byte of it in memory).
 */
function webRequest(req: UnionRequest, pathname: string): { request: Request; done(): void } {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of [value ?? []].flat()) headers.append(name, v);
  }
  const body = req.method === BODY_ROUTE.method && pathname === BODY_ROUTE.path ? bodyStream(req) : null;
  if (!body) req.buffer = false; // chunks go to no listener: drained, never kept
  const request = new Request(new URL(req.url, 'http://127.0.0.1'), {
    method: req.method,
    headers,
    body: body?.stream,
    duplex: 'half',
  } as RequestInit);
  return { request, done: () => body?.close() };
}

async function send(res: UnionResponse, response: Response, head: boolean): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | number> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  // 204 and 304 have no body, and a Content-Length would describe one.
  if (response.status !== 204 && response.status !== 304) headers['content-length'] = body.length;
  res.writeHead(response.status, headers);
  res.end(head || !body.length ? undefined : body);
}

function siteMiddleware(site: EdgeSite): Middleware {
  const respond = async (req: UnionRequest, res: UnionResponse, next: () => void) => {
    const head = req.method === 'HEAD';
    try {
      // Checked before URL parsing, which would silently resolve `..` segments.
      checkSitePath(req.url.split('?')[0]);
      if (FORBIDDEN_METHODS.has(req.method)) throw methodNotAllowed(req.method, 'GET, HEAD, POST, OPTIONS');
    } catch (error) {
      req.buffer = false;
      return send(res, errorResponse(error as HttpError), head);
    }
    const pathname = new URL(req.url, 'http://127.0.0.1').pathname;
    const { request, done } = webRequest(req, pathname);
    try {
      const response = (await handleRequest(request, site))
        // Static API files get validators too, as Netlify's static files do.
        ?? (pathname.startsWith('/api/') ? await staticApiFile(site, request, pathname) : null);
      return response ? await send(res, response, head) : next();
    } finally {
      done();
    }
  };
  return (req, res, next) => {
    respond(req, res, next).catch((error) => {
      console.error(error);
      void send(res, errorResponse(new HttpError(500, 'internal error')), false);
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

/** Serves `dir` on 127.0.0.1:`port` (0: any free port). */
export function startServer(dir: string, port: number): Promise<RunningServer> {
  const root = path.resolve(dir);
  const site: EdgeSite = { read: diskReader(root) };
  const server = createServer({
    root,
    before: [siteMiddleware(site)],
    // http-server adds these to every file it serves; only the site-wide rule matches outside /api/.
    headers: staticHeaders('/'),
    cache: 0,
    showDir: 'false',
  });
  server.server.on('clientError', (error, socket) => void answerClientError(error, socket));
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
