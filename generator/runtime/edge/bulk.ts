/**
 * Bulk downloads at their own URLs (bulk/cards.jsonl, bulk/sif.sqlite): the build publishes
 * each in parts (derive/bulk.ts) that bulk/index.json lists; the edge joins them into one
 * stream, a part read at a time, so an answer holds at most one part however large the file.
 */
import { CONTENT_TYPES } from '../../contract/endpoints.ts';
import type { BulkIndexJson } from '../../contract/schemas.ts';
import { REVALIDATE } from '../../contract/hostRouting.ts';
import { HttpError, notModified, streamedResponse } from './http.ts';
import { readBytes, readJson, type EdgeSite } from './siteReader.ts';

type BulkEntry = BulkIndexJson['files'][number];

/** The file's parts, one after another; a part missing or not of its listed size ends the stream with an error. */
function joinedParts(site: EdgeSite, entry: BulkEntry): ReadableStream<Uint8Array> {
  const parts = entry.parts ?? [];
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next >= parts.length) return controller.close();
      const part = parts[next++];
      const bytes = await readBytes(site, part.path.slice(1));
      if (bytes === null || bytes.byteLength !== part.bytes) return controller.error(new Error(`bulk part ${part.path} is missing or not ${part.bytes} bytes`));
      controller.enqueue(bytes);
      if (next >= parts.length) controller.close();
    },
  }, { highWaterMark: 0 });
}

/** GET or HEAD of a bulk file by name: its parts joined, with the whole file's size and hash as validator. */
export async function bulkDownload(site: EdgeSite, request: Request, name: string): Promise<Response> {
  const index = await readJson<BulkIndexJson>(site, 'api/v1/bulk/index.json');
  const entry = index?.files.find((file) => file.name === name);
  if (!entry) throw new HttpError(404, `no bulk file ${name} (bulk/index.json lists them)`);
  const headers = {
    'content-type': CONTENT_TYPES[entry.format],
    'content-length': String(entry.bytes),
    etag: `"${entry.sha256.slice(0, 32)}"`,
    'cache-control': REVALIDATE,
  };
  const body = request.method === 'HEAD' ? null : joinedParts(site, entry);
  return notModified(request, streamedResponse(body, headers));
}
