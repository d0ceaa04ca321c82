/**
 * Bulk downloads at their own URLs (bulk/cards.jsonl, bulk/sif.sqlite): the build publishes
 * each in parts (derive/bulk.ts) that bulk/index.json lists; the edge joins them into one
 * stream, a part read at a time, so an answer holds at most one part however large the file.
 *
 * What it joins is checked against the index, so an answer is the listed file or an error, never
 * a wrong or short file under the file's ETag (docs/bulk.md "What the edge checks"): the parts'
 * sizes must add up to the file's; each part must have its listed size and SHA-256 (Web Crypto,
 * on every host; an immutable site's instance hashes a part once, EdgeKept.checkedParts). The
 * first part is read and checked before the answer starts, so a file of one part (every JSON
 * Lines file of a real export but the largest) that is damaged is a JSON 502; a later part that
 * is damaged aborts the stream, which every host passes on as a broken connection, never as a
 * normal end (on workerd the body goes through a FixedLengthStream of the file's size: with
 * only a Content-Length header, workerd ended an aborted stream as a short, complete answer).
 */
import { CONTENT_TYPES } from '../../contract/endpoints.ts';
import type { BulkIndexJson } from '../../contract/schemas.ts';
import { REVALIDATE } from '../../contract/hostRouting.ts';
import { HttpError, damagedFile, notModified, streamedResponse } from './http.ts';
import { planReads, readBytes, readJson, type EdgeSite } from './siteReader.ts';

type BulkEntry = BulkIndexJson['files'][number];
type BulkPart = NonNullable<BulkEntry['parts']>[number];

const hex = (digest: ArrayBuffer) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The bytes of `part`, when they are the ones the index lists (size and SHA-256); else the error a damaged file gets. */
async function checkedPart(site: EdgeSite, part: BulkPart): Promise<Uint8Array> {
  const bytes = await readBytes(site, part.path.slice(1));
  if (bytes === null || bytes.byteLength !== part.bytes) throw damagedFile();
  const checked = site.immutable ? site.kept?.checkedParts : undefined;
  const key = `${part.path} ${part.sha256}`;
  if (checked?.get(key)) return bytes;
  if (hex(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)) !== part.sha256) throw damagedFile();
  checked?.set(key, true, 1);
  return bytes;
}

/** Workers' stream of a declared length (absent elsewhere): an answer that ends short is an error there, not a complete answer. */
const FixedLength = (globalThis as { FixedLengthStream?: new (length: number) => TransformStream<Uint8Array, Uint8Array> }).FixedLengthStream;

/** The file's parts, one after another, the first already read; a part that is not the listed one aborts the stream. */
function joinedParts(site: EdgeSite, entry: BulkEntry, first: Uint8Array): ReadableStream<Uint8Array> {
  const parts = entry.parts!;
  let next = 1;
  const joined = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(first);
      if (next >= parts.length) controller.close();
    },
    async pull(controller) {
      try {
        controller.enqueue(await checkedPart(site, parts[next++]));
      } catch (error) {
        return controller.error(error);
      }
      if (next >= parts.length) controller.close();
    },
  }, { highWaterMark: 0 });
  if (!FixedLength) return joined;
  const fixed = new FixedLength(entry.bytes);
  joined.pipeTo(fixed.writable).catch(() => {}); // the readable side carries the error to the client
  return fixed.readable;
}

/** Whether the index's parts can make the file it lists: at least one, their sizes adding up to the file's. */
const partsAddUp = (entry: BulkEntry) =>
  Boolean(entry.parts?.length) && entry.parts!.reduce((sum, part) => sum + part.bytes, 0) === entry.bytes;

/** GET or HEAD of a bulk file by name: its parts joined and checked, with the whole file's size and hash as validator. */
export async function bulkDownload(site: EdgeSite, request: Request, name: string): Promise<Response> {
  const index = await readJson<BulkIndexJson>(site, 'api/v1/bulk/index.json');
  const entry = index?.files.find((file) => file.name === name);
  if (!entry) throw new HttpError(404, `no bulk file ${name} (bulk/index.json lists them)`);
  if (!partsAddUp(entry)) throw damagedFile();
  // Each part is a read: a file of more parts than a request may read is fetched by its parts (bulk.md).
  planReads(site, entry.parts!.map((part) => part.path.slice(1)), `bulk/${name} joins ${entry.parts!.length} parts, a read each (bulk/index.json lists them, to be fetched one by one)`);
  const headers = {
    'content-type': CONTENT_TYPES[entry.format],
    'content-length': String(entry.bytes),
    etag: `"${entry.sha256.slice(0, 32)}"`,
    'cache-control': REVALIDATE,
  };
  const unread = notModified(request, streamedResponse(null, headers));
  if (request.method === 'HEAD' || unread.status === 304) return unread;
  // Read before the answer starts: a damaged first part (the whole of most files) is an error status, not a broken stream.
  const first = await checkedPart(site, entry.parts![0]);
  return streamedResponse(joinedParts(site, entry, first), headers);
}
