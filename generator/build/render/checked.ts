/**
 * Nothing published that breaks its contract: before any file is rendered, every object the
 * site publishes (card, accessory, skill, center skill, character, event, School Idol Skill, song, chart)
 * is checked against its declared schema (check.ts). Hostile values that the
 * model let through (Infinity, 1.5 or text in an integer field) fail that check; such an
 * object is left out of the whole site, its own files, lists and packs and the sets, pairs,
 * events and accessories that name it, with a warning naming its table, row and field.
 */
import type { TSchema } from '@sinclair/typebox';
import type { Model } from '../model/buildModel.ts';
import type { Card, Song } from '../model/types.ts';
import type { Findings } from '../findings.ts';
import { misfit } from './check.ts';
import { kind, type KindName } from '../../contract/kinds.ts';
import { Accessory, Card as CardSchema, CenterSkill, Character, GameEvent, Live, RemovableSkill, Skill, Song as SongSchema } from '../../contract/schemas.ts';
import { renderCenterSkill, renderSkill } from './cards.ts';
import { renderAccessory } from './accessories.ts';
import { renderCharacter, renderEventObject, renderRemovableSkill } from './objects.ts';
import type { RenderContext } from './context.ts';
import { renderLive, renderSong } from './songs.ts';

const KIND = 'objects that do not fit their declared schema (left out)';

/** Keeps the items whose rendered object fits `schema`; warns for each other one, naming its kind's table and key column (contract/kinds.ts). */
function fitting<I extends { id: number }>(
  items: Iterable<I>, schema: TSchema, render: (item: I) => unknown, of: KindName, findings: Findings,
): I[] {
  const [table, key] = kind(of).table!;
  return [...items].filter((item) => {
    const problem = misfit(schema, render(item));
    if (problem) findings.warn(`${table}: ${key} ${item.id}: ${problem}; it is left out`, KIND);
    return problem === null;
  });
}

/** The songs that fit, each with only its charts that fit (a song left out takes its charts with it). */
function fittingSongs(songs: readonly Song[], findings: Findings): Song[] {
  const charts = new Set(fitting(songs.flatMap((s) => s.charts), Live, renderLive, 'chart', findings));
  return fitting(songs, SongSchema, renderSong, 'song', findings)
    .map((s) => (s.charts.every((c) => charts.has(c)) ? s : { ...s, charts: s.charts.filter((c) => charts.has(c)) }));
}

const byId = <I extends { id: number }>(items: I[]) => new Map(items.map((item) => [item.id, item]));

/** The context with a model holding only objects that fit their schemas (the same objects, so renderers' caches stay valid). */
export function checkedContext(context: RenderContext, findings: Findings): RenderContext {
  const { model } = context;
  const skills = byId(fitting(model.skills.values(), Skill, renderSkill, 'skill', findings));
  const centerSkills = byId(fitting(model.centerSkills.values(), CenterSkill, renderCenterSkill, 'center_skill', findings));
  // A card embeds its skills and events: one that does not fit makes the card not fit either.
  // A shallow copy: the shared card object carries a (non-enumerable) toJSON the schema does not know.
  const cards = fitting(model.cards, CardSchema, (c) => ({ ...context.cards.card(c) }), 'card', findings);
  const kept = new Set<Card>(cards);
  const keptIds = new Set(cards.map((c) => c.id));
  const events = fitting(model.events, GameEvent, renderEventObject, 'event', findings)
    .map((e) => (e.rewardCards.every((c) => kept.has(c)) ? e : { ...e, rewardCards: e.rewardCards.filter((c) => kept.has(c)) }));
  const accessories = model.accessories.map((a) => (a.card && !kept.has(a.card) ? { ...a, card: null } : a));
  const filtered: Model = {
    ...model,
    skills,
    centerSkills,
    cards,
    events,
    sets: model.sets.map((s) => (s.cardIds.every((id) => keptIds.has(id)) ? s : { ...s, cardIds: s.cardIds.filter((id) => keptIds.has(id)) })),
    pairs: model.pairs.filter((p) => p.members.every((m) => kept.has(m.card))),
    characters: model.characters,
    accessories: [],
    removableSkills: fitting(model.removableSkills, RemovableSkill, renderRemovableSkill, 'removable_skill', findings),
    songs: model.songs && fittingSongs(model.songs, findings),
  };
  // An accessory renders with the checked cards it names; characters with the checked cards.
  const withCards = { ...context, model: filtered };
  return {
    ...context,
    model: {
      ...filtered,
      accessories: fitting(accessories, Accessory, (a) => renderAccessory(withCards, a), 'accessory', findings),
      characters: byId(fitting(model.characters.values(), Character, (c) => renderCharacter(c, model.tags, cards), 'character', findings)),
    },
  };
}
