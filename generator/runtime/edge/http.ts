/** Responses of the edge handler: JSON with the headers every response keeps, errors and validators. */
import type { ErrorJson } from '../../contract/schemas.ts';
import { REVALIDATE } from '../../contract/hostRouting.ts';

/** A request the handler refuses: status and message become `{"error": message}`. */
export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
}

const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'access-control-allow-origin': '*',
};

/**
 * Marks an answer that code produced or passed on (the edge handler, the Worker, the Netlify
 * function), so anyone can tell with `curl -I` that a plain read of a published file ran none
 * (docs/hosts.md). A response whose headers cannot change (a fetched file) is copied.
 */
export const RAN_CODE_HEADER = 'x-sif-edge';
export function ranCode(response: Response): Response {
  try {
    response.headers.set(RAN_CODE_HEADER, '1');
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(RAN_CODE_HEADER, '1');
    return copy;
  }
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return jsonTextResponse(JSON.stringify(body), status, headers);
}

/**
 * The text and headers of the answers jsonTextResponse made (nothing changes them before withETag):
 * withETag hashes that text and makes its answer from them, rather than reading the body back
 * through its stream and copying its headers.
 */
const madeFrom = new WeakMap<Response, { text: string; headers: Record<string, string> }>();

/** A response whose JSON is already text. */
export function jsonTextResponse(text: string, status = 200, headers: Record<string, string> = {}): Response {
  const all = { ...JSON_HEADERS, ...headers };
  const response = new Response(text, { status, headers: all });
  madeFrom.set(response, { text, headers: all });
  return response;
}

/**
 * JSON as pieces whose concatenation is the document: text (separators, objects read as
 * text) and UTF-8 bytes (objects sliced out of packs, never decoded).
 */
export type JsonPieces = (string | Uint8Array)[];

/**
 * Answers longer than this (characters or bytes) are streamed from their pieces instead of
 * joined: a 1,000-card list is megabytes, and joining it (then encoding it, then copying it
 * to the socket) for each of many concurrent requests is what exhausts a server's memory.
 */
const STREAM_SIZE = 256 * 1024;
/** Bytes per chunk of a streamed answer. */
const CHUNK_BYTES = 64 * 1024;

/** Streamed answers: they carry no ETag, since a validator needs every byte before the first is sent. */
const streamed = new WeakSet<Response>();

const encoder = new TextEncoder();
/** Text pieces this short (a list's separators, its opening) are encoded once, not once per object of every answer. */
const SHORT_PIECE = 16;
const shortPieces = new Map<string, Uint8Array>();
function pieceBytes(piece: string | Uint8Array): Uint8Array {
  if (typeof piece !== 'string') return piece;
  if (piece.length > SHORT_PIECE) return encoder.encode(piece);
  let bytes = shortPieces.get(piece);
  if (!bytes) {
    if (shortPieces.size >= 1024) shortPieces.clear();
    shortPieces.set(piece, (bytes = encoder.encode(piece)));
  }
  return bytes;
}

/** The document as text, to reshape it or send it whole. */
export function piecesText(pieces: JsonPieces): string {
  const decoder = new TextDecoder();
  return pieces.map((piece) => (typeof piece === 'string' ? piece : decoder.decode(piece))).join('');
}

/** The pieces as a stream of UTF-8 chunks of about CHUNK_BYTES, made only as the reader asks for them. */
function piecesStream(pieces: JsonPieces): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const parts: Uint8Array[] = [];
      let size = 0;
      while (next < pieces.length && size < CHUNK_BYTES) {
        const part = pieceBytes(pieces[next++]);
        if (!part.byteLength) continue;
        parts.push(part);
        size += part.byteLength;
      }
      // One long part goes as it is (a view of a pack); short ones may be shared (shortPieces): copied.
      if (size) controller.enqueue(parts.length === 1 && size > SHORT_PIECE * 4 ? parts[0] : concat(parts, size));
      if (next >= pieces.length) controller.close();
    },
  }, { highWaterMark: 0 });
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const chunk = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    // A list's separators are one byte: written, not copied by a call (half the parts of a list).
    if (part.byteLength === 1) chunk[at] = part[0];
    else chunk.set(part, at);
    at += part.byteLength;
  }
  return chunk;
}

/** A JSON answer from its pieces: joined when short, streamed when long. */
export function jsonPiecesResponse(pieces: JsonPieces, status = 200, headers: Record<string, string> = {}): Response {
  const size = pieces.reduce((n, piece) => n + (typeof piece === 'string' ? piece.length : piece.byteLength), 0);
  if (size <= STREAM_SIZE) return jsonTextResponse(piecesText(pieces), status, headers);
  const response = new Response(piecesStream(pieces), { status, headers: { ...JSON_HEADERS, 'cache-control': REVALIDATE, ...headers } });
  streamed.add(response);
  return response;
}

