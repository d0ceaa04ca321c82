/**
 * Object routes: comma lists of cards and accessories (`/api/v1/card/1,2,3.json`), a random
 * card, and generic objects (`/api/v1/<type>/1,2,3`). All read the published single-object files.
 */
import { paths, type CardListJson, type ObjectResultJson, type ObjectType } from '../format.ts';
import { HttpError } from './http.ts';
import { readJson, type EdgeSite } from './site.ts';

/** A published single-object file: one key (`cards`, `accessories`) holding a one-element list. */
type ObjectFile = Record<string, unknown[]>;

/** The kinds with comma lists, keyed by their folder under api/v1/. */
const LISTED = {
  card: { file: paths.card, noun: 'card with ordinal' },
  accessory: { file: paths.accessory, noun: 'accessory with id' },
} as const;
export type ListedKind = keyof typeof LISTED;

/** The files of `ids` merged key by key, in request order; unknown ids are left out, 404 when none exists. */
export async function objectList(site: EdgeSite, kind: ListedKind, ids: number[]): Promise<ObjectFile> {
  const files = await Promise.all(ids.map((id) => readJson<ObjectFile>(site, LISTED[kind].file(id))));
  const merged: ObjectFile = {};
  for (const file of files) {
    for (const [key, objects] of Object.entries(file ?? {})) (merged[key] ??= []).push(...objects);
  }
  if (files.every((f) => f === null)) throw new HttpError(404, `no ${LISTED[kind].noun} ${ids.join(', ')}`);
  return merged;
}

export async function randomCard(site: EdgeSite): Promise<ObjectFile> {
  const list = await readJson<CardListJson>(site, paths.cardList());
  const cards = list?.cards ?? [];
  if (!cards.length) throw new HttpError(404, 'no cards are published');
  const pick = cards[Math.min(cards.length - 1, Math.floor((site.random ?? Math.random)() * cards.length))];
  return objectList(site, 'card', [pick.ordinal]);
}

/** One entry per id in request order, null for a missing id; 404 when none exists. */
export async function genericObjects(site: EdgeSite, type: ObjectType, ids: number[]): Promise<ObjectResultJson> {
  const files = await Promise.all(ids.map((id) => readJson<ObjectResultJson>(site, paths.object(type, id))));
  if (files.every((f) => f === null)) throw new HttpError(404, `no ${type} with id ${ids.join(', ')}`);
  return { result: files.map((f) => f?.result[0] ?? null) };
}
