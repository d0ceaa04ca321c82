/**
 * The local server (`npm start`): http-server serving a published folder on 127.0.0.1,
 * with the edge handler mounted in front as a `before` middleware and the same static
 * rules and headers as netlify.toml (edge/rewrites.ts), so it answers like Netlify does.
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer, type Middleware, type UnionRequest, type UnionResponse } from 'http-server';
import { handleRequest, type EdgeSite } from '../edge/handler.ts';
import { HttpError, errorResponse, withETag } from '../edge/http.ts';
import { checkSitePath } from '../edge/guard.ts';
import { firstRule, staticHeaders } from '../edge/rewrites.ts';
import { paths } from '../format.ts';
import { diskReader } from './diskSite.ts';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The request body as a Web stream: union buffers it, and replays it once `buffer` is switched off. */
function bodyStream(req: UnionRequest): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream({
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
}

function webRequest(req: UnionRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of [value ?? []].flat()) headers.append(name, v);
  }
  const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(req.method);
  return new Request(new URL(req.url, 'http://127.0.0.1'), {
    method: req.method,
    headers,
    body: hasBody ? bodyStream(req) : undefined,
    duplex: 'half',
  } as RequestInit);
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

/** A static file under /api/ as Netlify serves it: the file, else the first matching rule, else the JSON 404. */
async function staticApi(site: EdgeSite, pathname: string): Promise<Response> {
  const serve = (text: string, status: number) => new Response(text, { status, headers: staticHeaders(pathname) });
  const direct = await site.read(pathname.slice(1));
  if (direct !== null) return serve(direct, 200);
  const match = firstRule(pathname);
  const target = match ? await site.read(match.target.slice(1)) : null;
  if (match && target !== null) return serve(target, match.rule.status);
  const notFound = await site.read(paths.notFound());
  return notFound === null ? errorResponse(new HttpError(404, 'not found')) : serve(notFound, 404);
}

function siteMiddleware(site: EdgeSite): Middleware {
  const respond = async (req: UnionRequest, res: UnionResponse, next: () => void) => {
    const head = req.method === 'HEAD';
    try {
      // Checked before URL parsing, which would silently resolve `..` segments.
      checkSitePath(req.url.split('?')[0]);
    } catch (error) {
      return send(res, errorResponse(error as HttpError), head);
    }
    const request = webRequest(req);
    const pathname = new URL(request.url).pathname;
    const response = (await handleRequest(request, site))
      // Static API files get validators too, as Netlify's static files do.
      ?? (pathname.startsWith('/api/') ? await withETag(request, await staticApi(site, pathname)) : null);
    return response ? send(res, response, head) : next();
  };
  return (req, res, next) => {
    respond(req, res, next).catch((error) => {
      console.error(error);
      void send(res, errorResponse(new HttpError(500, 'internal error')), false);
    });
  };
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
