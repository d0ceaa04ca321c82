/** What the edge handler needs from its host: the published files, a clock and randomness. */

import type { EdgeKept } from './kept.ts';
import { HttpError, damagedFile } from './http.ts';
import type { ReadBytes, ReadFile } from '../../contract/siteRead.ts';
import { MAX_READS } from '../../contract/limits.ts';

export interface EdgeSite {
  read: ReadFile;
  /**
   * Hosts that serve static /api/ files themselves (the local server, the Pages worker) read the
   * other formats with it; the edge reads packs with it, sliced without decoding. When absent,
   * `read`'s text is encoded.
   */
  readBytes?: ReadBytes;
  /**
   * The files never change while this instance runs (a Cloudflare Worker or Netlify edge
   * function serves one deploy): the edge may keep what it read, packs and parsed files, for
   * later requests. Hosts whose folder is rebuilt in place (`npm start`) leave it unset.
   */
  immutable?: boolean;
  /**
   * Where this instance keeps what it read between requests (edge/kept.ts edgeKept, one per
   * instance): long parses, and on an immutable site packs and rebuilt objects. None: nothing kept.
   */
  kept?: EdgeKept;
  /** Milliseconds since the epoch (default Date.now), for /api/v1/happening/now. */
  now?: () => number;
  /** A number in [0, 1) (default Math.random), for /api/v1/card/random.json. */
  random?: () => number;
  /** The files this request has planned to read (readBudget): none past MAX_READS. */
  planned?: Set<string>;
}

/** Says why a request reads too many files and what to ask instead. */
const tooManyReads = (why: string) => new HttpError(400, `${why}; a request reads at most ${MAX_READS} files of the site: ask in parts`);
const UNPLANNED = 'this request would read more files than it may';

/**
 * `site` for one request, its reads budgeted (contract/limits.ts MAX_READS): every file it names is
 * planned before it is read, whether or not a kept copy answers, so every host and every instance,
 * cold or warm, refuses the same requests; a read past the budget all the same (a file read twice)
 * is refused too, never left to the platform to throw.
 */
export function readBudget(site: EdgeSite): EdgeSite {
  let reads = 0;
  const counted = <T>(read: (path: string) => Promise<T>) => async (path: string): Promise<T> => {
    if (++reads > MAX_READS) throw tooManyReads(UNPLANNED);
    return read(path);
  };
  // Every member named (the type makes a new one a compile error here), in one order: one shape on
  // every request. A spread's shape followed the host's object, and V8 threw away the optimized code
  // reading it (readPlan, a 1,000-id list's warm requests: compiled twice: 16 and 13 ms of compile time).
  const budgeted: { [K in keyof Required<EdgeSite>]: EdgeSite[K] } = {
    read: counted(site.read), readBytes: site.readBytes && counted(site.readBytes), immutable: site.immutable, kept: site.kept,
    now: site.now, random: site.random, planned: new Set(),
  };
  return budgeted;
}

/**
 * Plans the reads of `paths` for this request before any of them is read; a 400 saying `why`
 * (the request part to ask less of) when the request's files would pass MAX_READS.
 */
export function planReads(site: EdgeSite, paths: string[], why = UNPLANNED): void {
  const planned = site.planned;
  if (!planned) return;
  const more = paths.filter((path) => !planned.has(path));
  if (planned.size + new Set(more).size > MAX_READS) throw tooManyReads(why);
  for (const path of more) planned.add(path);
}

/** Files at least this long are kept parsed (EdgeKept.parses) where files may change; an immutable site keeps every parse. */
const KEPT_PARSE_CHARS = 64 * 1024;

/** Work under way, by what it reads, per instance of an immutable site (its kept) or per site object otherwise. */
const underWay = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * `work`'s promise, shared with whoever asks for the same `key` on the same site while it runs:
 * one answer's reads run at once (a list's packs, a ?version= list's histories), so the ids of one
 * pack or one key file would otherwise read it once each, at the same time. An immutable site's
 * instance shares it between its requests too; another site only within one site object (one
 * request), so a file rebuilt in place is never answered from a read begun before.
 */
