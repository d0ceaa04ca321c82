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
import { NOT_FOUND_FILE, OBJECT_TYPE_NAMES, allEndpoints, endpoints, isObjectType, objectEndpoint, packedPack, type Endpoint, type ObjectType } from '../../contract/endpoints.ts';
import { kindOfType, PACKED_KINDS, type PackedKind } from '../../contract/kinds.ts';
import { matchRoute, rawFileType } from './routes.ts';
import { HttpError, errorResponse, jsonPiecesResponse, jsonResponse, jsonTextResponse, methodNotAllowed, piecesText, preflight, ranCode, withETag, type JsonPieces } from './http.ts';
import { checkSitePath } from './guard.ts';
import { isCanonicalId, parseIds } from './ids.ts';
import { applyShaping, isPlain, isYes, parseShaping, type Shaping } from './query.ts';
import { genericObjects, objectList, objectListing, randomCard, readObjects, type ListedKind } from './objects.ts';
import { happeningAt, parseInstant } from './happening.ts';
import { readTl } from './readTl.ts';
import { bulkDownload } from './bulk.ts';
import { randomMatch, searchPage, type SearchKind } from './search.ts';
import { isEdgePath } from './rewrites.ts';
import { withPathQuery } from './pathQuery.ts';
import { staticApiFile } from './staticHost.ts';
import { historyOf, objectsAt } from './history.ts';
import { readBudget, readJson, type EdgeSite } from './siteReader.ts';

export type { EdgeSite } from './siteReader.ts';
export type { ReadFile } from '../../contract/siteRead.ts';

const NO_STORE = { 'cache-control': 'no-store' };
const READ_METHODS = 'GET, HEAD, OPTIONS';
/** Longer request URLs are refused (a list of 1,000 ids takes about 10,000 characters). */
const MAX_URL_LENGTH = 32 * 1024;

interface Route {
  request: Request;
  url: URL;
  site: EdgeSite;
  /** Parsed before anything is read. */
  shaping: Shaping;
}

/** JSON of a route, shaped by the request's query parameters. */
function answer(route: Route, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonResponse(applyShaping(body, route.shaping), 200, headers);
}

/** JSON of a route as pieces of text: sent as they are, unless query parameters reshape them. */
function answerText(route: Route, pieces: JsonPieces, headers: Record<string, string> = {}): Response {
  return isPlain(route.shaping) ? jsonPiecesResponse(pieces, 200, headers) : answer(route, JSON.parse(piecesText(pieces)), headers);
}

const hasQuery = (route: Route) => route.url.search !== '';

/**
 * The published file `rel` (read by `read`) shaped by the request's query. An immutable site's
 * instance keeps the answer by file and shaping (EdgeKept.shaped).
 */
async function shapedFile(route: Route, rel: string, read: () => Promise<unknown>): Promise<Response> {
  const keep = route.site.immutable ? route.site.kept?.shaped : undefined;
  const key = `${rel}?${JSON.stringify(route.shaping)}`;
  let text = keep?.get(key)?.value;
  if (text === undefined) {
    text = JSON.stringify(applyShaping(await read(), route.shaping));
    keep?.set(key, text, key.length + text.length);
  }
  return jsonTextResponse(text);
}

/** A published file, for static paths asked with query parameters (every static route is its file). */
function staticWithQuery(route: Route): Promise<Response> {
  const path = route.url.pathname;
  return shapedFile(route, path, async () => {
    const body = await readJson<unknown>(route.site, path.slice(1));
    if (body === null) throw new HttpError(404, `not found: ${path}`);
    return body;
  });
}

/** ?version=: the truth version an object route answers as (the last one given), null for the current data. */
const versionOf = (route: Route): string | null => route.url.searchParams.getAll('version').at(-1) ?? null;

/** The generic object routes (<type>/{ids}), one per object type. */
const GENERIC_OBJECT_ROUTES = new Set<Endpoint>(OBJECT_TYPE_NAMES.map((type) => objectEndpoint[type].object));
/** The routes besides <type>/{ids} that take ?version= (declared so), as a 400 on any other route names them. */
const VERSIONED_ROUTES = allEndpoints()
  .filter((e) => e.query.includes('version') && !GENERIC_OBJECT_ROUTES.has(e))
  .map((e) => e.route.replace('/api/v1/', ''))
  .join(', ');

/** ?version= where no declared route takes it would answer today's data as if it were that version's: refused. */
function checkVersionTaken(url: URL, endpoint: Endpoint | undefined): void {
  if (!url.searchParams.has('version') || endpoint?.query.includes('version')) return;
  throw new HttpError(400, `?version= is taken only by ${VERSIONED_ROUTES} and <type>/{ids} (such as char_t/{ids}), not by ${url.pathname.slice(0, 80)}`);
}

