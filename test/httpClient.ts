/**
 * A client for the hosts the tests run as servers: `fetch(path, init)` over HTTP/1.1 on kept-alive
 * connections, answering a Web Response whose body is read whole. node:http, not fetch: fetch
 * (undici) closes its connection after every HEAD, and its steps cost the test process more CPU
 * than the request itself; the route suite sends thousands (fetch: 1.3 s more of its CPU). It asks for no content coding (as
 * curl does not), so a host sends its bytes as they are, not compressed for the client to undo.
 * Like fetch, it follows redirects unless `init.redirect` says otherwise.
 */
import http from 'node:http';

export interface HttpClient {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Closes the kept connections. */
  close(): void;
}

/** Statuses whose answer has no body (RFC 9110), whatever the headers say. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Redirects fetch follows before it gives up. */
const MAX_REDIRECTS = 20;

/** `method` of `url` sent once on a connection of `agent`, its answer read whole. */
function send(agent: http.Agent, url: URL, method: string, headers: Headers, body: string | undefined, signal: AbortSignal | undefined): Promise<Response> {
  const outgoing: Record<string, string> = {};
  headers.forEach((value, name) => (outgoing[name] = value));
  return new Promise((resolve, reject) => {
    const request = http.request(url, { agent, method, headers: outgoing, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answer = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) answer.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        const status = res.statusCode!;
        const content = method === 'HEAD' || NO_BODY.has(status) ? null : Buffer.concat(chunks);
        resolve(new Response(content, { status, statusText: res.statusMessage, headers: answer }));
      });
    });
    request.on('error', (error) => reject(Object.assign(error, { reusedSocket: request.reusedSocket })));
    request.end(body);
  });
}

export function httpClient(base: URL): HttpClient {
  const agent = new http.Agent({ keepAlive: true });
  /** A request sent once more where the kept connection it went out on was closed by the server meanwhile (node's advice for keep-alive). */
  const answer = (url: URL, method: string, headers: Headers, body: string | undefined, signal: AbortSignal | undefined) =>
    send(agent, url, method, headers, body, signal).catch((error: NodeJS.ErrnoException & { reusedSocket: boolean }) => {
      if (error.reusedSocket && error.code === 'ECONNRESET') return send(agent, url, method, headers, body, signal);
      throw error;
    });
  return {
    async fetch(path, init = {}) {
      let url = new URL(path, base);
      let method = (init.method ?? 'GET').toUpperCase();
      const headers = new Headers(init.headers);
      if (init.body != null && typeof init.body !== 'string') throw new Error('httpClient: a request body is a string');
      let body = init.body ?? undefined;
      // As fetch labels a string body.
      if (body !== undefined && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
      const signal = init.signal ?? undefined;
      for (let redirects = 0; ; redirects++) {
        const response = await answer(url, method, headers, body, signal);
        const location = response.headers.get('location');
        if (!REDIRECTS.has(response.status) || !location || init.redirect === 'manual') return response;
        if (init.redirect === 'error' || redirects === MAX_REDIRECTS) throw new TypeError(`httpClient: redirected from ${url}`);
        url = new URL(location, url);
        // As fetch: a 303, or a 301 or 302 of a POST, is followed by a GET without the body.
        if (response.status === 303 ? method !== 'HEAD' : [301, 302].includes(response.status) && method === 'POST') {
          method = 'GET';
          body = undefined;
          headers.delete('content-type');
        }
      }
    },
    close: () => agent.destroy(),
  };
}
