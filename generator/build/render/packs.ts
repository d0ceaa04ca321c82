/**
 * Pack files (format.ts PACK_SIZE): each object again in the pack of its block of ids, as
 * `{"objects": {"<id>": object, ...}, "offsets": {"<id>": [start, end, sum], ...}}`. The offsets
 * locate each object's JSON in the file's bytes, so the edge slices the objects a request
 * names out of a pack without decoding or parsing any of them; the sum (contract/packSum.ts) is
 * what it checks them by.
 */
import { packOf } from '../../contract/format.ts';
import { memberSum, packWords } from '../../contract/packSum.ts';
import { groupBy } from '../model/values.ts';
import type { ResponseName, ResponseOf } from '../../contract/endpoints.ts';
import { jsonBytes } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';

/** One pack's bytes: objects in id order, then their offsets and sums (in bytes of the UTF-8 file). */
function packBytes(entries: (readonly [number, unknown])[]): Buffer {
  const spans: [id: number, start: number, end: number][] = [];
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
    spans.push([id, start, size]);
  });
  // The objects come first, so their sums are of the bytes the file begins with.
  const objects = Buffer.concat(parts, size);
  const words = packWords(objects);
  const offsets = Object.fromEntries(spans.map(([id, start, end]) => [id, [start, end, memberSum(words, start, end)]]));
  return Buffer.concat([objects, Buffer.from(`},"offsets":${JSON.stringify(offsets)}}`)]);
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
