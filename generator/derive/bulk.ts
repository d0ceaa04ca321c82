/**
 * The bulk stage (after render): every object of the site in a few downloads. One JSON
 * Lines file per kind, each line the object's JSON text as its single-object route
 * publishes it (the rendered objects, serialized by the same function); sif.sqlite with
 * every kind as a table; a `<file>.sha256` beside each in sha256sum format; and
 * bulk/index.json listing them with sizes, hashes and the truth version in which each
 * file last changed (carried from the previous site's index while the hash is the same).
 */
import fs from 'node:fs';
import path from 'node:path';
import { OBJECT_TYPE_NAMES, endpoints } from '../contract/endpoints.ts';
import type { BulkIndexJson } from '../contract/schemas.ts';
import { writeDigested, type FileDigest } from '../digest.ts';
import { emit, jsonBytes, type MovableFiles } from '../render/files.ts';
import type { Rendered } from '../render/renderSite.ts';
import { bulkSqlite, type SqliteKind } from './bulkSqlite.ts';

export interface BulkOptions {
  truthVersion: string;
  /** The data version's date (unix seconds), null when unknown. */
  date: number | null;
  /** The folder of the site this one follows (the published one, or --since): where `updated_in` is carried from. */
  previous: string;
  /** A folder of the build's own where the downloads are written before they join the site (created when missing). */
  scratch: string;
}

type BulkEntry = BulkIndexJson['files'][number];

/** The kinds in the order bulk/index.json and the database list them; each line is the object as its route publishes it. */
function bulkKinds({ objects, sets, pairs }: Rendered): { name: string; objects: readonly object[] }[] {
  return [
    { name: 'cards', objects: [...objects.card_t].sort((a, b) => a.ordinal - b.ordinal) },
    { name: 'accessories', objects: objects.accessory_t },
    { name: 'sets', objects: sets },
    { name: 'pairs', objects: pairs },
    ...OBJECT_TYPE_NAMES.map((type) => ({ name: type, objects: objects[type] as readonly object[] })),
  ];
}

/** The `updated_in` of each file of the previous site's bulk index, by name; none when it has no readable index. */
function previousVersions(folder: string): Map<string, BulkEntry> {
  try {
    const index = JSON.parse(fs.readFileSync(path.join(folder, endpoints.bulkIndex.file()), 'utf8')) as BulkIndexJson;
    return new Map(index.files.filter((f) => typeof f.sha256 === 'string' && typeof f.updated_in === 'string').map((f) => [f.name, f]));
  } catch {
    return new Map();
  }
}

const NEWLINE = Buffer.from('\n');

/** Writes JSON Lines to `file`: each object's JSON, then a newline. */
function writeLines(file: string, objects: readonly Buffer[]): FileDigest {
  return writeDigested(file, (write) => {
    for (const bytes of objects) {
      write(bytes);
      write(NEWLINE);
    }
  });
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
export function deriveBulk(rendered: Rendered, files: MovableFiles, options: BulkOptions): BulkIndexJson {
  const previous = previousVersions(options.previous);
  const entries: BulkEntry[] = [];
  fs.mkdirSync(options.scratch, { recursive: true });
  const add = (name: string, type: string, format: BulkEntry['format'], count: number, write: (file: string) => FileDigest) => {
    const [rel, scratch] = [format === 'jsonl' ? endpoints.bulkLines.file(type) : endpoints.bulkSqlite.file(), path.join(options.scratch, name)];
    const { sha256, bytes } = write(scratch);
    files.move(rel, scratch, { sha256, bytes });
    files.set(endpoints.bulkChecksum.file(name), Buffer.from(`${sha256}  ${name}\n`));
    const before = previous.get(name);
    const updatedIn = before?.sha256 === sha256 ? before.updated_in : options.truthVersion;
    entries.push({ name, path: `/${rel}`, type, format, count, bytes, sha256, updated_in: updatedIn });
  };
  const serialized = serializer();
  const kinds: SqliteKind[] = bulkKinds(rendered).map((kind) => ({ ...kind, json: kind.objects.map(serialized) }));
  for (const kind of kinds) add(`${kind.name}.jsonl`, kind.name, 'jsonl', kind.objects.length, (file) => writeLines(file, kind.json));
  add('sif.sqlite', 'all', 'sqlite', kinds.reduce((n, kind) => n + kind.objects.length, 0), (file) => bulkSqlite(kinds, options, file));
  const index = { truth_version: options.truthVersion, date: options.date, files: entries };
  emit(files, endpoints.bulkIndex, [], index);
  return index;
}
