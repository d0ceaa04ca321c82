/**
 * api/v1/manifest.json: every file the site serves with its SHA-256 and size (and a large
 * file's block sums), so a mirror (generator/build/mirror/) fetches only what it lacks, and of a
 * changed large file only the blocks it lacks. It leaves out itself, its sidecar
 * manifest.blocks.json (the manifest's own digest and block sums, which a mirror reads first)
 * and the host configuration files (hosts/all/build/hostRules.ts), which hosts read but never serve
 * and a mirror writes anew. Not to be confused with publish/manifest.ts, the builder's
 * private record of the folder it published.
 */
import { endpoints } from '../../contract/endpoints.ts';
import type { FileManifestJson } from '../../contract/schemas.ts';
import { emit } from '../render/files.ts';
import type { DigestedFiles } from '../siteFiles.ts';
import { isHostConfigFile } from '../../hosts/all/build/hostRules.ts';
import { blockSums } from '../blockSums.ts';
import { MANIFEST_BLOCK_SIZE } from '../../contract/format.ts';

const MANIFEST = endpoints.fileManifest.file();
const MANIFEST_BLOCKS = endpoints.manifestBlocks.file();

/** Whether the file manifest lists `rel` (a path relative to the site root). */
export const isListed = (rel: string): boolean => rel !== MANIFEST && rel !== MANIFEST_BLOCKS && !isHostConfigFile(rel);

/** Call last: it lists every file added to `files` before it, with its digest; every file has its digest when it settles. */
export async function deriveFileManifest(files: DigestedFiles, truthVersion: string): Promise<FileManifestJson> {
  await files.settled();
  const listed = [...files.keys()].filter(isListed).sort();
  const manifest: FileManifestJson = { truth_version: truthVersion, files: {} };
  for (const rel of listed) manifest.files[`/${rel}`] = files.digest(rel);
  const published = emit(files, endpoints.fileManifest, [], manifest);
  await files.settled();
  const { sha256, bytes } = files.digest(MANIFEST);
  emit(files, endpoints.manifestBlocks, [], { sha256, bytes, block_size: MANIFEST_BLOCK_SIZE, blocks: blockSums(published, MANIFEST_BLOCK_SIZE) });
  await files.settled();
  return manifest;
}
