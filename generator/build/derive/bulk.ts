/**
 * The bulk stage (after render): every object of the site in a few downloads. One JSON
 * Lines file per kind, each line the object's JSON text as its single-object route
 * publishes it (the rendered objects, serialized by the same function); sif.sqlite with
 * every kind as a table but the charts' notes (endpoints.ts LINES_ONLY_KINDS); a `<file>.sha256` beside each in sha256sum format; and
 * bulk/index.json listing them with sizes, hashes and the truth version in which each
 * file last changed (carried from the previous site's index while the hash is the same).
 *
 * Each file is published in parts (format.ts bulkPartBytes, bulkPartLines) that the edge
 * joins at the file's own URL: no file comes near a host's size limit, and a change to one
 * object rewrites one part of each file holding it, not the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { BULK_KINDS, LINES_ONLY_KINDS, endpoints, type BulkKind } from '../../contract/endpoints.ts';
import { KINDS, kindsPublishedWith, PACKED_KINDS, type PackedKind } from '../../contract/kinds.ts';
import type { BulkIndexJson } from '../../contract/schemas.ts';
import { bulkPartBytes, bulkPartLines, bulkPartName } from '../../contract/format.ts';
import { sha256, type FileDigest } from '../digest.ts';
import { emit, jsonPieces, piecesLength, writePieces, type JsonPieces } from '../render/files.ts';
import type { SiteFiles } from '../siteFiles.ts';
import type { Rendered } from '../render/renderSite.ts';
import { bulkSqlite, SQLITE_PAGE_SIZE, type SqliteKind } from './bulkSqlite.ts';
import type { PreviousSite } from '../input/previousSite.ts';
import { carriedVersionFault } from '../input/curated.ts';

export interface BulkOptions {
  truthVersion: string;
  /** The data version's date (unix seconds), null when unknown. */
  date: number | null;
  /** The site this one follows (the published one, or --since): where `updated_in` is carried from. */
  previous: PreviousSite;
  /** A folder of the build's own where the downloads are written before they join the site (created when missing). */
  scratch: string;
}

type BulkEntry = BulkIndexJson['files'][number];

/**
 * The objects of each bulk kind (contract/endpoints.ts BULK_KINDS, in that order); each line is the
 * object as its route publishes it. card_t and accessory_t hold the objects of cards and
 * accessories (the database makes them views of those tables, ordered as their files are).
 */
function bulkKinds({ objects, objectTypes, sets, pairs, packed }: Rendered): { name: BulkKind; objects: readonly object[]; viewOf?: SqliteKind['viewOf'] }[] {
  const packedKinds = Object.fromEntries(PACKED_KINDS.map((k): [string, readonly object[]] => [k.own.bulk, packed[k.name]]));
  const byKind: Record<BulkKind, readonly object[]> = {
    ...objects, cards: [...objects.card_t].sort((a, b) => a.ordinal - b.ordinal), accessories: objects.accessory_t, sets, pairs,
    ...(packedKinds as Record<PackedKind['own']['bulk'], readonly object[]>),
  };
  // A generic type whose objects are a kind's own (card_t, accessory_t) is a view of its kind's table.
  const views: Partial<Record<BulkKind, SqliteKind['viewOf']>> = Object.fromEntries(KINDS.flatMap((k) => (k.objectType && k.own ? [[k.objectType, { table: k.own.bulk, orderBy: 'id' }]] : [])));
  // Kinds the site does not publish (songs, charts and their notes without a live database) have no bulk file either.
  const published = new Set<BulkKind>(kindsPublishedWith(objectTypes).flatMap((k) => [k.objectType, k.own?.bulk].filter((name) => !!name)));
  return BULK_KINDS.filter((name) => published.has(name)).map((name) => ({ name, objects: byKind[name], viewOf: views[name] }));
}

/**
 * The `updated_in` of each file of the previous site's bulk index, by name; none when it has no
 * readable index. One that a build would refuse as a truth version is not carried (the file is
 * then updated in this build's version).
 */
async function previousVersions(site: PreviousSite): Promise<Map<string, BulkEntry>> {
  try {
    const index = JSON.parse((await site.read(endpoints.bulkIndex.file())) ?? 'null') as BulkIndexJson;
    return new Map(index.files.filter((f) => typeof f.sha256 === 'string' && carriedVersionFault(f.updated_in) === null).map((f) => [f.name, f]));
  } catch {
    return new Map();
  }
}

