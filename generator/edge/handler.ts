/**
 * The edge handler: answers what depends on the request (comma lists, random, query
 * parameters, generic objects, happening, read_tl, CORS preflight, method and path errors)
 * from the published files, using only Web-standard APIs so Netlify's edge runtime and
 * the local server run the same code. Returns null for a plain static file, which the
 * host then serves with its rewrites and headers (Netlify: continue the chain).
 *
 * Every path this handler reads is itself such a plain static file, so on Netlify, where
 * reads are fetches that pass through the edge function again, they never recurse.
 */
import { endpoints, isObjectType } from '../contract/endpoints.ts';
import { HttpError, errorResponse, jsonResponse, methodNotAllowed, preflight, withETag } from './http.ts';
import { checkSitePath } from './guard.ts';
import { isCanonicalId, parseIds } from './ids.ts';
import { applyShaping, isYes, parseShaping, type Shaping } from './query.ts';
import { genericObjects, objectList, objectListing, randomCard, type ListedKind } from './objects.ts';
import { happeningAt, parseInstant } from './happening.ts';
import { readTl } from './readTl.ts';
import { firstRule } from './rewrites.ts';
import type { EdgeSite } from './site.ts';

export type { EdgeSite, ReadFile } from './site.ts';

const NO_STORE = { 'cache-control': 'no-store' };
/** Published files beside the id files of card/, which are not ids. */
const FOLDER_FILES = new Set([endpoints.setList.file()]);
const READ_METHODS = 'GET, HEAD, OPTIONS';
/** Longer request URLs are refused (a list of 1,000 ids takes about 10,000 characters). */
const MAX_URL_LENGTH = 32 * 1024;

interface Route {
  url: URL;
  /** Path segments after /api/v1/. */
  segments: string[];
  site: EdgeSite;
  /** Parsed before anything is read. */
  shaping: Shaping;
}

/** JSON of a route, shaped by the request's query parameters. */
function answer(route: Route, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonResponse(applyShaping(body, route.shaping), 200, headers);
}

const hasQuery = (route: Route) => route.url.search !== '';

/** A published file read with the host's rewrites, for static paths asked with query parameters. */
async function staticWithQuery(route: Route): Promise<Response> {
  const path = route.url.pathname;
  const rule = firstRule(path);
  const candidates = [path, ...(rule?.rule.status === 200 ? [rule.target] : [])];
  for (const candidate of candidates) {
    const text = await route.site.read(candidate.slice(1));
    if (text !== null) return answer(route, JSON.parse(text));
  }
  throw new HttpError(404, `not found: ${path}`);
}

/** /api/v1/card/<name>.json and /api/v1/accessory/<name>.json: a published file, or a list the edge merges. */
async function listedFile(route: Route, kind: ListedKind, name: string): Promise<Response | null> {
  if (kind === 'card' && name === 'random') return answer(route, await randomCard(route.site), NO_STORE);
  if (FOLDER_FILES.has(`api/v1/${kind}/${name}.json`)) return hasQuery(route) ? staticWithQuery(route) : null;
  const ids = parseIds(name);
  if (isCanonicalId(name, ids) && !hasQuery(route)) return null;
  return answer(route, await objectList(route.site, kind, ids));
}

/**
 * /api/v1/<type>/<ids>: one result entry per id, null for a missing one, always 200. The
 * published file /api/v1/<type>/<id>.json is served as it is.
 */
async function generic(route: Route, type: string, name: string): Promise<Response | null> {
  if (!isObjectType(type)) throw new HttpError(400, `unknown object type "${type.slice(0, 40)}"`);
  const file = name.endsWith('.json') ? name.slice(0, -'.json'.length) : null;
  const ids = parseIds(file ?? name);
  if (file !== null && isCanonicalId(file, ids) && !hasQuery(route)) return null;
  return answer(route, await genericObjects(route.site, type, ids));
}

/** /api/v1/list/<type>: the published list; an unknown type is an empty list, never an error (seed 7.3). */
async function listing(route: Route, name: string): Promise<Response | null> {
  const type = name.replace(/\.json$/, '');
  if (isObjectType(type) && !hasQuery(route)) return null;
  return answer(route, await objectListing(route.site, type));
}

async function getRoute(route: Route): Promise<Response | null> {
  const [first, second, ...rest] = route.segments;
  const name = rest.length === 0 ? second : undefined;
  if (first === 'happening' && name !== undefined) {
    const extended = isYes(route.url.searchParams.getAll('extended_time_period_for_events').at(-1) ?? null);
    const body = await happeningAt(route.site, parseInstant(name, route.site), extended);
    return answer(route, body, name === 'now' ? NO_STORE : {});
  }
  if ((first === 'card' || first === 'accessory') && name?.endsWith('.json')) {
    return listedFile(route, first, name.slice(0, -'.json'.length));
  }
  if (first?.endsWith('_t') && name !== undefined) return generic(route, first, name);
  if (first === 'list' && name !== undefined) return listing(route, name);
  return hasQuery(route) ? staticWithQuery(route) : null;
}

async function dispatch(request: Request, url: URL, site: EdgeSite): Promise<Response | null> {
  const { method } = request;
  if (method === 'OPTIONS') return preflight(request);
  // Decoded, so an encoded comma (%2C) separates ids too; checkSitePath has vetted the decoding.
  const segments = url.pathname.startsWith('/api/v1/')
    ? url.pathname.slice('/api/v1/'.length).split('/').map(decodeURIComponent)
    : [];
  if (segments.join('/') === 'read_tl') {
    if (method !== 'POST') throw methodNotAllowed(method, 'POST, OPTIONS');
    return jsonResponse(await readTl(site, request));
  }
  if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(method, READ_METHODS);
  return getRoute({ url, segments, site, shaping: parseShaping(url.searchParams) });
}

/** The response to `request`, or null when the host should serve it as a static file. */
export async function handleRequest(request: Request, site: EdgeSite): Promise<Response | null> {
  const url = new URL(request.url);
  if (!url.pathname.startsWith('/api/')) return null;
  try {
    if (request.url.length > MAX_URL_LENGTH) throw new HttpError(414, `request URL is longer than ${MAX_URL_LENGTH} characters`);
    checkSitePath(url.pathname);
    return await withETag(request, await dispatch(request, url, site));
  } catch (error) {
    if (error instanceof HttpError) return errorResponse(error);
    console.error(error);
    return errorResponse(new HttpError(500, 'internal error'));
  }
}
