/**
 * Runs under Deno (`deno run test/hosts/denoEdge.ts <static origin>`): the Netlify edge
 * function in front of a static host, chained as Netlify chains them. A request on the
 * function's declared path (and none of its excluded paths) goes to the function first; when it returns undefined, the
 * request continues to the static host. The function's reads fetch this server's own
 * origin, so they pass through the same chain, as on Netlify. Prints "Edge at <url>".
 */
import api, { config } from '../../netlify/edge-functions/api.ts';

// Deno's globals, declared for the Node type check of this project (Deno itself does not check here).
declare const Deno: {
  args: string[];
  serve(
    options: { hostname: string; port: number; onListen(address: { hostname: string; port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};
declare const URLPattern: new (init: { pathname: string }) => { test(input: string): boolean };

const staticOrigin = Deno.args[0];
const route = new URLPattern({ pathname: config.path });
// As Netlify runs a function: on its path, unless an excluded path matches (a published file).
const excluded = config.excludedPath.map((pathname) => new URLPattern({ pathname }));
const runsFunction = (url: string) => route.test(url) && !excluded.some((pattern) => pattern.test(url));
/** How many requests ran the function: GET /__function_runs answers it (a path outside the site's). */
let runs = 0;

/** The request as it reaches the static host: same method, path, query and headers. */
function toStatic(request: Request): Promise<Response> {
  const url = new URL(request.url);
  return fetch(new URL(url.pathname + url.search, staticOrigin), { method: request.method, headers: request.headers, redirect: 'manual' });
}

Deno.serve(
  { hostname: '127.0.0.1', port: 0, onListen: ({ hostname, port }) => console.log(`Edge at http://${hostname}:${port}/`) },
  async (request) => {
    if (new URL(request.url).pathname === '/__function_runs') return new Response(String(runs));
    if (!runsFunction(request.url)) return toStatic(request);
    runs++;
    return (await api(request, { next: () => toStatic(request) })) ?? toStatic(request);
  },
);
