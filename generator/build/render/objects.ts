/**
 * Generic objects: api/v1/<type>/<id>.json as `{"result": [object]}` and the brief
 * listings api/v1/list/<type>.json, for every type of contract/endpoints.ts OBJECT_TYPES.
 */
import type { Card, Character, GameEvent, MemberTag, RemovableSkill, Text } from '../model/types.ts';
import { objectEndpoint, objectRef, type ObjectType, type ResponseOf } from '../../contract/endpoints.ts';
import type { Model } from '../model/buildModel.ts';
import { objectTypesWith, type DatabaseName } from '../../contract/kinds.ts';
import type { CardBriefJson, CharacterJson, EventJson, RemovableSkillJson } from '../../contract/schemas.ts';
import { emit } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';
import { emitPacks } from './packs.ts';
import { groupBy } from '../model/values.ts';
import { keyPackOf } from '../../contract/format.ts';
import { renderCenterSkill, renderSkill, type CardRenderer } from './cards.ts';
import type { RenderContext } from './context.ts';
import { renderAccessory } from './accessories.ts';
import { renderEvent } from './happening.ts';
import { liveBrief, renderLive, renderSong, songBrief } from './songs.ts';

type ObjectOf<T extends ObjectType> = NonNullable<ResponseOf<`${T}_result`>['result'][number]>;
type BriefOf<T extends ObjectType> = Omit<ResponseOf<`${T}_list`>['result'][number], 'ref'>;

/** How one type is published: its objects by id, the brief entry of each, and (card_t) packs of its own making. */
interface ObjectSource<T extends ObjectType, I extends { id: number }> {
  items: Iterable<I>;
  render: (item: I) => ObjectOf<T>;
  brief: (item: I) => BriefOf<T>;
  /** Publishes the type's packs from its objects in id order; default: the objects themselves (render/packs.ts). */
  packs?: (files: SiteFiles, objects: (readonly [number, ObjectOf<T>])[]) => void;
}

const named = (item: { id: number; name: Text | null }) => ({
  id: item.id, name: item.name?.original ?? null, name_en: item.name?.secondary ?? null,
});

const cardBrief = (cards: CardRenderer) => (card: Card): Omit<CardBriefJson, 'ref'> => {
  const c = cards.card(card);
  return { id: c.id, name: c.title, name_en: c.title_en, ordinal: c.ordinal, char_name: c.char_name, rarity: c.rarity, attribute: c.attribute };
};

export function renderCharacter(character: Character, tags: ReadonlyMap<number, MemberTag>, cards: readonly Card[]): CharacterJson {
  return {
    id: character.id,
    name: character.name.original,
    name_en: character.name.secondary,
    member_category: character.memberCategory,
    year: character.year,
    sub_affiliation: character.subUnit,
    tags: character.tagIds.flatMap((id) => {
      const tag = tags.get(id);
      return tag ? [{ id, name: tag.name.original, name_en: tag.name.secondary, display: tag.display }] : [];
    }),
    card_ids: cards.filter((c) => c.typeId === character.id).map((c) => c.id),
  };
}

export const renderEventObject = (event: GameEvent): EventJson => ({ ...renderEvent(event), reward_ordinals: event.rewardCards.map((c) => c.ordinal) });

/** The named fields first, then the table's other columns as stored (never overriding a named field). */
export function renderRemovableSkill(skill: RemovableSkill): RemovableSkillJson {
  const named = {
    id: skill.id,
    name: skill.name.original,
    name_en: skill.name.secondary,
    description: skill.description?.original ?? null,
    description_en: skill.description?.secondary ?? null,
  };
  return { ...named, ...Object.fromEntries(Object.entries(skill.columns).filter(([column]) => !Object.hasOwn(named, column))) };
}

/**
 * Renders the objects of one type into its packs (the edge answers `<type>/<ids>` from them: no
 * file per object, which would double a site's file count) and its list; returns them, in id order.
 */
function renderType<T extends ObjectType, I extends { id: number }>(files: SiteFiles, type: T, source: ObjectSource<T, I>): ObjectOf<T>[] {
  const { pack, list } = objectEndpoint[type];
  const items = [...source.items].sort((a, b) => a.id - b.id);
  const rendered = items.map((item) => [item.id, source.render(item)] as const);
  // TypeScript cannot relate the pack's objects to ObjectOf<T> for a generic T; ObjectSource<T> checks each caller's renderer.
  if (source.packs) source.packs(files, rendered);
  else emitPacks(files, pack as GenericPack, rendered as [number, ResponseOf<GenericPack['response']>['objects'][string]][]);
  emit(files, list, [], { result: items.map((item) => ({ ...source.brief(item), ref: objectRef(type, item.id) })) } as ResponseOf<`${T}_list`>);
  return rendered.map(([, json]) => json);
}

/** The pack endpoint of a type whose packs hold its objects (all but card_t). */
type GenericPack = (typeof objectEndpoint)[Exclude<ObjectType, 'card_t'>]['pack'];

/** card_t's packs: each card's ordinal by unit id (its object is published once, in the cards' packs). */
function emitCardIdPacks(files: SiteFiles, cards: (readonly [number, ObjectOf<'card_t'>])[]): void {
  for (const [block, members] of groupBy(cards, ([id]) => keyPackOf(id))) {
    emit(files, objectEndpoint.card_t.pack, [block], { ordinals: Object.fromEntries(members.map(([id, card]) => [id, card.ordinal])) });
  }
}

/** Whether the model has what an optional database gives (contract/kinds.ts): the live database its songs. */
const hasDatabase = (model: Model) => (database: DatabaseName): boolean => database !== 'live' || model.songs !== null;

/** The generic types a model publishes: every one, but an optional kind's only when the export has its database. */
export const objectTypesOf = (model: Model): ObjectType[] => objectTypesWith(hasDatabase(model));

/** The published objects of every generic type, in id order: what the derive stages read. */
export type RenderedObjects = { [T in ObjectType]: ObjectOf<T>[] };

export function renderObjects(context: RenderContext, files: SiteFiles): RenderedObjects {
  const { model, cards } = context;
  return {
    card_t: renderType(files, 'card_t', { items: model.cards, render: cards.card, brief: cardBrief(cards), packs: emitCardIdPacks }),
    char_t: renderType(files, 'char_t', {
      items: model.characters.values(), render: (c) => renderCharacter(c, model.tags, model.cards), brief: named,
    }),
    skill_t: renderType(files, 'skill_t', { items: model.skills.values(), render: renderSkill, brief: named }),
    leader_skill_t: renderType(files, 'leader_skill_t', { items: model.centerSkills.values(), render: renderCenterSkill, brief: named }),
    accessory_t: renderType(files, 'accessory_t', { items: model.accessories, render: (a) => renderAccessory(context, a), brief: named }),
    event_t: renderType(files, 'event_t', { items: model.events, render: renderEventObject, brief: named }),
    removable_skill_t: renderType(files, 'removable_skill_t', { items: model.removableSkills, render: renderRemovableSkill, brief: named }),
    // Without a live database the song types are not published at all (objectTypesOf).
    song_t: model.songs ? renderType(files, 'song_t', { items: model.songs, render: renderSong, brief: songBrief }) : [],
    live_t: model.songs ? renderType(files, 'live_t', { items: model.songs.flatMap((s) => s.charts), render: renderLive, brief: liveBrief }) : [],
  };
}
