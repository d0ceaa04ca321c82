/** The rendered site: file contents by path relative to the output folder. */
export type SiteFiles = Map<string, Buffer>;

/** Compact JSON, so equal values always give equal bytes. */
export function addJson(files: SiteFiles, path: string, value: unknown): void {
  files.set(path, Buffer.from(JSON.stringify(value)));
}