/** A response whose body is already a stream (with its own validator, if any): sent as it is, never buffered for an ETag. */
export function streamedResponse(body: ReadableStream<Uint8Array> | null, headers: Record<string, string>): Response {
  const response = new Response(body, { status: 200, headers: { 'access-control-allow-origin': '*', ...headers } });
  streamed.add(response);
  return response;
}

export function errorResponse(error: HttpError): Response {
  const body: ErrorJson = { error: error.message };
  return jsonResponse(body, error.status, error.headers);
}

/**
 * An answer that would be made from a published file the edge finds damaged (not what the build
 * wrote: a pack whose objects or offsets are broken, a bulk part missing or not the one
 * bulk/index.json lists): refused, naming nothing of the site's insides, never served broken.
 */
export const damagedFile = () => new HttpError(502, 'a published file this answer is made from is damaged; the site must be built and deployed again');

export const methodNotAllowed = (method: string, allow: string) =>
  new HttpError(405, `method ${method} is not allowed here (allowed: ${allow})`, { allow });

/** The CORS preflight: any origin may call every route, read_tl's POST included. */
export function preflight(request: Request): Response {
  const asked = request.headers.get('access-control-request-headers');
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
      'access-control-allow-headers': asked && /^[\w\s,-]+$/.test(asked) ? asked : 'Content-Type',
      'access-control-max-age': '86400',
    },
  });
}

/** A strong validator: the first 128 bits of the body's SHA-256, by Web Crypto (Deno and Node alike). */
async function etagOf(body: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
  return `"${Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('')}"`;
}

/** If-None-Match compares weakly (RFC 9110 13.1.2): `W/"x"` matches `"x"`; `*` matches any. */
function isCurrent(ifNoneMatch: string | null, etag: string): boolean {
  return ifNoneMatch !== null && ifNoneMatch.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, '')));
}

/**
 * A 200 answer to GET or HEAD gets an ETag and, unless its route chose another, the revalidating
 * cache policy; when the client's copy is current, it becomes a 304 without body (same ETag,
 * CORS and cache headers). Other responses, streamed answers included, pass unchanged.
 */
export async function withETag(request: Request, response: Response | null): Promise<Response | null> {
  if (response?.status !== 200 || !['GET', 'HEAD'].includes(request.method) || streamed.has(response)) return response;
  // An answer made from text here: that text encoded, its body never read.
  const made = madeFrom.get(response);
  const body = made ? encoder.encode(made.text) : await response.arrayBuffer();
  const headers = new Headers(made ? made.headers : response.headers);
  const etag = await etagOf(body);
  headers.set('etag', etag);
  if (!headers.has('cache-control')) headers.set('cache-control', REVALIDATE);
  return notModified(request, new Response(body, { status: 200, headers }));
}

/**
 * A 200 answer to a GET or HEAD asking for one byte range (`Range: bytes=a-b`, `a-` or `-n`)
 * becomes a 206 of those bytes, as static hosts answer: what lets a mirror fetch only the
 * blocks of a file it lacks. Several ranges, a malformed one, or an If-Range that is not this
 * answer's ETag get the whole answer; a range that starts past the end, a 416.
 */
export async function byteRange(request: Request, response: Response): Promise<Response> {
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get('range')?.trim() ?? '');
  const ifRange = request.headers.get('if-range');
  if (!range || (!range[1] && !range[2]) || response.status !== 200 || !['GET', 'HEAD'].includes(request.method)) return response;
  if ((ifRange !== null && ifRange !== response.headers.get('etag')) || (range[1] && range[2] && Number(range[2]) < Number(range[1]))) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const size = body.length;
  const [start, end] = range[1] ? [Number(range[1]), range[2] ? Math.min(Number(range[2]), size - 1) : size - 1] : [Math.max(0, size - Number(range[2])), size - 1];
  const headers = new Headers(response.headers);
  if (start >= size || end < start) {
    headers.set('content-range', `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  headers.set('content-range', `bytes ${start}-${end}/${size}`);
  return new Response(body.subarray(start, end + 1), { status: 206, headers });
}

/**
 * A 200 answer with an ETag the client already has becomes a 304 without body (same ETag, CORS
 * and cache headers); any other answer passes unchanged.
 */
export function notModified(request: Request, response: Response): Response {
  const etag = response.headers.get('etag');
  if (response.status !== 200 || etag === null || !isCurrent(request.headers.get('if-none-match'), etag)) return response;
  void response.body?.cancel();
  const headers = new Headers(response.headers);
  headers.delete('content-type'); // a 304 carries no representation, only what updates the cached one
  headers.delete('content-length');
  return new Response(null, { status: 304, headers });
}
