/**
 * Search routes: /api/v1/search/<kind> and card/random.json?q=. The query is checked before
 * anything is read; then the kind's index is read (parsed once per text, see readIndex), the
 * query evaluated on it by the module the browse page runs too (generator/web/search/query.js),
 * and the page of results read as the comma lists read objects (edge/objects.ts: single files,
 * or the packs of the blocks touched, sliced as bytes), so no object is parsed unless query
 * parameters reshape it.
 */
import { endpoints } from '../../contract/endpoints.ts';
import { QueryError, kindOf, parseQuery, search, searchParameters, suggest, type SearchParameters } from '../../web/search/query.js';
import type { Kind, SearchIndex } from '../../web/search/kinds.js';
import { HttpError, type JsonPieces } from './http.ts';
import { listPieces, readObjects, searchSource } from './objects.ts';
import { readJson, type EdgeSite } from './siteReader.ts';

export type SearchKind = Kind['name'];

/** The search parameters of a request, the query parsed once to refuse a malformed one before any read. */
function parameters(params: URLSearchParams, kind: Kind): SearchParameters {
  try {
    const checked = searchParameters(params, kind);
    parseQuery(checked.q, kind);
    return checked;
  } catch (error) {
    if (error instanceof QueryError) throw new HttpError(400, error.message);
    throw error;
  }
}

/** The kind's index, parsed once per text (edge/siteReader.ts readJson): parsing is most of a search's CPU. */
async function readIndex(site: EdgeSite, kind: Kind): Promise<SearchIndex> {
  const index = await readJson<SearchIndex>(site, endpoints.searchIndex.file(kind.name));
  if (index === null) throw new HttpError(404, `this site publishes no ${kind.name} search index`);
  return index;
}

/** The JSON of the object in each row, read from the kind's single files or packs (edge/objects.ts), never parsed. */
async function objectTexts(site: EdgeSite, kind: Kind, index: SearchIndex, rows: number[]): Promise<(string | Uint8Array)[]> {
  if (!rows.length) return [];
  const identity = index.columns[kind.identity] as number[];
  const texts = await readObjects(site, searchSource(kind.name), rows.map((row) => identity[row]));
  return texts.map((text, i) => {
    if (text === null) throw new Error(`the ${kind.name} search index names ${kind.identity} ${identity[rows[i]]}, which is not published`);
    return text;
  });
}

/** The next page's URL relative to this one: the same parameters, the next page (and the shuffle's seed). */
function nextLink(url: URL, kind: Kind, options: SearchParameters): string {
  const params = new URLSearchParams(url.searchParams);
  params.set('page', String(options.page + 1));
  if (options.seed !== null) params.set('seed', String(options.seed));
  return `${kind.name}?${params}`;
}

/** /api/v1/search/<kind>: one page of results as JSON pieces, and whether it differs per request (random without a seed). */
export async function searchPage(site: EdgeSite, kindName: SearchKind, url: URL): Promise<{ pieces: JsonPieces; random: boolean }> {
  const kind = kindOf(kindName);
  const options = parameters(url.searchParams, kind);
  const random = options.order === 'random' && options.seed === null;
  if (random) options.seed = Math.floor((site.random ?? Math.random)() * 2 ** 31);
  const index = await readIndex(site, kind);
  const rows = search(index, options);
  const start = (options.page - 1) * options.pageSize;
  const texts = await objectTexts(site, kind, index, rows.slice(start, start + options.pageSize));
  const next = start + options.pageSize < rows.length ? JSON.stringify(nextLink(url, kind, options)) : 'null';
  const suggestion = JSON.stringify(rows.length ? null : suggest(index, options.q));
  return {
    pieces: listPieces('result', texts, `,"total":${rows.length},"page":${options.page},"page_size":${options.pageSize},"next":${next},"suggestion":${suggestion}`),
    random,
  };
}

/** The ordinal of a random card among those `q` matches; 404 when none does. */
export async function randomMatch(site: EdgeSite, url: URL): Promise<number> {
  const kind = kindOf('card');
  const options = parameters(new URLSearchParams({ q: url.searchParams.getAll('q').at(-1) ?? '' }), kind);
  const index = await readIndex(site, kind);
  const rows = search(index, options);
  if (!rows.length) throw new HttpError(404, 'no card matches the query');
  const row = rows[Math.min(rows.length - 1, Math.floor((site.random ?? Math.random)() * rows.length))];
  return index.columns.ordinal[row] as number;
}
