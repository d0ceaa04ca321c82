/**
 * A compact snapshot of what clients see: the published objects of every changelog type,
 * keyed by id, without the fields that only say which pictures were published (a picture
 * change is not a data change). It is made from published JSON files, so a build's
 * snapshot (from the files it renders) and an older site's (from its folder) are the same
 * function of the same files.
 */
import { endpoints, objectEndpoint, type ObjectType } from '../contract/endpoints.ts';
import type { CHANGE_TYPES, PairListJson, SetListJson } from '../contract/schemas.ts';
import { packOf } from '../format.ts';

export type ChangeType = (typeof CHANGE_TYPES)[number];
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** A version of the game data, as change lists name it. */
export interface DataVersion {
  truth_version: string;
  /** Unix seconds, null when unknown. */
  date: number | null;
}

export interface Snapshot {
  version: DataVersion;
  /** The objects of each type by id (set ids are strings, the others numbers). */
  objects: Record<ChangeType, Record<string, JsonObject>>;
}

/** A published file (path relative to the site root) parsed; throws when the site lacks it. */
export type SiteReader = (rel: string) => unknown;

/** The generic object type each type is published as (its list and packs are read). */
const PUBLISHED_AS: Record<Exclude<ChangeType, 'sets' | 'pairs'>, ObjectType> = {
  cards: 'card_t', skills: 'skill_t', center_skills: 'leader_skill_t', accessories: 'accessory_t', characters: 'char_t', events: 'event_t',
};

/** Fields (dot paths) that only reflect publishing: picture URLs and icon names. */
const PUBLISHING_ONLY: Partial<Record<ChangeType, string[]>> = {
  cards: ['images'],
  accessories: ['icon_image', 'unit_stub.icon'],
};

export const isJsonObject = (value: unknown): value is JsonObject => !!value && typeof value === 'object' && !Array.isArray(value);

/** A copy of `object` without the fields at `paths`, keeping the order of the others. */
function omit(object: JsonObject, paths: string[]): JsonObject {
  return Object.fromEntries(Object.entries(object).flatMap(([key, value]) => {
    if (paths.includes(key)) return [];
    const nested = paths.filter((p) => p.startsWith(`${key}.`)).map((p) => p.slice(key.length + 1));
    return [[key, nested.length && isJsonObject(value) ? omit(value, nested) : value]];
  }));
}

/** Every object of a generic type: the ids of its list, each read from the pack of its block. */
function publishedObjects(read: SiteReader, type: ObjectType): Record<string, JsonObject> {
  const { list, pack } = objectEndpoint[type];
  const packs = new Map<number, Record<string, JsonObject>>();
  const ids = (read(list.file()) as { result: { id: number }[] }).result.map((entry) => entry.id);
  return Object.fromEntries(ids.map((id) => {
    const block = packOf(id);
    if (!packs.has(block)) packs.set(block, read(pack.file(block)) as Record<string, JsonObject>);
    const object = packs.get(block)![id];
    if (!isJsonObject(object)) throw new Error(`${pack.file(block)}: no object ${id}, which ${list.file()} lists`);
    return [id, object];
  }));
}

/** Sets as {id, display_name, cards}: the card ids in ordinal order, from each card's `sets`. */
function setsOf(read: SiteReader, cards: Record<string, JsonObject>): Record<string, JsonObject> {
  const members = new Map((read(endpoints.setList.file()) as SetListJson).sets.map((set) => [set.id, { set, cards: [] as number[] }]));
  const byOrdinal = Object.values(cards).sort((a, b) => (a.ordinal as number) - (b.ordinal as number));
  for (const card of byOrdinal) for (const id of card.sets as string[]) members.get(id)?.cards.push(card.id as number);
  return Object.fromEntries([...members].map(([id, { set, cards: ids }]) => [id, { id, display_name: set.display_name, cards: ids }]));
}

/** The newest date the data itself knows: the latest card release or event start. */
function newestDate(objects: Snapshot['objects']): number | null {
  const dates = [
    ...Object.values(objects.cards).map((card) => (card.extra_data as JsonObject | null)?.release_date),
    ...Object.values(objects.events).map((event) => event.start_date),
  ].filter((date): date is number => typeof date === 'number');
  return dates.length ? Math.max(...dates) : null;
}

/** The snapshot of the site `read` reads; its date is `date`, else the newest date its data knows. */
export function snapshotOf(read: SiteReader, date: number | null): Snapshot {
  const generic = Object.fromEntries(Object.entries(PUBLISHED_AS).map(([type, publishedAs]) => {
    const omitted = PUBLISHING_ONLY[type as ChangeType] ?? [];
    const objects = publishedObjects(read, publishedAs);
    return [type, omitted.length ? Object.fromEntries(Object.entries(objects).map(([id, o]) => [id, omit(o, omitted)])) : objects];
  })) as Record<keyof typeof PUBLISHED_AS, Record<string, JsonObject>>;
  const pairs = (read(endpoints.pairList.file()) as PairListJson).pairs;
  const objects = {
    ...generic,
    sets: setsOf(read, generic.cards),
    pairs: Object.fromEntries(pairs.map((pair) => [pair.pair, pair as unknown as JsonObject])),
  };
  const truthVersion = (read(endpoints.info.file()) as { truth_version: string }).truth_version;
  return { version: { truth_version: truthVersion, date: date ?? newestDate(objects) }, objects };
}
