/**
 * api/v1/manifest.json: every file the site serves with its SHA-256 and size, so a mirror
 * (generator/mirror/) fetches only what it lacks. It leaves out itself and the host
 * configuration files (render/hostRules.ts), which hosts read but never serve and a mirror
 * writes anew. Not to be confused with publish/manifest.ts, the builder's private record
 * of the folder it published.
 */
import { endpoints } from '../contract/endpoints.ts';
import type { FileManifestJson } from '../contract/schemas.ts';
import { emit, type SiteFiles } from '../render/files.ts';
import { isHostConfigFile } from '../render/hostRules.ts';
import { sha256 } from './bulk.ts';

/** Whether the file manifest lists `rel` (a path relative to the site root). */
export const isListed = (rel: string): boolean => rel !== endpoints.fileManifest.file() && !isHostConfigFile(rel);

/**
 * Call last: it lists every file added to `files` before it. `known` holds hashes an earlier
 * stage computed (the bulk files': bulk/index.json lists them), by root-relative path.
 */
export function deriveFileManifest(files: SiteFiles, truthVersion: string, known: ReadonlyMap<string, string> = new Map()): FileManifestJson {
  const listed = [...files.keys()].filter(isListed).sort();
  const manifest: FileManifestJson = { truth_version: truthVersion, files: {} };
  for (const rel of listed) {
    const bytes = files.get(rel)!;
    manifest.files[`/${rel}`] = { sha256: known.get(`/${rel}`) ?? sha256(bytes), bytes: bytes.length };
  }
  emit(files, endpoints.fileManifest, [], manifest);
  return manifest;
}