const NEWLINE = 0x0a;

/** A part's bytes, made as it is published: one part is held at a time. */
type PartBytes = () => Buffer;

/**
 * The JSON Lines of `objects` in parts of about bulkPartBytes (format.ts bulkPartLines): by
 * position, since objects keep their places (in id or ordinal order, new ones mostly last), so a
 * changed object rewrites its own part and a new one the last. Each part is written from its
 * lines' pieces: no line is joined on its own (a set's line holds its cards).
 */
function lineParts(lines: readonly JsonPieces[]): PartBytes[] {
  const sizes = lines.map((line) => piecesLength(line) + 1);
  const perPart = bulkPartLines(lines.length, sizes.reduce((n, size) => n + size, 0));
  const parts: PartBytes[] = [];
  for (let start = 0; start < lines.length; start += perPart) {
    const end = Math.min(lines.length, start + perPart);
    parts.push(() => {
      const part = Buffer.allocUnsafe(sizes.slice(start, end).reduce((n, size) => n + size, 0));
      let at = 0;
      for (let i = start; i < end; i++) {
        at = writePieces(lines[i], part, at);
        part[at++] = NEWLINE;
      }
      return part;
    });
  }
  return parts;
}

/** Bytes [start, end) of the file at `file`. */
function byteRange(file: string, start: number, end: number): PartBytes {
  return () => {
    const bytes = Buffer.allocUnsafe(end - start);
    const fd = fs.openSync(file, 'r');
    try {
      for (let at = 0, read = 1; at < bytes.length && read > 0; at += read) read = fs.readSync(fd, bytes, at, bytes.length - at, start + at);
    } finally {
      fs.closeSync(fd);
    }
    return bytes;
  };
}

/**
 * The pages of each part of a SQLite file of `pages` pages whose tables and indexes begin at the
 * pages `roots` (each b-tree's pages follow its root: the file is written a table at a time), as
 * [first, last) page numbers from 1. The cuts: each b-tree's first page and every `average` pages
 * after it; a piece shorter than half of `average` (a small table, a table's tail) is joined to the
 * next, so every part but the last holds at least half of `average` and a file of many small tables
 * makes few parts (format.ts bulkPartBytes). A table grown by a page moves every page after it; the
 * later b-trees' parts, named by their content, keep their names, but for the first of each (its
 * root, which names its pages) and one joined to a changed piece before it.
 */
export function pageRanges(roots: readonly number[], pages: number, average: number): [number, number][] {
  const starts = [...new Set([1, ...roots])].filter((page) => page <= pages).sort((a, b) => a - b);
  const pieces = starts.flatMap((first, i) => {
    const end = starts[i + 1] ?? pages + 1;
    return Array.from({ length: Math.ceil((end - first) / average) }, (_, j): [number, number] => [first + j * average, Math.min(end, first + (j + 1) * average)]);
  });
  return joinShortPieces(pieces, average / 2);
}

/** Consecutive pieces joined until each part holds at least `least` pages (the last part may hold fewer). */
function joinShortPieces(pieces: [number, number][], least: number): [number, number][] {
  const parts: [number, number][] = [];
  let open: [number, number] | null = null;
  for (const [first, end] of pieces) {
    open = open ? [open[0], end] : [first, end];
    if (open[1] - open[0] >= least) {
      parts.push(open);
      open = null;
    }
  }
  if (open) parts.push(open);
  return parts;
}

/** The SQLite file at `file` in parts of whole pages (pageRanges), each read when written. */
function pageParts(file: string, roots: readonly number[]): PartBytes[] {
  const size = fs.statSync(file).size;
  return pageRanges(roots, Math.ceil(size / SQLITE_PAGE_SIZE), bulkPartBytes(size) / SQLITE_PAGE_SIZE)
    .map(([first, end]) => byteRange(file, (first - 1) * SQLITE_PAGE_SIZE, Math.min(size, (end - 1) * SQLITE_PAGE_SIZE)));
}

type Part = NonNullable<BulkEntry['parts']>[number];
/** A bulk file's parts as published, and the digest of the whole they make. */
interface PublishedParts {
  whole: FileDigest;
  parts: Part[];
}

