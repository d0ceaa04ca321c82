/**
 * A compact snapshot of what clients see: the published objects of every changelog type,
 * keyed by id, without the fields that only say which pictures were published (a picture
 * change is not a data change). A build's snapshot comes from its model through the
 * renderers (no JSON parsed back); an older site's from its published files (--since).
 * Both give the same objects (test/changes.test.ts checks it), made into text by one function.
 */
import type { RenderContext } from '../render/context.ts';
import { endpoints, objectEndpoint, type ObjectType } from '../contract/endpoints.ts';
import { renderCenterSkill, renderSkill } from '../render/cards.ts';
import { renderAccessory } from '../render/accessories.ts';
import { renderCharacter, renderEventObject } from '../render/objects.ts';
import { renderPairEntry } from '../render/pairs.ts';
import type { CHANGE_TYPES, PairListJson, SetListJson } from '../contract/schemas.ts';
import { packOf } from '../format.ts';
import { UserError } from '../errors.ts';

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
  /**
   * The objects of each type as JSON text, by id (set ids are strings, the others numbers):
   * equal texts are equal objects, so only the few objects an update changes are parsed again.
   */
  objects: Record<ChangeType, Map<string, string>>;
}

/** A published file (path relative to the site root) parsed; throws when the site lacks it. */
export type SiteReader = (rel: string) => unknown;

/** The generic object type each type is published as (its list and packs are read). */
const PUBLISHED_AS: Record<Exclude<ChangeType, 'sets' | 'pairs'>, ObjectType> = {
  cards: 'card_t', skills: 'skill_t', center_skills: 'leader_skill_t', accessories: 'accessory_t', characters: 'char_t', events: 'event_t',
};

/** Objects without the fields that only reflect publishing: picture URLs and icon names. */
const WITHOUT_PICTURES: Partial<Record<ChangeType, (object: JsonObject) => JsonObject>> = {
  cards: ({ images: _, ...card }) => card,
  accessories: ({ icon_image: _, unit_stub, ...accessory }) => {
    if (!isJsonObject(unit_stub)) return { ...accessory, unit_stub };
    const { icon: _icon, ...stub } = unit_stub;
    return { ...accessory, unit_stub: stub };
  },
};

export const isJsonObject = (value: unknown): value is JsonObject => !!value && typeof value === 'object' && !Array.isArray(value);

const texts = (objects: Record<string, JsonObject>, shape: (object: JsonObject) => JsonObject = (o) => o) =>
  new Map(Object.entries(objects).map(([id, object]) => [id, JSON.stringify(shape(object))]));

/** Every object of a generic type: the ids of its list, each read from the pack of its block. */
function publishedObjects(read: SiteReader, type: ObjectType): Record<string, JsonObject> {
  const { list, pack } = objectEndpoint[type];
  const packs = new Map<number, Record<string, JsonObject>>();
  const ids = (read(list.file()) as { result: { id: number }[] }).result.map((entry) => entry.id);
  return Object.fromEntries(ids.map((id) => {
    const block = packOf(id);
    if (!packs.has(block)) packs.set(block, (read(pack.file(block)) as { objects: Record<string, JsonObject> }).objects);
    const object = packs.get(block)![id];
    if (!isJsonObject(object)) throw new UserError(`${pack.file(block)}: no object ${id}, which ${list.file()} lists`);
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
function newestDate(cards: Record<string, JsonObject>, events: Record<string, JsonObject>): number | null {
  const dates = [
    ...Object.values(cards).map((card) => (card.extra_data as JsonObject | null)?.release_date),
    ...Object.values(events).map((event) => event.start_date),
  ].filter((date): date is number => typeof date === 'number');
  return dates.length ? Math.max(...dates) : null;
}

/** Published objects of every type by id, as the renderers make them. */
type Published = Record<ChangeType, Record<string, JsonObject>>;

function snapshotFrom(published: Published, truthVersion: string, date: number | null): Snapshot {
  const objects = Object.fromEntries(Object.entries(published).map(([type, all]) => [type, texts(all, WITHOUT_PICTURES[type as ChangeType])]));
  return { version: { truth_version: truthVersion, date: date ?? newestDate(published.cards, published.events) }, objects: objects as Snapshot['objects'] };
}

/** The snapshot of the site `read` reads; its date is `date`, else the newest date its data knows. */
export function snapshotOf(read: SiteReader, date: number | null): Snapshot {
  const generic = Object.fromEntries(Object.entries(PUBLISHED_AS).map(([type, as]) => [type, publishedObjects(read, as)])) as
    Record<keyof typeof PUBLISHED_AS, Record<string, JsonObject>>;
  const pairs = (read(endpoints.pairList.file()) as PairListJson).pairs;
  const truthVersion = (read(endpoints.info.file()) as { truth_version: string }).truth_version;
  return snapshotFrom({
    ...generic,
    sets: setsOf(read, generic.cards),
    pairs: Object.fromEntries(pairs.map((pair) => [pair.pair, pair as unknown as JsonObject])),
  }, truthVersion, date);
}

/** The snapshot of a model's site, made by the renderers that publish it (the same objects, already built); dated as snapshotOf. */
export function modelSnapshot(context: RenderContext, date: number | null): Snapshot {
  const { model, cards } = context;
  const byId = <T>(items: Iterable<T>, key: (item: T) => number | string, render: (item: T) => object) =>
    Object.fromEntries([...items].map((item) => [key(item), render(item) as JsonObject]));
  const id = (item: { id: number | string }) => item.id;
  return snapshotFrom({
    cards: byId(model.cards, id, cards.card),
    skills: byId(model.skills.values(), id, renderSkill),
    center_skills: byId(model.centerSkills.values(), id, renderCenterSkill),
    accessories: byId(model.accessories, id, (a) => renderAccessory(context, a)),
    characters: byId(model.characters.values(), id, (c) => renderCharacter(c, model.tags, model.cards)),
    events: byId(model.events, id, renderEventObject),
    sets: byId(model.sets, id, (set) => ({ id: set.id, display_name: set.displayName, cards: set.cardIds })),
    pairs: byId(model.pairs, id, renderPairEntry),
  }, model.truthVersion, date);
}
