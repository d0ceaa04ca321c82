/**
 * Runs under Deno (`deno run test/denoEdge.ts <static origin>`): the Netlify edge
 * functions in front of a static host, chained as Netlify chains them. A request that a
 * function's declaration matches (its path or paths, none of its excluded paths, and its
 * methods when it names some) goes to that function; when it returns undefined, the request
 * continues to the next, then to the static host. The functions' reads fetch this server's own
 * origin, so they pass through the same chain, as on Netlify. Prints "Edge at <url>".
 */
import api, { config } from '../generator/hosts/netlify/runtime/edge-functions/api.ts';
import methods, { config as methodsConfig } from '../generator/hosts/netlify/runtime/edge-functions/methods.ts';

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

type EdgeFunction = (request: Request, context: { next(): Promise<Response> }) => Promise<Response | undefined>;
interface Declaration {
  path: string | readonly string[];
  excludedPath?: readonly string[];
  method?: readonly string[];
}

/** As Netlify runs a function: on one of its paths, unless an excluded path matches (a published file), for its methods when it names some. */
function declared(run: EdgeFunction, { path, excludedPath = [], method }: Declaration) {
  const paths = [path].flat().map((pathname) => new URLPattern({ pathname }));
  const excluded = excludedPath.map((pathname) => new URLPattern({ pathname }));
  const runsFor = (request: Request) => paths.some((pattern) => pattern.test(request.url)) && !excluded.some((pattern) => pattern.test(request.url))
    && (!method || method.includes(request.method));
  return { run, runsFor };
}

const FUNCTIONS = [declared(api, config), declared(methods, methodsConfig)];
/** How many requests ran a function: GET /__function_runs answers it (a path outside the site's). */
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
    const chain = FUNCTIONS.filter((f) => f.runsFor(request));
    if (chain.length) runs++;
    for (const { run } of chain) {
      const answer = await run(request, { next: () => toStatic(request) });
      if (answer) return answer;
    }
    return toStatic(request);
  },
);