/** Whether two files' lines are the same objects in the same order (so the same bytes). */
const sameObjects = (a: readonly object[], b: readonly object[]) => a.length === b.length && a.every((object, i) => object === b[i]);

/**
 * Adds each part as a file of the site, named by its content (the site's writers write it, and
 * take its block sums); returns the parts and the digest of the whole they make. A part whose
 * bytes a part already published has (`published`, by SHA-256: of this file or of one before it)
 * is that file, not a copy: accessory_t.jsonl holds the lines of accessories.jsonl in the same
 * order, so it lists the same parts; card_t.jsonl holds those of cards.jsonl by id rather than by
 * ordinal, and lists cards.jsonl's parts wherever the two orders agree part for part.
 */
function publishParts(files: SiteFiles, published: Map<string, string>, name: string, makers: PartBytes[]): PublishedParts {
  const whole = createHash('sha256');
  let bytes = 0;
  const parts = makers.map((make) => {
    const part = make();
    whole.update(part);
    bytes += part.length;
    const digest = { sha256: sha256(part), bytes: part.length };
    let rel = published.get(digest.sha256);
    if (rel === undefined) {
      rel = endpoints.bulkPart.file(name, bulkPartName(digest.sha256));
      published.set(digest.sha256, rel);
      files.set(rel, part, { sha256: digest.sha256 });
    }
    return { path: `/${rel}`, ...digest };
  });
  return { whole: { sha256: whole.digest('hex'), bytes }, parts };
}

/**
 * Each object's JSON pieces, serialized once however many kinds hold it (a card is in cards and
 * card_t), its text encoded once: a line is written twice (its part, its SQLite row).
 */
function serializer(): (object: object) => JsonPieces {
  const done = new Map<object, JsonPieces>();
  const encoded = (object: object) => jsonPieces(object).map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece));
  return (object) => done.get(object) ?? done.set(object, encoded(object)).get(object)!;
}

/**
 * The downloads join the site a part at a time (they are the site's largest files, never held
 * whole); the SQLite database is written in `options.scratch` and read back a part at a time.
 */
export async function deriveBulk(rendered: Rendered, files: SiteFiles, options: BulkOptions): Promise<BulkIndexJson> {
  const previous = await previousVersions(options.previous);
  const entries: BulkEntry[] = [];
  /** The site path of each part published so far, by its SHA-256. */
  const published = new Map<string, string>();
  fs.mkdirSync(options.scratch, { recursive: true });
  const add = (name: string, type: string, format: BulkEntry['format'], count: number, { whole, parts }: PublishedParts) => {
    files.set(endpoints.bulkChecksum.file(name), Buffer.from(`${whole.sha256}  ${name}\n`));
    const before = previous.get(name);
    const updatedIn = before?.sha256 === whole.sha256 ? before.updated_in : options.truthVersion;
    entries.push({ name, path: `/api/v1/bulk/${name}`, type, format, count, bytes: whole.bytes, sha256: whole.sha256, updated_in: updatedIn, parts });
  };
  const serialized = serializer();
  const kinds: SqliteKind[] = bulkKinds(rendered).map((kind) => ({ ...kind, json: kind.objects.map(serialized) }));
  const made: { objects: readonly object[]; parts: PublishedParts }[] = [];
  for (const kind of kinds) {
    const name = `${kind.name}.jsonl`;
    // The very lines of a file made before (accessory_t's are accessories'): its parts, not made and hashed again.
    const parts = made.find((file) => sameObjects(file.objects, kind.objects))?.parts ?? publishParts(files, published, name, lineParts(kind.json));
    made.push({ objects: kind.objects, parts });
    add(name, kind.name, 'jsonl', kind.objects.length, parts);
  }
  const database = path.join(options.scratch, 'sif.sqlite');
  const tables = kinds.filter((kind) => !LINES_ONLY_KINDS.includes(kind.name as BulkKind));
  const roots = bulkSqlite(tables, options, database);
  add('sif.sqlite', 'all', 'sqlite', tables.reduce((n, kind) => n + kind.objects.length, 0), publishParts(files, published, 'sif.sqlite', pageParts(database, roots)));
  fs.rmSync(database);
  const index = { truth_version: options.truthVersion, date: options.date, files: entries };
  emit(files, endpoints.bulkIndex, [], index);
  return index;
}