/** card/<name>.json and accessory/<name>.json: a published file, or a list the edge merges. */
async function listedFile(route: Route, kind: ListedKind, name: string): Promise<Response | null> {
  const ids = parseIds(name);
  if (isCanonicalId(name, ids) && !hasQuery(route)) return null;
  const version = versionOf(route);
  const texts = version === null ? null : await objectsAt(route.site, kind, ids, version);
  return answerText(route, await objectList(route.site, kind, ids, texts));
}

/** <type>/<ids> (and <type>/<id>.json): one result entry per id from the type's packs, null for a missing one, always 200. */
async function generic(route: Route, type: ObjectType, name: string): Promise<Response> {
  const ids = parseIds(name.endsWith('.json') ? name.slice(0, -'.json'.length) : name);
  const version = versionOf(route);
  const texts = version === null ? null : await objectsAt(route.site, type, ids, version);
  return answerText(route, await genericObjects(route.site, type, ids, texts));
}

/** list/<type>: the published list; an unknown type is an empty list, never an error. */
async function listing(route: Route, type: string): Promise<Response | null> {
  if (isObjectType(type) && !hasQuery(route)) return null;
  return shapedFile(route, `list/${type}`, () => objectListing(route.site, type));
}

/** pair/<id>.json: `01` is `1` on every route, so a non-canonical id is answered from the canonical file. */
async function pairFile(route: Route, name: string): Promise<Response | null> {
  const id = /^\d{1,9}$/.test(name) ? Number(name) : null;
  if (id === null || String(id) === name) return hasQuery(route) ? staticWithQuery(route) : null;
  const text = await route.site.read(endpoints.pair.file(id));
  if (text === null) throw new HttpError(404, `no pair ${id}`);
  return answerText(route, [text]);
}

/** A route as its errors name it: `notes/<live_setting_id>.json`. */
const endpointPath = ({ route }: Endpoint) => route.slice('/api/v1/'.length).replace(/\{(\w+)\}/g, '<$1>');

/**
 * The route of <kind>/<key>.json for a kind that lives in packs only (contract/kinds.ts `packedOnly`;
 * a chart's notes): one object from the pack of its block; with ?version=, as that version published
 * it (its history). Its errors name the object that names it by the words of that object's kind
 * ("chart"), worked out once, when the routes are made.
 */
function packedObjectHandler(kind: PackedKind): Handler {
  const { key, namedBy } = kind.packedOnly;
  const namer = kindOfType(namedBy.type).change?.one ?? namedBy.type;
  const path = endpointPath(endpoints[kind.name]);
  const source = { key: kind.name, pack: packedPack(kind.name).file };
  return async (route, params) => {
    const ids = parseIds(params[key]);
    if (ids.length !== 1) throw new HttpError(400, `${path} takes one ${namer} id, not ${ids.length}`);
    const version = versionOf(route);
    const [text] = version === null ? await readObjects(route.site, source, ids) : await objectsAt(route.site, kind.own.history, ids, version);
    if (text === null) throw new HttpError(404, `no ${kind.name} of ${namer} ${ids[0]}${version === null ? '' : ` in version "${version.slice(0, 80)}"`}`);
    return answerText(route, [text]);
  };
}

/** card/random.json: any card, or with ?q= one among those the query matches. */
async function random(route: Route): Promise<Response> {
  const pieces = route.url.searchParams.has('q') ? await objectList(route.site, 'card', [await randomMatch(route.site, route.url)]) : await randomCard(route.site);
  return answerText(route, pieces, NO_STORE);
}

async function searchRoute(route: Route, kind: SearchKind): Promise<Response> {
  const { pieces, random } = await searchPage(route.site, kind, route.url);
  return answerText(route, pieces, random ? NO_STORE : {});
}

async function happening(route: Route, time: string): Promise<Response> {
  const extended = isYes(route.url.searchParams.getAll('extended_time_period_for_events').at(-1) ?? null);
  const body = await happeningAt(route.site, parseInstant(time, route.site), extended);
  return answer(route, body, time === 'now' ? NO_STORE : {});
}

/** history/<card_t|accessory_t>/<id>.json: the object's history, published once under its card's or accessory's (endpoints.ts HISTORY_ALIASES). */
async function aliasedHistory(route: Route, type: 'card_t' | 'accessory_t', name: string): Promise<Response> {
  const id = /^\d{1,9}$/.test(name) ? Number(name) : null;
  const history = id === null ? null : await historyOf(route.site, type, id);
  if (history === null) throw new HttpError(404, `no history of ${type} ${name.slice(0, 40)}`);
  return answerText(route, [JSON.stringify(history)]);
}

type Handler = (route: Route, params: Record<string, string>) => Promise<Response | null>;

