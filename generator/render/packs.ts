/** Pack files (format.ts PACK_SIZE): each object again in the pack of its block of ids, keyed by id. */
import type { Static, TRecord, TSchema, TString } from '@sinclair/typebox';
import { packOf } from '../format.ts';
import { emit, type SiteFiles } from './files.ts';

export function emitPacks<S extends TSchema>(
  files: SiteFiles,
  endpoint: { response: TRecord<TString, S>; file: (block: number) => string },
  entries: Iterable<readonly [id: number, object: Static<S>]>,
): void {
  const packs = new Map<number, Record<string, Static<S>>>();
  for (const [id, object] of entries) {
    const block = packOf(id);
    let pack = packs.get(block);
    if (!pack) packs.set(block, (pack = {}));
    pack[id] = object;
  }
  for (const [block, pack] of packs) emit(files, endpoint, [block], pack);
}
