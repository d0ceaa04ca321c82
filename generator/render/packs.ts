/**
 * Pack files (format.ts PACK_SIZE): each object again in the pack of its block of ids, as
 * `{"objects": {"<id>": object, ...}, "offsets": {"<id>": [start, end], ...}}`. The offsets
 * locate each object's JSON text in the file's text, so the edge slices the objects a
 * request names out of a pack without parsing any of them.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { packOf } from '../format.ts';
import type { PackOf } from '../contract/schemas.ts';
import { jsonText, type SiteFiles } from './files.ts';

/** The text of one pack: objects in id order, then their offsets (in UTF-16 units of the text). */
function packText(entries: (readonly [number, unknown])[]): string {
  const offsets: Record<string, [number, number]> = {};
  let text = '{"objects":{';
  entries.forEach(([id, object], i) => {
    text += `${i ? ',' : ''}"${id}":`;
    const start = text.length;
    text += jsonText(object);
    offsets[id] = [start, text.length];
  });
  return `${text}},"offsets":${JSON.stringify(offsets)}}`;
}

export function emitPacks<S extends TSchema>(
  files: SiteFiles,
  endpoint: { response: PackOf<S>; file: (block: number) => string },
  entries: Iterable<readonly [id: number, object: Static<S>]>,
): void {
  const packs = new Map<number, (readonly [number, Static<S>])[]>();
  for (const entry of entries) {
    const block = packOf(entry[0]);
    packs.get(block)?.push(entry) ?? packs.set(block, [entry]);
  }
  for (const [block, pack] of packs) files.set(endpoint.file(block), Buffer.from(packText(pack.sort((a, b) => a[0] - b[0]))));
}