/** What the edge computes, by declared endpoint; any other declared GET route is a static file. */
const HANDLERS = new Map<Endpoint, Handler>([
  [endpoints.randomCard, random],
  [endpoints.searchCard, (route) => searchRoute(route, 'card')],
  [endpoints.searchAccessory, (route) => searchRoute(route, 'accessory')],
  [endpoints.searchEvent, (route) => searchRoute(route, 'event')],
  [endpoints.searchSong, (route) => searchRoute(route, 'song')],
  [endpoints.card, (route, { ordinals }) => listedFile(route, 'card', ordinals)],
  [endpoints.accessory, (route, { ids }) => listedFile(route, 'accessory', ids)],
  [endpoints.happening, (route, { time }) => happening(route, time)],
  [endpoints.pair, (route, { pair_id }) => pairFile(route, pair_id)],
  [endpoints.bulkLines, (route, { kind }) => bulkDownload(route.site, route.request, `${kind}.jsonl`)],
  [endpoints.bulkSqlite, (route) => bulkDownload(route.site, route.request, 'sif.sqlite')],
  [endpoints.cardIdHistory, (route, { id }) => aliasedHistory(route, 'card_t', id)],
  [endpoints.accessoryIdHistory, (route, { id }) => aliasedHistory(route, 'accessory_t', id)],
  // A kind in packs only answers at its name's endpoint (endpoints.ts), its id the route's `key` parameter.
  ...PACKED_KINDS.map((kind): [Endpoint, Handler] => [endpoints[kind.name], packedObjectHandler(kind)]),
  ...OBJECT_TYPE_NAMES.flatMap((type): [Endpoint, Handler][] => [
    [objectEndpoint[type].object, (route, { ids }) => generic(route, type, ids)],
    [objectEndpoint[type].list, (route) => listing(route, type)],
  ]),
]);

/** Paths no endpoint declares that the original services still answered. */
async function undeclared(route: Route, path: string): Promise<Response | null> {
  const [first, name, ...rest] = path.replace(/^\/api\/v1\//, '').split('/');
  if (name !== undefined && !rest.length && first === 'list') return listing(route, name.replace(/\.json$/, ''));
  if (name !== undefined && !rest.length && first.endsWith('_t')) {
    if (isObjectType(first)) return generic(route, first, name); // an empty id list: a 400 that says so
    throw new HttpError(400, `unknown object type "${first.slice(0, 40)}"`);
  }
  return hasQuery(route) ? staticWithQuery(route) : null;
}

/**
 * `url` is the request's, with a query in the path moved into its query (edge/pathQuery.ts);
 * `inPath`: the request gave it so, on a path that names no file.
 */
async function dispatch(request: Request, url: URL, site: EdgeSite, inPath: boolean): Promise<Response | null> {
  const { method } = request;
  if (method === 'OPTIONS') return preflight(request);
  // Decoded, so an encoded comma (%2C) separates ids too; checkSitePath has vetted the decoding
  // and refused an encoded slash, so segments stay as the request gave them.
  const path = url.pathname.split('/').map(decodeURIComponent).join('/');
  // The body of the host's JSON 404 is a file, but never a 200 answer.
  if (path === `/${NOT_FOUND_FILE}`) throw new HttpError(404, 'not found');
  const match = matchRoute(path);
  if (match?.endpoint === endpoints.readTl) {
    if (method !== 'POST') throw methodNotAllowed(method, 'POST, OPTIONS');
    return jsonResponse(await readTl(site, request));
  }
  if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(method, READ_METHODS);
  checkVersionTaken(url, match?.endpoint);
  const route: Route = { request, url, site, shaping: parseShaping(url.searchParams) };
  const handler = match && HANDLERS.get(match.endpoint);
  if (handler) return handler(route, match.params);
  if (!match) return undeclared(route, path);
  // Query parameters shape JSON where the route takes them; a route that takes none (packs, history, ...) is its file
  // on every host, as the hosts' static layers serve it; a file of another format is served as it is.
  if (hasQuery(route) && match.endpoint.query.length && !rawFileType(path)) return staticWithQuery(route);
  // The same in the path form (/api/v1;keys=id/pack/card/0.json), whose path names no file a host could serve: the edge serves it.
  return inPath ? staticApiFile(site, request, url.pathname) : null;
}

/** The response to `request`, or null when the host should serve it as a static file. */
export async function handleRequest(request: Request, site: EdgeSite): Promise<Response | null> {
  const asked = new URL(request.url);
  if (!isEdgePath(asked.pathname)) return null;
  try {
    if (request.url.length > MAX_URL_LENGTH) throw new HttpError(414, `request URL is longer than ${MAX_URL_LENGTH} characters`);
    checkSitePath(asked.pathname);
    const canonical = withPathQuery(asked);
    const answer = await withETag(request, await dispatch(request, canonical, readBudget(site), canonical !== asked));
    return answer && ranCode(answer);
  } catch (error) {
    if (error instanceof HttpError) return ranCode(errorResponse(error));
    console.error(error);
    return ranCode(errorResponse(new HttpError(500, 'internal error')));
  }
}
