/**
 * api/v1/manifest.json: every file the site serves with its SHA-256 and size, so a mirror
 * (generator/mirror/) fetches only what it lacks. It leaves out itself and the host
 * configuration files (render/hostRules.ts), which hosts read but never serve and a mirror
 * writes anew. Not to be confused with publish/manifest.ts, the builder's private record
 * of the folder it published.
 */
import { endpoints } from '../contract/endpoints.ts';
import type { FileManifestJson } from '../contract/schemas.ts';
import { emit, type DigestedFiles } from '../render/files.ts';
import { isHostConfigFile } from '../render/hostRules.ts';

/** Whether the file manifest lists `rel` (a path relative to the site root). */
export const isListed = (rel: string): boolean => rel !== endpoints.fileManifest.file() && !isHostConfigFile(rel);

/** Call last: it lists every file added to `files` before it, with the digest taken as it was added. */
export function deriveFileManifest(files: DigestedFiles, truthVersion: string): FileManifestJson {
  const listed = [...files.keys()].filter(isListed).sort();
  const manifest: FileManifestJson = { truth_version: truthVersion, files: {} };
  for (const rel of listed) manifest.files[`/${rel}`] = files.digest(rel);
  emit(files, endpoints.fileManifest, [], manifest);
  return manifest;
}
