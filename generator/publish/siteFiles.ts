/**
 * The site being published: file contents by path relative to the output folder. Renderers
 * add to it; publishing owns it (publish/staging.ts hands out a map that writes each file
 * as it is added).
 */
export type SiteFiles = Map<string, Buffer>;
