/**
 * Object routes: comma lists of cards and accessories (`/api/v1/card/1,2,3.json`), a random
 * card, and generic objects (`/api/v1/<type>/1,2,3`). Ids are read from the pack files of
 * the blocks they fall in (format.ts PACK_SIZE), so a list of 1,000 ids costs one read per
 * block touched, not one per id; a block asked for a few ids, from their single-object files.
 * They answer JSON as pieces (edge/http.ts JsonPieces): objects are sliced out of packs as
 * UTF-8 bytes and never decoded, parsed or joined, unless query parameters reshape them; a
 * long answer is streamed, so a request holds no more than the packs it read.
 */
import type { Static } from '@sinclair/typebox';
import { KEY_PACK_SIZE, PACK_SIZE, keyPackOf, packOf } from '../../contract/format.ts';
import { endpoints, isObjectType, objectEndpoint, type ObjectType } from '../../contract/endpoints.ts';
import { KINDS } from '../../contract/kinds.ts';
import type { CardList } from '../../contract/schemas.ts';
import { HttpError, damagedFile, type JsonPieces } from './http.ts';
import { once, planReads, readBytes, readJson, type EdgeSite } from './siteReader.ts';
import { MAX_READS } from '../../contract/limits.ts';
import { memberSum, packWords } from '../../contract/packSum.ts';
import type { PackLookup } from './kept.ts';

/**
 * A block asked for at most this many ids may be read as their single files instead of its pack
 * (readPlan). In bench/edgeCpu.ts a read costs about 0.26 ms of CPU and a MiB 2.5 ms (fitted on
 * two medians, the 4,000-card site's 100-id list read both ways), so a pack of 128 cards (0.35
 * MiB) costs as much as about four single files.
 */
const SINGLES_PER_BLOCK = 4;

/** Where the objects of one kind are published: packs, and for cards and accessories one file per id (a one-element list under `key`). */
export interface Source {
  single?: (id: number) => string;
  key: string;
  pack: (block: number) => string;
  /** The packs hold each id's key in `of`'s packs instead of the objects (card_t's: each card's ordinal). */
  keyedIn?: { of: Source; keys: (block: number) => string };
}

const OFFSETS = new TextEncoder().encode(',"offsets":');

/**
 * Where `pattern` last occurs in `bytes` (-1: nowhere); the pack's offsets come last, so this
 * stops soon. Its rarest byte (OFFSETS: the `o`, in nothing after it but digits and punctuation)
 * is found by the engine's own search, and the pattern compared there only.
 */
