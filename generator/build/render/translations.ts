/**
 * Crowd translations for read_tl, sharded by a hash of the original (format.ts
 * translationShard) so the edge handler loads only the shards a request touches.
 */
import type { RenderContext } from './context.ts';
import { translationShard } from '../../contract/format.ts';
import { endpoints } from '../../contract/endpoints.ts';
import { emit } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';

/**
 * Translations per shard; the shard count grows in powers of two, up to 32: a read_tl request reads
 * the index and each shard its strings hash to, within a request's reads (limits.ts MAX_READS).
 */
const ENTRIES_PER_SHARD = 1024;
const MAX_SHARDS = 32;

export function shardCount(entries: number): number {
  let shards = 1;
  while (shards < MAX_SHARDS && entries > shards * ENTRIES_PER_SHARD) shards *= 2;
  return shards;
}

export function renderTranslations({ model }: RenderContext, files: SiteFiles): void {
  // read_tl answers only translations that differ from their original; sorted for byte-identical output.
  const entries = [...model.translations].filter(([original, translation]) => original !== translation).sort(([a], [b]) => (a < b ? -1 : 1));
  const count = shardCount(entries.length);
  // No prototype, so an original named __proto__ is an ordinary key.
  const shards: Record<string, string>[] = Array.from({ length: count }, () => Object.create(null));
  for (const [original, translation] of entries) shards[translationShard(original, count)][original] = translation;
  shards.forEach((shard, i) => emit(files, endpoints.translationShard, [i], shard));
  emit(files, endpoints.translationIndex, [], { shards: count });
}
