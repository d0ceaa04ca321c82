/**
 * Which requests a host answers from its files without running code, derived from the
 * endpoint declarations: every path at which the build publishes a file. Hosts route by
 * path (never by query), so these are what the host configurations name:
 * - Netlify: the edge function's `excludedPath` (URLPattern syntax), written into
 *   generator/hosts/netlify/runtime/edge-functions/api.ts by `npm run docs` (Netlify reads that file's config as a
 *   literal, without running it; a test checks it is current);
 * - Cloudflare Pages: `_routes.json`'s `exclude` (prefix globs), for folders in which every
 *   request is a plain file read;
 * - a Cloudflare Worker with static assets: a matching file is served before any code, so
 *   `run_worker_first` names the few paths that must run it (workerFirstPaths).
 * Everything else under /api/ (comma lists, generic objects, search, random, happening,
 * read_tl, the bulk downloads' own URLs, the query in the path, the JSON 404) runs the edge.
 */
import { CONTENT_TYPES, NOT_FOUND_FILE, allEndpoints, contentTypeOf, type Endpoint, type PathParameter } from './endpoints.ts';

/** The cache policy of every /api/ answer: a cache may keep it, but asks again each time (ETags make that cheap). */
export const REVALIDATE = 'public, max-age=0, must-revalidate';

/** The paths the edge may answer (Netlify's function path, Cloudflare's worker route): the API. */
export const EDGE_PATH = '/api/*';

/** Path parameters that name one object by a canonical decimal id (a leading zero, or a list, needs the edge). */
const ID_PARAMETERS = new Set(['ids', 'ordinals', 'pair_id']);
const CANONICAL_ID = '0|[1-9]\\d*';

/** The URLPattern of a path template: an id parameter a canonical id, one with declared values one of them, any other one segment part. */
function urlPattern(template: string, parameters: readonly PathParameter[]): string {
  const values = (name: string) => parameters.find((p) => p.name === name)?.values;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (ID_PARAMETERS.has(name)) return `:${name}(${CANONICAL_ID})`;
    return values(name) ? `:${name}(${values(name)!.join('|')})` : `:${name}`;
  });
}

const hasExtension = (route: string) => /\.\w+$/.test(route.split('/').pop()!);

/** The path templates at which an endpoint publishes files: its file, and the extensionless route where the build copies it there. */
function filePaths(endpoint: Endpoint): string[] {
  if (!endpoint.file) return [];
  const file = `/${endpoint.file(...(endpoint.route.match(/\{\w+\}/g) ?? []))}`;
  const idParameter = endpoint.parameters.some((p) => ID_PARAMETERS.has(p.name));
  return hasExtension(endpoint.route) || idParameter ? [file] : [...new Set([endpoint.route, file])];
}

/** Netlify's `excludedPath`: every published file's path pattern, so a plain read of it runs no edge function; but the files that take a query on their path. */
export function netlifyExcludedPaths(): string[] {
  return [...new Set(allEndpoints().filter((e) => !e.queryOnFile).flatMap((e) => filePaths(e).map((path) => urlPattern(path, e.parameters))))].sort();
}

/**
 * The methods besides GET and HEAD that Netlify's declarations can name (`method`): on the paths
 * `excludedPath` keeps from the edge function, Netlify's static layer answered them with a bare
 * text 405 (`Method Not Allowed`), where every other host answers the JSON 405 (and OPTIONS the
 * CORS preflight). A second declaration (generator/hosts/netlify/runtime/edge-functions/methods.ts, written by `npm run
 * docs`) runs the function for them on those paths. Netlify's declarations name no other method
 * (PROPFIND, TRACE...): its static layer answers those.
 */
export const NETLIFY_OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * A Worker with static assets' `run_worker_first` (wrangler.json, written by `npm run docs`):
 * the API's index path and its JSON 404 file, which only the worker may answer, and the folders
 * of the files that take a query on their path (a matching file would be served before the worker).
 */
export function workerFirstPaths(): string[] {
  const queried = allEndpoints().filter((e) => e.queryOnFile).map((e) => `${e.route.slice(0, e.route.lastIndexOf('/') + 1)}*`);
  return ['/api/', `/${NOT_FOUND_FILE}`, ...new Set(queried)];
}

/** The folder of a route before its first parameter, as a Pages glob (`/api/v1/pack/*`), or the route itself when it has none. */
const folderGlob = (route: string) => (route.includes('{') ? `${route.slice(0, route.lastIndexOf('/', route.indexOf('{')) + 1)}*` : route);