function lastIndexOf(bytes: Uint8Array, pattern: Uint8Array, rare = 2): number {
  for (let at = bytes.lastIndexOf(pattern[rare]); at >= rare; at = bytes.lastIndexOf(pattern[rare], at - 1)) {
    const start = at - rare;
    let i = 0;
    while (i < pattern.length && bytes[start + i] === pattern[i]) i++;
    if (i === pattern.length) return start;
  }
  return -1;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether `span` is a pack's [start, end, sum] of an object: whole numbers, within the objects before the offsets at `end`. */
const isSpan = (span: unknown, end: number): span is [number, number, number] =>
  Array.isArray(span) && span.length === 3 && span.every(Number.isSafeInteger) && span[0] >= 0 && span[0] < span[1] && span[1] <= end;

/**
 * The UTF-8 bytes of each object of a pack by id, sliced at the pack's byte offsets: nothing is
 * copied. Each object is checked once, the first time it is asked for (the lookup remembers it),
 * against its sum (contract/packSum.ts). So a damaged pack (a byte changed, offsets that cut an
 * object or lost) is a 502, never an answer of broken JSON with a 200; an answer is then only sliced.
 */
function packObjects(pack: Uint8Array): PackLookup {
  const at = lastIndexOf(pack, OFFSETS);
  let offsets: unknown;
  try {
    offsets = at < 0 ? null : JSON.parse(strictUtf8.decode(pack.subarray(at + OFFSETS.length, pack.length - 1)));
  } catch {
    offsets = null;
  }
  if (typeof offsets !== 'object' || offsets === null || Array.isArray(offsets)) throw damagedFile();
  const table = offsets as Record<string, unknown>;
  const words = packWords(pack);
  /** The objects checked so far, by id: a warm request's lookup is one get. */
  const checked = new Map<number, Uint8Array>();
  return (id) => {
    const known = checked.get(id);
    if (known) return known;
    if (!Object.hasOwn(table, id)) return null;
    const span = table[id];
    if (!isSpan(span, at) || memberSum(words, span[0], span[1]) !== span[2]) throw damagedFile();
    const object = pack.subarray(span[0], span[1]);
    checked.set(id, object);
    return object;
  };
}


/** The lookup of a pack's bytes, by those bytes: a host that keeps a file's bytes (npm start's reader) gives the same ones while the file is unchanged. */
const lookups = new WeakMap<Uint8Array, PackLookup>();

/**
 * The objects of the pack at `path` by id (a missing pack has none), kept for later requests on an
 * immutable site. A pack being read is read once however many ask for it meanwhile (siteReader.ts
 * once): the ids of one block in a ?version= list of a packed history, or two requests at once.
 */
async function packLookup(site: EdgeSite, path: string): Promise<PackLookup> {
  const keep = site.immutable ? site.kept?.packs : undefined;
  const kept = keep?.get(path);
  if (kept) return kept.value;
  return once(site, `pack ${path}`, async () => {
    const pack = await readBytes(site, path);
    if (pack === null) return () => null;
    const lookup = lookups.get(pack) ?? packObjects(pack);
    lookups.set(pack, lookup);
    keep?.set(path, lookup, pack.byteLength);
    return lookup;
  });
}

/** Each id's key in another kind's packs (card_t's ordinals), null where none is published: the key packs (format.ts KEY_PACK_SIZE) of every block at once. */
export async function keysOf(site: EdgeSite, keys: (block: number) => string, ids: number[]): Promise<(number | null)[]> {
  const blocks = [...new Set(ids.map(keyPackOf))];
  planReads(site, blocks.map(keys), `card_t's packs name the cards of ${KEY_PACK_SIZE} ids each: these ids fall in ${blocks.length}`);
  const read = await Promise.all(blocks.map((block) => readJson<{ ordinals?: Record<string, unknown> }>(site, keys(block))));
  const byBlock = new Map(blocks.map((block, i) => [block, read[i]?.ordinals ?? {}]));
  return ids.map((id) => {
    const key = byBlock.get(keyPackOf(id))![id];
    return Number.isSafeInteger(key) ? (key as number) : null;
  });
}

/** The JSON of the object of each id in request order (text or UTF-8 bytes), null where none is published. */
export async function readObjects(site: EdgeSite, source: Source, ids: number[]): Promise<(string | Uint8Array | null)[]> {
  if (source.keyedIn) {
    const keys = await keysOf(site, source.keyedIn.keys, ids);
    const objects = await readObjects(site, source.keyedIn.of, keys.filter((key) => key !== null));
    let next = 0;
    return keys.map((key) => (key === null ? null : objects[next++]));
  }
  const distinct = [...new Set(ids)];
  const { singles, blocks, touched } = readPlan(site, source, distinct);
  const singleFiles = singles.map((id) => source.single!(id));
  planReads(site, [...blocks.map(source.pack), ...singleFiles], `a comma list reads the pack of each block of ${PACK_SIZE} ids it names: these ids fall in ${touched} blocks`);
  const [texts, packs] = await Promise.all([
    Promise.all(singleFiles.map((file) => singleObject(site, file, source.key))),
    Promise.all(blocks.map((block) => packLookup(site, source.pack(block)))),
  ]);
  return inRequestOrder(ids, singles, texts, blocks, packs);
}

/**
 * The objects of `ids` in request order, from the single files read for `singles` and the packs of
 * `blocks`. Apart from readObjects, which awaits: V8 compiles this loop over a list's ids on its own,
 * rather than as part of the whole asynchronous function (which took it, by `node --trace-opt`, 60 ms
 * of compile time, twice, in the first warm requests of a 1,000-id list).
 */
function inRequestOrder(ids: number[], singles: number[], texts: (Uint8Array | null)[], blocks: number[], packs: PackLookup[]): (string | Uint8Array | null)[] {
  const found = new Map<number, string | Uint8Array | null>();
  singles.forEach((id, i) => found.set(id, texts[i]));
  const packOfBlock = new Map(blocks.map((block, i) => [block, packs[i]]));
  for (const id of ids) if (!found.has(id)) found.set(id, packOfBlock.get(packOf(id))!(id));
  return ids.map((id) => found.get(id) ?? null);
}

/**
 * Which of `ids` are read from their single files and which blocks from their packs. Every block
 * is one pack read at first; then, fewest ids first, a block asked for at most SINGLES_PER_BLOCK
 * ids is read as their single files instead, while the request's reads stay within MAX_READS. A
 * pack read for a handful of ids reads the other objects of its block for nothing: the bench's
 * 100 cards of 4,000 touch 29 of 32 packs (10.6 MiB), 15 of them for three ids or fewer. The plan
 * depends on the ids and the reads planned before only, never on what is kept, so every instance
 * reads the same files (siteReader.ts readBudget).
 */
function readPlan(site: EdgeSite, source: Source, ids: number[]): { singles: number[]; blocks: number[]; touched: number } {
  const counts = new Map<number, number>();
  for (const id of ids) counts.set(packOf(id), (counts.get(packOf(id)) ?? 0) + 1);
  const blocks = [...counts.keys()].sort((a, b) => counts.get(a)! - counts.get(b)! || a - b);
  const asSingles = new Set<number>();
  let reads = (site.planned?.size ?? 0) + blocks.length;
  for (const block of source.single ? blocks : []) {
    const more = counts.get(block)! - 1;
    if (more >= SINGLES_PER_BLOCK || reads + more > MAX_READS) break;
    asSingles.add(block);
    reads += more;
  }
  return { singles: ids.filter((id) => asSingles.has(packOf(id))), blocks: blocks.filter((block) => !asSingles.has(block)), touched: blocks.length };
}

/** The object's UTF-8 bytes of a single-object file, by its parse: a parse kept by an immutable site's instance is serialized once. */
const singleObjects = new WeakMap<object, Uint8Array>();
const utf8 = new TextEncoder();

/**
 * The JSON of the one object of a single-object file (`{"<key>":[{...}]}`) as UTF-8 bytes, as a
 * pack's objects are (an answer's pieces all bytes), null when the file is absent.
 */
async function singleObject(site: EdgeSite, path: string, key: string): Promise<Uint8Array | null> {
  const file = await readJson<Record<string, unknown>>(site, path);
  if (file === null) return null;
  const known = singleObjects.get(file);
  if (known) return known;
  const list = file[key];
  if (!Array.isArray(list) || list.length !== 1) throw damagedFile();
  const bytes = utf8.encode(JSON.stringify(list[0]));
  singleObjects.set(file, bytes);
  return bytes;
}

/** `{"<key>":[...]<more>}` as pieces: the JSON texts of its entries, the separators between them, then `more` (further members). */
export function listPieces(key: string, texts: (string | Uint8Array)[], more = ''): JsonPieces {
  const pieces: JsonPieces = [`{"${key}":[`];
  texts.forEach((text, i) => pieces.push(i ? ',' : '', text));
  pieces.push(`]${more}}`);
  return pieces;
}

const CARD_SOURCE: Source = { single: endpoints.card.file, key: 'cards', pack: endpoints.cardPack.file };

/** A generic object type's files: its packs (card_t's name each card's ordinal: its object is in the cards' packs). */
function genericSource(type: ObjectType): Source {
  const { file } = objectEndpoint[type].pack;
  if (type !== 'card_t') return { key: 'result', pack: file };
  return { key: 'result', pack: endpoints.cardPack.file, keyedIn: { of: CARD_SOURCE, keys: file } };
}

/** The kinds with comma lists, keyed by their folder under api/v1/. */
const LISTED = {
  card: { source: CARD_SOURCE, noun: 'card with ordinal' },
  // accessory_t's packs hold the same objects under the same ids.
  accessory: { source: { single: endpoints.accessory.file, key: 'accessories', pack: objectEndpoint.accessory_t.pack.file }, noun: 'accessory with id' },
} as const satisfies Record<string, { source: Source; noun: string }>;

export type ListedKind = keyof typeof LISTED;

/** Where a search kind's results are read: cards by ordinal, accessories by id, any other kind from its generic type (contract/kinds.ts: a song search answers charts, live_t). */
export function searchSource(kind: string): Source {
  if (kind === 'card' || kind === 'accessory') return LISTED[kind].source;
  const type = KINDS.find((k) => k.search === kind)?.objectType;
  if (!type) throw new Error(`search kind ${kind} has no object type`);
  return genericSource(type);
}

/**
 * The JSON text of the objects of `ids` in request order; unknown ids are left out, 404 when
 * none exists. `known`: the texts by id already found (an earlier version's objects).
 */
export async function objectList(site: EdgeSite, kind: ListedKind, ids: number[], known: (string | null)[] | null = null): Promise<JsonPieces> {
  const { source, noun } = LISTED[kind];
  const texts = (known ?? await readObjects(site, source, ids)).filter((t) => t !== null);
  if (!texts.length) throw new HttpError(404, `no ${noun} ${ids.slice(0, 20).join(', ')}`);
  return listPieces(source.key, texts);
}

export async function randomCard(site: EdgeSite): Promise<JsonPieces> {
  const list = await readJson<Static<typeof CardList>>(site, endpoints.cardList.file());
  const stubs = list?.stubs ?? [];
  if (!stubs.length) throw new HttpError(404, 'no cards are published');
  const pick = stubs[Math.min(stubs.length - 1, Math.floor((site.random ?? Math.random)() * stubs.length))];
  return objectList(site, 'card', [pick.ordinal]);
}

/** The JSON text of one entry per id in request order, null for a missing id (never an error); `known` as objectList's. */
export async function genericObjects(site: EdgeSite, type: ObjectType, ids: number[], known: (string | null)[] | null = null): Promise<JsonPieces> {
  const texts = known ?? await readObjects(site, genericSource(type), ids);
  return listPieces('result', texts.map((t) => t ?? 'null'));
}

/** list/<type>: the published list (a kept parse: never change it), or an empty one for a type that has none (never an error). */
export async function objectListing(site: EdgeSite, type: string): Promise<{ result: unknown[] }> {
  const list = isObjectType(type) ? await readJson<{ result: unknown[] }>(site, objectEndpoint[type].list.file()) : null;
  return list ?? { result: [] };
}
