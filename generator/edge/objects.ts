/**
 * Object routes: comma lists of cards and accessories (`/api/v1/card/1,2,3.json`), a random
 * card, and generic objects (`/api/v1/<type>/1,2,3`). All read the published single-object files.
 */
import type { Static } from '@sinclair/typebox';
import { endpoints, isObjectType, objectEndpoint, type ObjectType } from '../contract/endpoints.ts';
import type { CardList } from '../contract/schemas.ts';
import { HttpError } from './http.ts';
import { readJson, type EdgeSite } from './site.ts';

/** A published single-object file: one key (`cards`, `accessories`) holding a one-element list. */
type ObjectFile = Record<string, unknown[]>;

/** The kinds with comma lists, keyed by their folder under api/v1/. */
const LISTED = {
  card: { file: endpoints.card.file, key: 'cards', noun: 'card with ordinal' },
  accessory: { file: endpoints.accessory.file, key: 'accessories', noun: 'accessory with id' },
} as const;
export type ListedKind = keyof typeof LISTED;

/** The objects of `ids` in request order; unknown ids are left out, 404 when none exists. */
export async function objectList(site: EdgeSite, kind: ListedKind, ids: number[]): Promise<ObjectFile> {
  const { file, key, noun } = LISTED[kind];
  const files = await Promise.all(ids.map((id) => readJson<ObjectFile>(site, file(id))));
  if (files.every((f) => f === null)) throw new HttpError(404, `no ${noun} ${ids.slice(0, 20).join(', ')}`);
  return { [key]: files.flatMap((f) => f?.[key] ?? []) };
}

export async function randomCard(site: EdgeSite): Promise<ObjectFile> {
  const list = await readJson<Static<typeof CardList>>(site, endpoints.cardList.file());
  const stubs = list?.stubs ?? [];
  if (!stubs.length) throw new HttpError(404, 'no cards are published');
  const pick = stubs[Math.min(stubs.length - 1, Math.floor((site.random ?? Math.random)() * stubs.length))];
  return objectList(site, 'card', [pick.ordinal]);
}

/** One entry per id in request order, null for a missing id (never an error: seed 7.4). */
export async function genericObjects(site: EdgeSite, type: ObjectType, ids: number[]): Promise<{ result: unknown[] }> {
  const files = await Promise.all(ids.map((id) => readJson<{ result: unknown[] }>(site, objectEndpoint[type].object.file(id))));
  return { result: files.map((f) => f?.result[0] ?? null) };
}

/** list/<type>: the published list, or an empty one for a type that has none (seed 7.3: no errors). */
export async function objectListing(site: EdgeSite, type: string): Promise<{ result: unknown[] }> {
  const list = isObjectType(type) ? await readJson<{ result: unknown[] }>(site, objectEndpoint[type].list.file()) : null;
  return list ?? { result: [] };
}