/** An endpoint's folder globs: one per value of a leading folder parameter with declared values (`/api/v1/history/card/*`, ...), else folderGlob's. */
function folderGlobs(endpoint: Endpoint): string[] {
  const first = /\{(\w+)\}/.exec(endpoint.route);
  const values = first && endpoint.route.indexOf('/', first.index) >= 0 ? endpoint.parameters.find((p) => p.name === first[1])?.values : undefined;
  return values ? values.map((value) => folderGlob(endpoint.route.replace(first![0], value))) : [folderGlob(endpoint.route)];
}
/** Whether a request of the endpoint may need code: an edge route, an id list, or query parameters. */
const mayRunCode = (endpoint: Endpoint) => endpoint.host !== 'static' || endpoint.query.length > 0;

/**
 * Cloudflare Pages' `_routes.json`: the worker for /api/, but not for folders (or files) whose
 * every request is a plain file read (packs, history, changes, bulk parts, the search index...).
 * A glob is kept only when no endpoint that may run code lives under it.
 */
export function pagesRoutes(apiPath: string): { version: 1; include: string[]; exclude: string[] } {
  const endpoints = allEndpoints();
  const coded = endpoints.filter(mayRunCode).map((e) => e.route);
  const globs = endpoints.filter((e) => !mayRunCode(e)).flatMap(folderGlobs);
  const kept = [...new Set(globs)].filter((glob) => !glob.endsWith('*') || !coded.some((route) => route.startsWith(glob.slice(0, -1))));
  const folders = kept.filter((glob) => glob.endsWith('*')).map((glob) => glob.slice(0, -1));
  const exclude = kept.filter((glob) => glob.endsWith('*') || !folders.some((folder) => glob.startsWith(folder)));
  return { version: 1, include: [apiPath], exclude: exclude.sort() };
}

/** A header block of `_headers` that gives the files it matches their media type. */
interface TypeBlock {
  /** An exact path, or a folder glob (`/api/v1/pack/*`). */
  for: string;
  type: string;
}

/** The paths of a template whose parameters all have declared values; a bug when some has none. */
function enumerated(template: string, parameters: readonly PathParameter[]): string[] {
  return parameters.reduce((paths, parameter) => {
    if (!parameter.values) throw new Error(`${template}: its files share a folder with files of another media type; declare the values of {${parameter.name}}`);
    return paths.flatMap((p) => parameter.values!.map((value) => p.replace(`{${parameter.name}}`, value)));
  }, [template]);
}

/**
 * The media type of every published file as `_headers` blocks: a folder glob where every file
 * under it has one type, else each path. No path matches two blocks, since Netlify joins the
 * values of every matching block into one header.
 */
function contentTypeBlocks(): TypeBlock[] {
  const files = [
    ...allEndpoints().flatMap((endpoint) => filePaths(endpoint).map((template) => ({ template, parameters: endpoint.parameters, type: contentTypeOf(endpoint) }))),
    { template: `/${NOT_FOUND_FILE}`, parameters: [], type: CONTENT_TYPES.json },
  ];
  const blocks = new Map<string, string>();
  for (const { template, parameters, type } of files) {
    const glob = folderGlob(template);
    const mixed = glob.endsWith('*') && files.some((other) => other.type !== type && other.template.startsWith(glob.slice(0, -1)));
    for (const pattern of mixed ? enumerated(template, parameters) : [glob]) blocks.set(pattern, type);
  }
  const globs = [...blocks.keys()].filter((pattern) => pattern.endsWith('*')).map((pattern) => pattern.slice(0, -1));
  const covered = (pattern: string) => globs.some((folder) => pattern !== `${folder}*` && pattern.startsWith(folder));
  return [...blocks].filter(([pattern]) => !covered(pattern)).map(([pattern, type]) => ({ for: pattern, type })).sort((a, b) => a.for.localeCompare(b.for));
}

/**
 * The static host's rules in Netlify's redirect syntax (`_redirects`). Every route that can be a
 * file is one (emit in render/files.ts), so the only rule left is the JSON 404 for unknown /api/
 * paths. Cloudflare knows no status 404 in rules and skips this one with a warning; its worker
 * answers unknown /api/ paths itself, from the same list.
 */
export interface StaticRule {
  from: string;
  to: string;
  status: 200 | 404;
}

export const STATIC_RULES: readonly StaticRule[] = [
  { from: EDGE_PATH, to: `/${NOT_FOUND_FILE}`, status: 404 },
];

/**
 * Headers the host adds to static files (`_headers`; the edge handler sets its own): CORS on
 * every file, the revalidating cache policy under /api/, and each published file's media type
 * (contentTypeBlocks). The patterns do not repeat a header: Netlify would join two
 * matching values into one.
 */
export const STATIC_HEADERS: readonly { for: string; values: Readonly<Record<string, string>> }[] = [
  { for: '/*', values: { 'Access-Control-Allow-Origin': '*' } },
  { for: '/api/*', values: { 'Cache-Control': REVALIDATE } },
  ...contentTypeBlocks().map((block) => ({ for: block.for, values: { 'Content-Type': block.type } })),
];

