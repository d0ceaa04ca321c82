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
import { hash } from 'node:crypto';
import { OBJECT_TYPE_NAMES, endpoints } from '../contract/endpoints.ts';
import type { BulkIndexJson } from '../contract/schemas.ts';
import { emit, jsonBytes, type SiteFiles } from '../render/files.ts';
import type { Rendered } from '../render/renderSite.ts';
import { bulkSqlite, type SqliteKind } from './bulkSqlite.ts';

export interface BulkOptions {
  truthVersion: string;
  /** The data version's date (unix seconds), null when unknown. */
  date: number | null;
  /** The folder of the site this one follows (the published one, or --since): where `updated_in` is carried from. */
  previous: string;
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

export const sha256 = (bytes: Uint8Array): string => hash('sha256', bytes, 'hex');

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
/** JSON Lines: each object's JSON, then a newline. */
const linesOf = (objects: readonly Buffer[]) => Buffer.concat(objects.flatMap((bytes) => [bytes, NEWLINE]));

/** Each object's JSON bytes, serialized once however many kinds hold it (a card is in cards and card_t). */
function serializer(): (object: object) => Buffer {
  const done = new Map<object, Buffer>();
  return (object) => done.get(object) ?? done.set(object, jsonBytes(object)).get(object)!;
}

export function deriveBulk(rendered: Rendered, files: SiteFiles, options: BulkOptions): BulkIndexJson {
  const previous = previousVersions(options.previous);
  const entries: BulkEntry[] = [];
  const add = (name: string, type: string, format: BulkEntry['format'], count: number, bytes: Buffer) => {
    const hash = sha256(bytes);
    const file = format === 'jsonl' ? endpoints.bulkLines.file(type) : endpoints.bulkSqlite.file();
    files.set(file, bytes);
    files.set(endpoints.bulkChecksum.file(name), Buffer.from(`${hash}  ${name}\n`));
    const before = previous.get(name);
    const updatedIn = before?.sha256 === hash ? before.updated_in : options.truthVersion;
    entries.push({ name, path: `/${file}`, type, format, count, bytes: bytes.length, sha256: hash, updated_in: updatedIn });
  };
  const serialized = serializer();
  const kinds: SqliteKind[] = bulkKinds(rendered).map((kind) => ({ ...kind, json: kind.objects.map(serialized) }));
  for (const kind of kinds) add(`${kind.name}.jsonl`, kind.name, 'jsonl', kind.objects.length, linesOf(kind.json));
  const database = bulkSqlite(kinds, options);
  add('sif.sqlite', 'all', 'sqlite', kinds.reduce((n, kind) => n + kind.objects.length, 0), database);
  const index = { truth_version: options.truthVersion, date: options.date, files: entries };
  emit(files, endpoints.bulkIndex, [], index);
  return index;
}
