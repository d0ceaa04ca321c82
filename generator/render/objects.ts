/**
 * Generic objects: api/v1/<type>/<id>.json as `{"result": [object]}` and the brief
 * listings api/v1/list/<type>.json, for every type of format.ts OBJECT_TYPES.
 */
import type { Model } from '../model/buildModel.ts';
import type { Card, Character, MemberTag } from '../model/types.ts';
import {
  objectRef, paths,
  type CardBriefJson, type CharacterJson, type ObjectBriefJson, type ObjectListJson, type ObjectResultJson, type ObjectType,
} from '../format.ts';
import { addJson, type SiteFiles } from './files.ts';
import { renderCard, renderCenterSkill, renderSkill } from './cards.ts';
import { renderAccessory } from './accessories.ts';

/** How one type is published: its objects by id, and the brief entry of each. */
interface ObjectSource<T extends { id: number }> {
  items: T[];
  render: (item: T) => unknown;
  brief: (item: T) => Omit<ObjectBriefJson, 'ref'>;
}

const named = (item: { id: number; name: { original: string; secondary: string | null } | null }) => ({
  id: item.id, name: item.name?.original ?? null, name_en: item.name?.secondary ?? null,
});

function cardBrief(card: Card): Omit<CardBriefJson, 'ref'> {
  return {
    id: card.id,
    name: card.title?.original ?? '',
    name_en: card.title?.secondary ?? null,
    ordinal: card.ordinal,
    char_name: card.charName.secondary ?? card.charName.original,
    rarity: card.rarity,
    attribute: card.attribute,
  };
}

function renderCharacter(character: Character, tags: Map<number, MemberTag>, cards: Card[]): CharacterJson {
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

function publish<T extends { id: number }>(files: SiteFiles, type: ObjectType, source: ObjectSource<T>): void {
  const items = [...source.items].sort((a, b) => a.id - b.id);
  for (const item of items) {
    const file: ObjectResultJson = { result: [source.render(item)] };
    addJson(files, paths.object(type, item.id), file);
  }
  const list: ObjectListJson = { result: items.map((item) => ({ ...source.brief(item), ref: objectRef(type, item.id) })) };
  addJson(files, paths.objectList(type), list);
}

export function renderObjects(model: Model, files: SiteFiles): void {
  publish(files, 'card_t', { items: model.cards, render: renderCard, brief: cardBrief });
  publish(files, 'char_t', {
    items: [...model.characters.values()], render: (c) => renderCharacter(c, model.tags, model.cards), brief: named,
  });
  publish(files, 'skill_t', { items: [...model.skills.values()], render: renderSkill, brief: named });
  publish(files, 'leader_skill_t', { items: [...model.centerSkills.values()], render: renderCenterSkill, brief: named });
  publish(files, 'accessory_t', { items: model.accessories, render: renderAccessory, brief: named });
}
