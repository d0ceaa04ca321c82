/**
 * A snapshot of what clients see: every published object by kind and id, as the JSON bytes
 * it is published as (render/published.ts): the very bytes the render stage encoded, so a
 * build's snapshot costs little beyond its site. A build's snapshot is made from the objects
 * its render stage returns; an older site's from its published files (--since, or a site
 * without build records). Both give the same texts (test/unit/changesInMemory.test.ts checks it).
 */
import { endpoints, objectEndpoint, OBJECT_TYPE_NAMES, packedPack, type ObjectType } from '../../contract/endpoints.ts';
import { kindOfType, PACKED_KINDS } from '../../contract/kinds.ts';
import type { PairListJson, SetListJson } from '../../contract/schemas.ts';
import { jsonBytes } from '../render/files.ts';
import { isJsonObject, noObjects, recordObject, type JsonObject, type PublishedKind, type PublishedObjects } from './published.ts';
import { keyPackOf, packOf } from '../../contract/format.ts';
import { UserError } from '../errors.ts';

/** A version of the game data, as change lists and versions.json name it. */
export interface DataVersion {
  truth_version: string;
  /** Unix seconds, null when unknown. */
  date: number | null;
}

export interface Snapshot {
  version: DataVersion;
  /**
   * The objects of each kind as JSON text (UTF-8), by id: equal texts are equal objects, so
   * only the few objects an update changes are parsed again.
   */
  objects: Record<PublishedKind, Map<string, Buffer>>;
}

/** Whether two objects' texts (either may be absent) are the same. */
export const sameText = (a: Buffer | undefined, b: Buffer | undefined): boolean => a === b || (a !== undefined && b !== undefined && a.equals(b));

/** An object's text parsed. */
export const parseText = (text: Buffer): JsonObject => JSON.parse(text.toString('utf8')) as JsonObject;

/** A published file (path relative to the site root) parsed; throws when the site lacks it, unless `optional` (then undefined). */
export type SiteReader = (rel: string, optional?: boolean) => Promise<unknown>;

/** A pack file: its objects by id, or (card_t's) each id's card ordinal. */
interface PackJson {
  objects?: Record<string, unknown>;
  ordinals?: Record<string, unknown>;
}

/** Reads packs, each file once however many ids ask for it; a pack the site lacks holds nothing. */
function packReader(read: SiteReader): (file: string) => Promise<PackJson> {
  const packs = new Map<string, Promise<PackJson>>();
  return (file) => {
    let pack = packs.get(file);
    if (!pack) packs.set(file, (pack = read(file, true).then((json) => (json ?? {}) as PackJson)));
    return pack;
  };
}

/**
 * Every object of a generic type: the ids of its list, each read from the pack of its block. A
 * site without an optional kind's database (contract/kinds.ts; or from before the kind) has none of its objects.
 */
export async function readObjects(read: SiteReader, type: ObjectType, into: PublishedObjects): Promise<void> {
  const { list, pack } = objectEndpoint[type];
  const readPack = packReader(read);
  // card_t's packs name each card's ordinal, in blocks of KEY_PACK_SIZE ids (an older site's of PACK_SIZE; older still, they held the objects).
  const ordinalOf = async (id: number) => (await readPack(pack.file(keyPackOf(id)))).ordinals?.[id] ?? (await readPack(pack.file(packOf(id)))).ordinals?.[id];
  const packed = async (id: number): Promise<unknown> => {
    const ordinal = type === 'card_t' ? await ordinalOf(id) : undefined;
    return typeof ordinal === 'number' ? (await readPack(endpoints.cardPack.file(packOf(ordinal)))).objects?.[ordinal] : (await readPack(pack.file(packOf(id)))).objects?.[id];
  };
  const listed = (await read(list.file(), kindOfType(type).optional)) as { result: { id: number }[] } | undefined;
  for (const { id } of listed?.result ?? []) {
    const object = await packed(id);
    if (!isJsonObject(object)) throw new UserError(`${pack.file(packOf(id))}: no object ${id}, which ${list.file()} lists`);
    recordObject(into, type, id, object);
  }
}

/**
 * The objects of each kind that lives in packs only (contract/kinds.ts `packedOnly`): one for each
 * object that names one (a chart with a notes_url: its notes), read from the pack of its block.
 * The naming objects are read first; a site from before such a kind has none of them named.
 */
export async function readPacked(read: SiteReader, into: PublishedObjects): Promise<void> {
  for (const kind of PACKED_KINDS) {
    const { key, namedBy } = kind.packedOnly;
    const { file } = packedPack(kind.name);
    const readPack = packReader(read);
    for (const named of into[namedBy.type].values()) {
      if (typeof named[namedBy.member] !== 'string') continue;
      const id = named.id as number;
      const pack = file(packOf(id));
      const object = (await readPack(pack)).objects?.[id];
      if (!isJsonObject(object) || object[key] !== id) throw new UserError(`${pack}: no ${kind.name} of ${namedBy.type} ${id}, which names it in ${namedBy.member}`);
      recordObject(into, kind.published, id, object);
    }
  }
}

/** Sets as {id, display_name, cards}: the card ids in ordinal order, from each card's `sets`. */
async function readSets(read: SiteReader, into: PublishedObjects): Promise<void> {
  const members = new Map(((await read(endpoints.setList.file())) as SetListJson).sets.map((set) => [set.id, { set, cards: [] as number[] }]));
  const byOrdinal = [...into.card_t.values()].sort((a, b) => (a.ordinal as number) - (b.ordinal as number));
  for (const card of byOrdinal) for (const id of card.sets as string[]) members.get(id)?.cards.push(card.id as number);
  for (const [id, { set, cards }] of members) recordObject(into, 'set', id, { id, display_name: set.display_name, cards });
}

/** The newest date the data itself knows: the latest card release or event start. */
function newestDate({ card_t: cards, event_t: events }: PublishedObjects): number | null {
  const dates = [
    ...[...cards.values()].map((card) => (card.extra_data as JsonObject | null)?.release_date),
    ...[...events.values()].map((event) => event.start_date),
  ].filter((date): date is number => typeof date === 'number');
  return dates.reduce<number | null>((newest, date) => (newest === null || date > newest ? date : newest), null);
}

/** The snapshot of published objects; dated `date`, else by the newest date its data knows. */
export function snapshotOfObjects(published: PublishedObjects, truthVersion: string, date: number | null): Snapshot {
  const objects = Object.fromEntries(Object.entries(published).map(([kind, all]) =>
    [kind, new Map([...all].map(([id, object]) => [id, jsonBytes(object)]))])) as Snapshot['objects'];
  return { version: { truth_version: truthVersion, date: date ?? newestDate(published) }, objects };
}

/** The snapshot of the site `read` reads; dated as snapshotOfObjects. */
export async function snapshotOf(read: SiteReader, date: number | null): Promise<Snapshot> {
  const objects = noObjects();
  for (const type of OBJECT_TYPE_NAMES) await readObjects(read, type, objects);
  await readPacked(read, objects);
  await readSets(read, objects);
  for (const pair of ((await read(endpoints.pairList.file())) as PairListJson).pairs) recordObject(objects, 'pair', pair.pair, pair);
  const truthVersion = ((await read(endpoints.info.file())) as { truth_version: string }).truth_version;
  return snapshotOfObjects(objects, truthVersion, date);
}
