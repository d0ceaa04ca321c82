/** What the edge handler needs from its host: the published files, a clock and randomness. */

/** The text of a published file by its path relative to the site root, null when absent. */
export type ReadFile = (path: string) => Promise<string | null>;

/** The bytes of a published file, null when absent: files that are not JSON (the bulk downloads), and packs. */
export type ReadBytes = (path: string) => Promise<Uint8Array<ArrayBuffer> | null>;

export interface EdgeSite {
  read: ReadFile;
  /**
   * Hosts that serve static /api/ files themselves (the local server, the Pages worker) read the
   * other formats with it; the edge reads packs with it, sliced without decoding. When absent,
   * `read`'s text is encoded.
   */
  readBytes?: ReadBytes;
  /** Milliseconds since the epoch (default Date.now), for /api/v1/happening/now. */
  now?: () => number;
  /** A number in [0, 1) (default Math.random), for /api/v1/card/random.json. */
  random?: () => number;
}

export async function readJson<T>(site: EdgeSite, path: string): Promise<T | null> {
  const text = await site.read(path);
  return text === null ? null : (JSON.parse(text) as T);
}

/** A file's bytes, by the host's byte reader where it has one. */
export async function readBytes(site: EdgeSite, path: string): Promise<Uint8Array | null> {
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

export const fetchReader = (fetch: (url: URL) => Promise<Response>, origin: string): ReadFile =>
  fetchFile(fetch, origin, (response) => response.text());

export const fetchBytesReader = (fetch: (url: URL) => Promise<Response>, origin: string): ReadBytes =>
  fetchFile(fetch, origin, async (response) => new Uint8Array(await response.arrayBuffer()));
