/** Builds the whole domain model from a game export: the one place that knows how parts link up. */
import type { GameExport } from '../input/readExport.ts';
import type { Findings } from '../findings.ts';
import type {
  Accessory, Card, CardSet, CenterSkill, Character, Gacha, GameEvent, MemberTag, Pair, RemovableSkill, Skill, Song,
} from './types.ts';
import { EnglishTexts } from './english.ts';
import { buildCharacters, buildMemberTags } from './characters.ts';
import { buildCenterSkills, buildSkills } from './skills.ts';
import { buildCards } from './cards.ts';
import { assignReleaseDates } from './releaseDates.ts';
import { buildSets } from './sets.ts';
import { buildPairs } from './pairs.ts';
import { buildAccessories } from './accessories.ts';
import { warnDanglingRefs } from './danglingRefs.ts';
import { buildEvents, buildGachas } from './happening.ts';
import { linkEventRewards } from './eventRewards.ts';
import { buildRemovableSkills } from './removableSkills.ts';
import { buildSongs } from './songs.ts';
import { num } from './values.ts';
import { attachRegions } from './regions.ts';

export interface Model {
  readonly truthVersion: string;
  /** Minutes east of UTC of the game's clock in the export's region (meta.json's timezone or region): the calendar its dates were shown in. */
  readonly timezoneOffset: number;
  readonly tags: ReadonlyMap<number, MemberTag>;
  readonly characters: ReadonlyMap<number, Character>;
  readonly skills: ReadonlyMap<number, Skill>;
  readonly centerSkills: ReadonlyMap<number, CenterSkill>;
  /** Readable cards in ordinal order, one per ordinal. */
  readonly cards: readonly Card[];
  readonly sets: readonly CardSet[];
  /** In pair id order. */
  readonly pairs: readonly Pair[];
  /** In id order; empty for legacy exports. */
  readonly accessories: readonly Accessory[];
  /** School Idol Skills in id order. */
  readonly removableSkills: readonly RemovableSkill[];
  /** In start order. */
  readonly events: readonly GameEvent[];
  readonly gachas: readonly Gacha[];
  /** Songs in id order, each with its charts; null when the export has no live database (no song types are published). */
  readonly songs: readonly Song[] | null;
  /** Crowd translations, original -> translation. */
  readonly translations: ReadonlyMap<string, string>;
}

/** Tables a card needs whenever any card refers to them. */
function requireLinkedTables(game: GameExport): void {
  const { unit } = game;
  unit.require('unit_m', 'cards');
  unit.require('unit_type_m', 'characters of cards');
  const cards = unit.rows('unit_m');
  if (cards.some((c) => num(c.default_unit_skill_id) > 0)) {
    unit.require('unit_skill_m', 'card skills');
    unit.require('unit_skill_level_m', 'card skill levels');
  }
  if (cards.some((c) => num(c.default_leader_skill_id) > 0)) unit.require('unit_leader_skill_m', 'card center skills');
}

/** One card per ordinal: a duplicate ordinal keeps the lowest unit_id, with a warning. */
function uniqueOrdinals<C extends Card>(cards: C[], findings: Findings): C[] {
  const seen = new Set<number>();
  return cards.filter((card) => {
    if (!seen.has(card.ordinal)) return seen.add(card.ordinal);
    findings.warn(`unit_m: ordinal ${card.ordinal} appears twice; unit_id ${card.id} is left out`, 'unit_m: ordinals appearing twice');
    return false;
  });
}

export function buildModel(game: GameExport, findings: Findings): Model {
  requireLinkedTables(game);
  const english = new EnglishTexts(game.english, game.translations);
  const tags = buildMemberTags(game.unit, english);
  const characters = buildCharacters(game.unit, tags, english);
  warnDanglingRefs(game.unit, tags, characters, findings);
  const skills = buildSkills(game.unit, english, { tags, characters });
  const centerSkills = buildCenterSkills(game.unit, english, tags);
  const cards = uniqueOrdinals(buildCards(game.unit, english, { skills, centerSkills, characters }, findings), findings);
  const events = buildEvents(game.events, {
    offsetMinutes: game.meta.timezoneOffset, english: new EnglishTexts(game.englishEvents, game.translations),
  }, findings);
  linkEventRewards(game.events, events, cards, findings);
  assignReleaseDates(cards, game.releaseDates, findings);
  const sets = buildSets(game.unit, english, game.sets, cards, findings);
  const pairs = buildPairs(game.unit, cards, findings);
  const accessories = buildAccessories(game.unit, english, { tags, characters, cards }, findings);
  const removableSkills = buildRemovableSkills(game.unit, english);
  const gachas = buildGachas(game.gachas, english);
  const songs = buildSongs(game.live, { english: new EnglishTexts(game.englishLive, game.translations), characters, tags, notes: game.notes }, findings);
  attachRegions(game.regions, { cards, accessories, songs });
  return {
    truthVersion: game.meta.truthVersion ?? game.inputHash, timezoneOffset: game.meta.timezoneOffset, tags, characters, skills, centerSkills, cards, sets, pairs, accessories,
    removableSkills, events, gachas, songs, translations: game.translations,
  };
}
