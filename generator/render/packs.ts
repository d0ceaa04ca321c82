/**
 * Pack files (format.ts PACK_SIZE): each object again in the pack of its block of ids, as
 * `{"objects": {"<id>": object, ...}, "offsets": {"<id>": [start, end], ...}}`. The offsets
 * locate each object's JSON text in the file's text, so the edge slices the objects a
 * request names out of a pack without parsing any of them.
 */
import { packOf } from '../format.ts';
import { groupBy } from '../model/values.ts';
import type { ResponseName, ResponseOf } from '../contract/endpoints.ts';
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

/** Names of pack responses; an object of one is `PackObject<N>`. */
type PackName = Extract<ResponseName, 'CardPack' | `${string}_pack`>;
type PackObject<N extends PackName> = ResponseOf<N>['objects'][string];

export function emitPacks<N extends PackName>(
  files: SiteFiles,
  endpoint: { response: N; file: (block: number) => string },
  entries: Iterable<readonly [id: number, object: PackObject<N>]>,
): void {
  for (const [block, pack] of groupBy([...entries], ([id]) => packOf(id))) {
    files.set(endpoint.file(block), Buffer.from(packText(pack.sort((a, b) => a[0] - b[0]))));
  }
}
