/** What the edge handler needs from its host: the published files, a clock and randomness. */

/** The text of a published file by its path relative to the site root, null when absent. */
export type ReadFile = (path: string) => Promise<string | null>;

export interface EdgeSite {
  read: ReadFile;
  /** Milliseconds since the epoch (default Date.now), for /api/v1/happening/now. */
  now?: () => number;
  /** A number in [0, 1) (default Math.random), for /api/v1/card/random.json. */
  random?: () => number;
}

export async function readJson<T>(site: EdgeSite, path: string): Promise<T | null> {
  const text = await site.read(path);
  return text === null ? null : (JSON.parse(text) as T);
}
