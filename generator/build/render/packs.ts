/**
 * Pack files (format.ts PACK_SIZE): each object again in the pack of its block of ids, as
 * `{"objects": {"<id>": object, ...}, "offsets": {"<id>": [start, end], ...}}`. The offsets
 * locate each object's JSON in the file's bytes, so the edge slices the objects a request
 * names out of a pack without decoding or parsing any of them.
 */
import { packOf } from '../../contract/format.ts';
import { groupBy } from '../model/values.ts';
import type { ResponseName, ResponseOf } from '../../contract/endpoints.ts';
import { jsonBytes, type SiteFiles } from './files.ts';

/** One pack's bytes: objects in id order, then their offsets (in bytes of the UTF-8 file). */
function packBytes(entries: (readonly [number, unknown])[]): Buffer {
  const offsets: Record<string, [number, number]> = {};
  const parts: Buffer[] = [Buffer.from('{"objects":{')];
  let size = parts[0].length;
  const add = (part: Buffer) => {
    parts.push(part);
    size += part.length;
  };
  entries.forEach(([id, object], i) => {
    add(Buffer.from(`${i ? ',' : ''}"${id}":`));
    const start = size;
    add(jsonBytes(object)); // a shared object's bytes as they are, an encoded one's spliced (not decoded and encoded again)
    offsets[id] = [start, size];
  });
  add(Buffer.from(`},"offsets":${JSON.stringify(offsets)}}`));
  return Buffer.concat(parts, size);
}

/** Names of pack responses; an object of one is `PackObject<N>`. */
type PackName = Exclude<Extract<ResponseName, 'CardPack' | `${string}_pack`>, 'card_t_pack'>;
type PackObject<N extends PackName> = ResponseOf<N>['objects'][string];

export function emitPacks<N extends PackName>(
  files: SiteFiles,
  endpoint: { response: N; file: (block: number) => string },
  entries: Iterable<readonly [id: number, object: PackObject<N>]>,
): void {
  for (const [block, pack] of groupBy([...entries], ([id]) => packOf(id))) {
    files.set(endpoint.file(block), packBytes(pack.sort((a, b) => a[0] - b[0])));
  }
}
