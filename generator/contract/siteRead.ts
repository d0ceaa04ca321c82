/**
 * How a published site is read, by path relative to its root (`api/v1/info.json`): the edge
 * reads the site it serves this way (runtime/edge/siteReader.ts), and the build the site it
 * follows (build/input/previousSite.ts).
 */

/** The text of a published file, null when absent. */
export type ReadFile = (path: string) => Promise<string | null>;

/** The bytes of a published file, null when absent: files that are not JSON (the bulk downloads), and packs. */
export type ReadBytes = (path: string) => Promise<Uint8Array<ArrayBuffer> | null>;
