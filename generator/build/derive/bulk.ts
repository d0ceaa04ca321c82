/**
 * The bulk stage (after render): every object of the site in a few downloads. One JSON
 * Lines file per kind, each line the object's JSON text as its single-object route
 * publishes it (the rendered objects, serialized by the same function); sif.sqlite with
 * every kind as a table but the charts' notes (endpoints.ts LINES_ONLY_KINDS); a `<file>.sha256` beside each in sha256sum format; and
 * bulk/index.json listing them with sizes, hashes and the truth version in which each
 * file last changed (carried from the previous site's index while the hash is the same).
 *
 * Each file is published in parts (format.ts BULK_PART_BYTES, bulkPartLines) that the edge
 * joins at the file's own URL: no file comes near a host's size limit, and a change to one
 * object rewrites one part of each file holding it, not the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { BULK_KINDS, LINES_ONLY_KINDS, NOTES, OBJECT_TYPE_NAMES, endpoints, type BulkKind, type ObjectType } from '../../contract/endpoints.ts';
import type { BulkIndexJson } from '../../contract/schemas.ts';
import { BULK_PART_BYTES, bulkPartLines, bulkPartName, PART_SPREAD } from '../../contract/format.ts';
import { CHUNK, writeDigested, type FileDigest } from '../digest.ts';
import { emit, jsonBytes, type MovableFiles } from '../render/files.ts';
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
 * object as its route publishes it (a chart's notes: its notes file). card_t and accessory_t hold the objects of cards and
 * accessories (the database makes them views of those tables, ordered as their files are).
 */
