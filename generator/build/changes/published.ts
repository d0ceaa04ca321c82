/**
 * The published objects the changelog and the history compare, by kind and id: taken from
 * what the render stage returns (render/renderSite.ts Rendered), so nothing renders twice or reads
 * the site back, or read from a published site (snapshot.ts). Kinds are the generic object
 * types (a card by id is `card_t`, an accessory `accessory_t`: the same objects the card and
 * accessory routes publish), sets and pairs as their lists describe them, and charts' notes.
 */
import { OBJECT_TYPE_NAMES } from '../../contract/endpoints.ts';
import { KINDS, PACKED_KINDS, type PublishedKind } from '../../contract/kinds.ts';
import type { Rendered } from '../render/renderSite.ts';

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export const isJsonObject = (value: unknown): value is JsonObject => !!value && typeof value === 'object' && !Array.isArray(value);

export type { PublishedKind };
export const PUBLISHED_KINDS: readonly PublishedKind[] = KINDS.map((k) => k.published);

/** Objects by kind, keyed by their id as text (set ids are strings, the others numbers). */
export type PublishedObjects = Record<PublishedKind, Map<string, JsonObject>>;

export const noObjects = (): PublishedObjects =>
  Object.fromEntries(PUBLISHED_KINDS.map((kind) => [kind, new Map()])) as PublishedObjects;

/** Records `object` as published under `kind` and `id`. */
export function recordObject(objects: PublishedObjects, kind: PublishedKind, id: number | string, object: object): void {
  objects[kind].set(String(id), object as JsonObject);
}

/**
 * The objects of a rendered site by kind; a set is {id, display_name, cards: its card ids in ordinal
 * order}; an object of a kind that lives in packs only is as its route answers it, by its key (a
 * chart's notes: its notes file, by chart).
 */
export function publishedObjects({ objects, sets, pairs, packed }: Rendered): PublishedObjects {
  const published = noObjects();
  for (const type of OBJECT_TYPE_NAMES) for (const object of objects[type]) recordObject(published, type, object.id, object);
  for (const set of sets) recordObject(published, 'set', set.id, { id: set.id, display_name: set.display_name, cards: set.cards.map((card) => card.id) });
  for (const { cards: _, ...entry } of pairs) recordObject(published, 'pair', entry.pair, entry);
  for (const kind of PACKED_KINDS) {
    for (const object of packed[kind.name]) recordObject(published, kind.published, (object as JsonObject)[kind.packedOnly.key] as number, object);
  }
  return published;
}
