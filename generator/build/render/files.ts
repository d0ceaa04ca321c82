/** Serializing responses into the site's files: compact JSON, shared objects encoded once. */
import { randomUUID } from 'node:crypto';
import type { ResponseName, ResponseOf } from '../../contract/endpoints.ts';
import type { SiteFiles } from '../siteFiles.ts';

/**
 * Objects embedded in many files (a card is in its card file, its generic object, its
 * sets and pairs) are serialized and encoded once: while addJson runs, such an object
 * serializes as a placeholder, and the file's bytes are then joined around their bytes.
 * The token is random per process, so no input text can pose as a placeholder.
 */
const sharedBytes = new WeakMap<object, Buffer>();
const TOKEN = `shared-json-${randomUUID()}:`;
/** Split by this, a text alternates outer JSON and indexes of shared objects. */
const PLACEHOLDER = new RegExp(`"${TOKEN}(\\d+)"`);
/** The shared objects met by the addJson call running now; null outside addJson. */
let spliced: object[] | null = null;

function sharedToJson(this: object): unknown {
  if (!spliced) return { ...this }; // a plain copy for any other JSON.stringify
  return `${TOKEN}${spliced.push(this) - 1}`;
}

/**
 * A model array a response holds as it is, not copied (a card's stat arrays, hundreds of values
 * each): the response types are writable, the model's are not, and no stage writes either.
 */
export const sharedArray = <T>(items: readonly T[]): T[] => items as T[];

/** Marks a rendered object that will not change again as embedded in many files. */
export function shareJson<T extends object>(value: T): T {
  sharedBytes.set(value, Buffer.from(JSON.stringify(value)));
  Object.defineProperty(value, 'toJSON', { value: sharedToJson });
  return value;
}

/**
 * A value standing for JSON already encoded (`bytes`): jsonBytes splices the bytes in as
 * they are, as for a shared object; any other JSON.stringify sees the value they encode. For
 * JSON carried whole into another file without being parsed (a snapshot's object in a history).
 */
export function encodedJson(bytes: Buffer): object {
  const value = {};
  sharedBytes.set(value, bytes);
  Object.defineProperty(value, 'toJSON', {
    value(this: object) {
      return spliced ? sharedToJson.call(this) : JSON.parse(bytes.toString('utf8'));
    },
  });
  return value;
}

/** JSON as pieces laid end to end: text, and bytes already encoded (as the edge's answers are made, runtime/edge/http.ts). */
export type JsonPieces = readonly (string | Buffer)[];

/**
 * The compact JSON of `value` as pieces: its own text, and each shared object's bytes as they
 * are (not copied). A file that holds many objects (a bulk part) joins its lines' pieces once,
 * into itself, instead of each line's bytes first.
 */
export function jsonPieces(value: unknown): JsonPieces {
  const shared = typeof value === 'object' && value !== null ? sharedBytes.get(value) : undefined;
  if (shared) return [shared];
  const objects: object[] = [];
  spliced = objects;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    spliced = null;
  }
  if (!objects.length) return [text];
  // Odd parts name shared objects.
  return text.split(PLACEHOLDER).map((part, i) => (i % 2 ? sharedBytes.get(objects[Number(part)])! : part));
}

/** The bytes `pieces` take in UTF-8. */
export const piecesLength = (pieces: JsonPieces): number =>
  pieces.reduce((n, piece) => n + (typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length), 0);

/** Writes `pieces` into `into` from `at`; returns where they end. */
export function writePieces(pieces: JsonPieces, into: Buffer, at: number): number {
  for (const piece of pieces) at += typeof piece === 'string' ? into.write(piece, at) : piece.copy(into, at);
  return at;
}

/** `pieces` as one buffer: a single shared object's bytes are its own, not copied. */
export function joinPieces(pieces: JsonPieces): Buffer {
  if (pieces.length === 1) return typeof pieces[0] === 'string' ? Buffer.from(pieces[0]) : pieces[0];
  const bytes = Buffer.allocUnsafe(piecesLength(pieces));
  writePieces(pieces, bytes, 0);
  return bytes;
}

/** The compact JSON bytes of `value`, shared objects' bytes spliced in as they are. */
export const jsonBytes = (value: unknown): Buffer => joinPieces(jsonPieces(value));

/** Compact JSON, so equal values always give equal bytes. */
export function addJson(files: SiteFiles, path: string, value: unknown): void {
  files.set(path, jsonBytes(value));
}

/**
 * Publishes the response of a declared static endpoint: the body is typed by the endpoint's
 * schema. A literal route whose file has an extension the route lacks (`/api/v1/info`,
 * `/api/v1/list/<type>`) is published under the route too, so every host serves it as a
 * file: a plain static host with no rules or edge, and Cloudflare Pages, which would apply a
 * rewrite even where a file exists. Only parameterized routes need an edge. Returns the bytes published.
 */
export function emit<N extends ResponseName, A extends unknown[]>(
  files: SiteFiles, endpoint: { route: string; response: N; file: (...args: A) => string }, args: A, body: ResponseOf<N>,
): Buffer {
  const [file, bytes] = [endpoint.file(...args), jsonBytes(body)];
  files.set(file, bytes);
  const route = endpoint.route.slice(1);
  if (!route.includes('{') && route !== file) files.set(route, bytes);
  return bytes;
}