function bulkKinds({ objects, objectTypes, sets, pairs, notes }: Rendered): { name: BulkKind; objects: readonly object[]; viewOf?: SqliteKind['viewOf'] }[] {
  const byKind: Record<BulkKind, readonly object[]> = {
    ...objects, cards: [...objects.card_t].sort((a, b) => a.ordinal - b.ordinal), accessories: objects.accessory_t, sets, pairs, notes,
  };
  const views: Partial<Record<BulkKind, SqliteKind['viewOf']>> = { card_t: { table: 'cards', orderBy: 'id' }, accessory_t: { table: 'accessories', orderBy: 'id' } };
  // Object types the site does not publish (songs without a live database) have no bulk file either, nor do their charts' notes.
  const published = (name: BulkKind) => (name === NOTES ? objectTypes.includes('live_t')
    : !(OBJECT_TYPE_NAMES as readonly string[]).includes(name) || objectTypes.includes(name as ObjectType));
  return BULK_KINDS.filter(published).map((name) => ({ name, objects: byKind[name], viewOf: views[name] }));
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

const NEWLINE = Buffer.from('\n');

/** A part's content, written by `fill` through `write`. */
type PartFill = (write: (bytes: Uint8Array) => void) => void;

/** A number from `bytes` that any change to them changes (the first 32 bits of their SHA-256). */
const mark = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest().readUInt32BE(0);

/**
 * Where parts end, given each unit's mark (a SQLite file's pages), as the index after each part's
 * last unit: after a unit whose mark is a multiple of half the `average` (a power of two), holding
 * at least a quarter of it and at most PART_SPREAD times it, so parts average about `average` units
 * (content-defined chunking, as rsync and casync cut). A unit inserted, removed or changed moves the
 * ends of its own part and its neighbours' at most, never those of the parts after it, as cutting
 * every `average` units would: a table that grows by a page moves every page after it.
 */
export function cuts(marks: readonly number[], average: number): number[] {
  const modulus = Math.max(1, average / 2);
  const [fewest, most] = [Math.max(1, average / 4), average * PART_SPREAD];
  const ends: number[] = [];
  let start = 0;
  marks.forEach((value, i) => {
    const held = i + 1 - start;
    if ((held >= fewest && value % modulus === 0) || held >= most) ends.push((start = i + 1));
  });
  if (start < marks.length) ends.push(marks.length);
  return ends;
}

/**
 * The JSON Lines of `objects` in parts of about BULK_PART_BYTES (format.ts bulkPartLines): by
 * position, since objects keep their places (in id or ordinal order, new ones mostly last), so a
 * changed object rewrites its own part and a new one the last.
 */
function lineParts(objects: readonly Buffer[]): PartFill[] {
  const parts: PartFill[] = [];
  const lines = bulkPartLines(objects.reduce((n, bytes) => n + bytes.length + 1, 0) / Math.max(1, objects.length));
  for (let start = 0; start < objects.length; start += lines) {
    parts.push((write) => {
      for (const bytes of objects.slice(start, start + lines)) {
        write(bytes);
        write(NEWLINE);
      }
    });
  }
  return parts;
}

/** Bytes [start, end) of the file at `file`, written a chunk at a time. */
function byteRange(file: string, start: number, end: number): PartFill {
  return (write) => {
    const fd = fs.openSync(file, 'r');
    try {
      for (let at = start; at < end;) {
        const chunk = Buffer.allocUnsafe(Math.min(CHUNK, end - at));
        at += fs.readSync(fd, chunk, 0, chunk.length, at);
        write(chunk);
      }
    } finally {
      fs.closeSync(fd);
    }
  };
}

/** The SQLite file at `file` in parts of whole pages, about BULK_PART_BYTES each, cut by the pages' content; each read when written. */
function pageParts(file: string): PartFill[] {
  const size = fs.statSync(file).size;
  const marks: number[] = [];
  const fd = fs.openSync(file, 'r');
  try {
    const page = Buffer.allocUnsafe(SQLITE_PAGE_SIZE);
    for (let at = 0; at < size; at += SQLITE_PAGE_SIZE) marks.push(mark(page.subarray(0, fs.readSync(fd, page, 0, SQLITE_PAGE_SIZE, at))));
  } finally {
    fs.closeSync(fd);
  }
  let start = 0;
  return cuts(marks, BULK_PART_BYTES / SQLITE_PAGE_SIZE).map((end) => byteRange(file, start * SQLITE_PAGE_SIZE, Math.min(size, (start = end) * SQLITE_PAGE_SIZE)));
}

type Part = NonNullable<BulkEntry['parts']>[number];

/** Writes each part as a file of the site; returns the parts and the digest of the whole they make. */
function publishParts(files: MovableFiles, scratch: string, name: string, fills: PartFill[]): { whole: FileDigest; parts: Part[] } {
  const whole = createHash('sha256');
  let bytes = 0;
  const parts = fills.map((fill, i) => {
    const rel = endpoints.bulkPart.file(name, bulkPartName(i));
    const file = path.join(scratch, `${name}.${i}`);
    const digest = writeDigested(file, (write) => fill((part) => {
      whole.update(part);
      bytes += part.length;
      write(part);
    }));
    files.move(rel, file, digest);
    return { path: `/${rel}`, ...digest };
  });
  return { whole: { sha256: whole.digest('hex'), bytes }, parts };
}

/** Each object's JSON bytes, serialized once however many kinds hold it (a card is in cards and card_t). */
function serializer(): (object: object) => Buffer {
  const done = new Map<object, Buffer>();
  return (object) => done.get(object) ?? done.set(object, jsonBytes(object)).get(object)!;
}

/**
 * The downloads are written to files in `options.scratch` and moved into the site (they are
 * the site's largest files: written a chunk at a time, they are never held whole).
 */
export async function deriveBulk(rendered: Rendered, files: MovableFiles, options: BulkOptions): Promise<BulkIndexJson> {
  const previous = await previousVersions(options.previous);
  const entries: BulkEntry[] = [];
  fs.mkdirSync(options.scratch, { recursive: true });
  const add = (name: string, type: string, format: BulkEntry['format'], count: number, fills: PartFill[]) => {
    const { whole: { sha256, bytes }, parts } = publishParts(files, options.scratch, name, fills);
    files.set(endpoints.bulkChecksum.file(name), Buffer.from(`${sha256}  ${name}\n`));
    const before = previous.get(name);
    const updatedIn = before?.sha256 === sha256 ? before.updated_in : options.truthVersion;
    entries.push({ name, path: `/api/v1/bulk/${name}`, type, format, count, bytes, sha256, updated_in: updatedIn, parts });
  };
  const serialized = serializer();
  const kinds: SqliteKind[] = bulkKinds(rendered).map((kind) => ({ ...kind, json: kind.objects.map(serialized) }));
  for (const kind of kinds) add(`${kind.name}.jsonl`, kind.name, 'jsonl', kind.objects.length, lineParts(kind.json));
  const database = path.join(options.scratch, 'sif.sqlite');
  const tables = kinds.filter((kind) => !LINES_ONLY_KINDS.includes(kind.name as BulkKind));
  bulkSqlite(tables, options, database);
  add('sif.sqlite', 'all', 'sqlite', tables.reduce((n, kind) => n + kind.objects.length, 0), pageParts(database));
  fs.rmSync(database);
  const index = { truth_version: options.truthVersion, date: options.date, files: entries };
  emit(files, endpoints.bulkIndex, [], index);
  return index;
}
