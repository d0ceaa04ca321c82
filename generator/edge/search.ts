/**
 * Search routes: /api/v1/search/<kind> and card/random.json?q=. The query is checked before
 * anything is read; then the kind's index is read, the query evaluated on it by the module the
 * browse page runs too (generator/search/query.js), and the page of results sliced out of the
 * objects file's text at its offsets, so no object is parsed unless query parameters reshape it.
 *
 * The objects file (all of a kind's objects: megabytes) is named by a hash of its content, so
 * its text is kept in memory once read: the name never stands for other content, and a new
 * build names a new file. A search thus reads the index, and the objects file only the first
 * time (two reads at most).
 */
import { endpoints } from '../contract/endpoints.ts';
import { QueryError, kindOf, parseQuery, search, searchParameters, type SearchParameters } from '../search/query.js';
import type { Kind, SearchIndex } from '../search/kinds.js';
import { HttpError, type JsonPieces } from './http.ts';
import { listPieces } from './objects.ts';
import type { EdgeSite } from './siteReader.ts';

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

async function readIndex(site: EdgeSite, kind: Kind): Promise<SearchIndex> {
  const text = await site.read(endpoints.searchIndex.file(kind.name));
  if (text === null) throw new HttpError(404, `this site publishes no ${kind.name} search index`);
  return JSON.parse(text) as SearchIndex;
}

interface ObjectsFile {
  text: string;
  offsets: [number, number][];
}

/** Objects files read, by path (content-named, so never stale); the few most recent are kept. */
const objectsFiles = new Map<string, Promise<ObjectsFile>>();
const KEPT_OBJECTS_FILES = 4;

async function readObjects(site: EdgeSite, path: string): Promise<ObjectsFile> {
  const text = await site.read(path);
  if (text === null) throw new HttpError(404, `this site publishes no ${path}`);
  const at = text.lastIndexOf(',"offsets":');
  return { text, offsets: JSON.parse(text.slice(at + ',"offsets":'.length, -1)) as [number, number][] };
}

/** The objects file of an index, read once per edge instance. */
function objectsFile(site: EdgeSite, index: SearchIndex): Promise<ObjectsFile> {
  const path = endpoints.searchObjects.file(index.objects);
  let file = objectsFiles.get(path);
  if (!file) {
    file = readObjects(site, path);
    objectsFiles.set(path, file);
    file.catch(() => objectsFiles.delete(path));
    for (const old of objectsFiles.keys()) if (objectsFiles.size > KEPT_OBJECTS_FILES) objectsFiles.delete(old);
  }
  return file;
}

/** The JSON text of the object in each row, sliced out of the objects file at its offsets. */
async function objectTexts(site: EdgeSite, index: SearchIndex, rows: number[]): Promise<string[]> {
  if (!rows.length) return [];
  const { text, offsets } = await objectsFile(site, index);
  return rows.map((row) => text.slice(...offsets[row]));
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
  const texts = await objectTexts(site, index, rows.slice(start, start + options.pageSize));
  const next = start + options.pageSize < rows.length ? JSON.stringify(nextLink(url, kind, options)) : 'null';
  return {
    pieces: listPieces('result', texts, `,"total":${rows.length},"page":${options.page},"page_size":${options.pageSize},"next":${next}`),
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
