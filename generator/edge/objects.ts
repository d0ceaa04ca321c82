/**
 * Object routes: comma lists of cards and accessories (`/api/v1/card/1,2,3.json`), a random
 * card, and generic objects (`/api/v1/<type>/1,2,3`). A few ids are read from their
 * single-object files; more from the pack files of the blocks they fall in (format.ts
 * PACK_SIZE), so a list of 1,000 ids costs one read per block touched, not one per id.
 */
import type { Static } from '@sinclair/typebox';
import { packOf } from '../format.ts';
import { endpoints, isObjectType, objectEndpoint, type ObjectType } from '../contract/endpoints.ts';
import type { CardList } from '../contract/schemas.ts';
import { HttpError } from './http.ts';
import { readJson, type EdgeSite } from './site.ts';

/** Up to this many distinct ids, single files are read (each smaller than a pack). */
const SINGLE_READS = 8;

/** Where the objects of one kind are published: one file per id (holding a one-element list under `key`), and packs. */
interface Source {
  single: (id: number) => string;
  key: string;
  pack: (block: number) => string;
}

/** The object of each id in request order, null where none is published. */
async function readObjects(site: EdgeSite, source: Source, ids: number[]): Promise<unknown[]> {
  const distinct = [...new Set(ids)];
  const found = new Map<number, unknown>();
  if (distinct.length <= SINGLE_READS) {
    const files = await Promise.all(distinct.map((id) => readJson<Record<string, unknown[]>>(site, source.single(id))));
    distinct.forEach((id, i) => found.set(id, files[i]?.[source.key]?.[0] ?? null));
  } else {
    const blocks = [...new Set(distinct.map(packOf))];
    const packs = new Map(await Promise.all(blocks.map(async (b) => [b, await readJson<Record<string, unknown>>(site, source.pack(b))] as const)));
    for (const id of distinct) {
      const pack = packs.get(packOf(id));
      found.set(id, pack && Object.hasOwn(pack, id) ? pack[id] : null);
    }
  }
  return ids.map((id) => found.get(id) ?? null);
}

/** The kinds with comma lists, keyed by their folder under api/v1/. */
const LISTED = {
  card: { source: { single: endpoints.card.file, key: 'cards', pack: endpoints.cardPack.file }, noun: 'card with ordinal' },
  accessory: { source: { single: endpoints.accessory.file, key: 'accessories', pack: endpoints.accessoryPack.file }, noun: 'accessory with id' },
} as const;
export type ListedKind = keyof typeof LISTED;

/** The objects of `ids` in request order; unknown ids are left out, 404 when none exists. */
export async function objectList(site: EdgeSite, kind: ListedKind, ids: number[]): Promise<Record<string, unknown[]>> {
  const { source, noun } = LISTED[kind];
  const objects = (await readObjects(site, source, ids)).filter((o) => o !== null);
  if (!objects.length) throw new HttpError(404, `no ${noun} ${ids.slice(0, 20).join(', ')}`);
  return { [source.key]: objects };
}

export async function randomCard(site: EdgeSite): Promise<Record<string, unknown[]>> {
  const list = await readJson<Static<typeof CardList>>(site, endpoints.cardList.file());
  const stubs = list?.stubs ?? [];
  if (!stubs.length) throw new HttpError(404, 'no cards are published');
  const pick = stubs[Math.min(stubs.length - 1, Math.floor((site.random ?? Math.random)() * stubs.length))];
  return objectList(site, 'card', [pick.ordinal]);
}

/** One entry per id in request order, null for a missing id (never an error: seed 7.4). */
export async function genericObjects(site: EdgeSite, type: ObjectType, ids: number[]): Promise<{ result: unknown[] }> {
  const { object, pack } = objectEndpoint[type];
  return { result: await readObjects(site, { single: object.file, key: 'result', pack: pack.file }, ids) };
}

/** list/<type>: the published list, or an empty one for a type that has none (seed 7.3: no errors). */
export async function objectListing(site: EdgeSite, type: string): Promise<{ result: unknown[] }> {
  const list = isObjectType(type) ? await readJson<{ result: unknown[] }>(site, objectEndpoint[type].list.file()) : null;
  return list ?? { result: [] };
}