export function once<T>(site: EdgeSite, key: string, work: () => Promise<T>): Promise<T> {
  const owner = site.immutable && site.kept ? site.kept : site;
  let running = underWay.get(owner);
  if (!running) underWay.set(owner, (running = new Map()));
  const pending = running.get(key);
  if (pending) return pending as Promise<T>;
  const started = work();
  running.set(key, started);
  const done = () => void running.delete(key);
  started.then(done, done);
  return started;
}

/**
 * A published JSON file, parsed (null when absent). The value may be shared between requests:
 * never change it. An immutable site's instance keeps every parse and reads no file twice; another
 * keeps a long file's, read again but parsed again only when its text changed. Asked again while
 * it is being read, the same read answers (once).
 */
export async function readJson<T>(site: EdgeSite, path: string): Promise<T | null> {
  planReads(site, [path]);
  const kept = site.kept?.parses.get(path)?.value;
  if (kept && site.immutable) return kept.value as T;
  return once(site, `json ${path}`, () => readJsonNow<T>(site, path, kept));
}

async function readJsonNow<T>(site: EdgeSite, path: string, kept: { text: string; value: unknown } | undefined): Promise<T | null> {
  const text = await site.read(path);
  if (text === null) return null;
  if (kept?.text === text) return kept.value as T;
  let value: T;
  try {
    value = JSON.parse(text) as T;
  } catch {
    throw damagedFile(); // a published file is JSON as the build wrote it: one that is not is damaged
  }
  // An immutable site's instance keeps every parse (it never reads the file again, so it keeps no
  // text); another keeps long ones with their text, to compare with the text it reads next time.
  if (site.immutable) site.kept?.parses.set(path, { text: '', value }, text.length);
  else if (text.length >= KEPT_PARSE_CHARS) site.kept?.parses.set(path, { text, value }, text.length);
  return value;
}

/** A file's bytes, by the host's byte reader where it has one. */
export async function readBytes(site: EdgeSite, path: string): Promise<Uint8Array | null> {
  planReads(site, [path]);
  if (site.readBytes) return site.readBytes(path);
  const text = await site.read(path);
  return text === null ? null : encoder.encode(text);
}

/** Longer path segments name no file on any file system a site is published from. */
const MAX_NAME_BYTES = 255;
const encoder = new TextEncoder();

/**
 * Whether `path` can name a published file: no folder (trailing `/`, which Pages would answer
 * with a page) and no segment longer than a file name can be. Readers answer null for others.
 */
export const namesAFile = (path: string): boolean =>
  path !== '' && !path.endsWith('/') && path.split('/').every((segment) => encoder.encode(segment).length <= MAX_NAME_BYTES);

/**
 * A reader for hosts whose edge reads the site over HTTP (Netlify: the site's own origin;
 * Cloudflare Pages: the assets binding): a 404 is an absent file, any other failure an error.
 */
function fetchFile<T>(fetchFile: (url: URL) => Promise<Response>, origin: string, body: (response: Response) => Promise<T>) {
  return async (path: string): Promise<T | null> => {
    if (!namesAFile(path)) return null;
    const response = await fetchFile(new URL(`/${path}`, origin));
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) throw new Error(`reading /${path}: HTTP ${response.status}`);
    return body(response);
  };
}

/** Text as `Response.text()` gives it (UTF-8, invalid bytes replaced, a byte order mark dropped), decoded from the body read whole (bodyBytes). */
const textDecoder = new TextDecoder();

export const fetchReader = (fetch: (url: URL) => Promise<Response>, origin: string): ReadFile =>
  fetchFile(fetch, origin, async (response) => textDecoder.decode(await bodyBytes(response)));

export const fetchBytesReader = (fetch: (url: URL) => Promise<Response>, origin: string): ReadBytes =>
  fetchFile(fetch, origin, bodyBytes);

/**
 * A response's body as bytes, read by the runtime itself (`arrayBuffer()`): workerd reads a body
 * whole in its own code, where a loop of `read()` calls here took each of its 4 KiB chunks as a
 * promise of its own and joined them after, three times the CPU for the same bytes
 * (docs/benchmark.md, "Reading a body whole"); Deno reads it as fast either way.
 */
async function bodyBytes(response: Response): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await response.arrayBuffer());
}
