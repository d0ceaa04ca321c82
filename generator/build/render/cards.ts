/** Card, skill and center skill objects in the published shape. */
import type { Card, CenterSkill, Skill, Target } from '../model/types.ts';
import type { ImageLinks } from './imageUrls.ts';
import { shareJson, sharedArray } from './files.ts';
import type { CardJson, CardStubJson, CenterSkillJson, Flag, SkillJson } from '../../contract/schemas.ts';

export const flag = (value: boolean): Flag => (value ? 1 : 0);

/** Names of the targeted tags or characters, English where known; null when none is known (dangling targets are left out). */
export function targetNames(targets: readonly Target[]): string | null {
  const names = targets.flatMap((t) => (t.name ? [t.name.secondary ?? t.name.original] : []));
  return names.length ? names.join(', ') : null;
}

export function renderSkill(skill: Skill): SkillJson {
  return {
    id: skill.id,
    name: skill.name.original,
    name_en: skill.name.secondary ?? '',
    trigger_type: skill.triggerType,
    effect_type: skill.effectType,
    level_max: skill.maxLevel,
    probability: skill.levels.map((l) => l.activationRate),
    effect_val: skill.levels.map((l) => l.effectValue),
    effect_dur: skill.levels.map((l) => l.dischargeTime),
    trigger_val: skill.levels.map((l) => l.triggerValue),
    translated_target: targetNames(skill.effectTargets),
    translated_trigger_target: targetNames(skill.triggerTargets),
  };
}

export function renderCenterSkill(skill: CenterSkill): CenterSkillJson {
  const extra = skill.extra;
  return {
    id: skill.id,
    name: skill.name?.original ?? '',
    name_en: skill.name?.secondary ?? '',
    effect_type: skill.effectType,
    percent: skill.effectValue,
    extra_apply_type_name: extra?.tagName?.original ?? '',
    extra_apply_type_name_en: extra?.tagName?.secondary ?? '',
    extra_apply_type: extra?.memberTagId ?? 0,
    extra_effect: extra?.effectType ?? 0,
    extra_percent: extra?.effectValue ?? 0,
  };
}

export interface CardRenderer {
  card(card: Card): CardJson;
  stub(card: Card): CardStubJson;
}

/** Cards appear in card files, sets, pairs, packs and generic objects: each is built and serialized once. */
export function cardRenderer(images: ImageLinks): CardRenderer {
  const rendered = new WeakMap<Card, CardJson>();
  const card = (c: Card): CardJson => {
    let json = rendered.get(c);
    if (!json) rendered.set(c, (json = shareJson(cardJson(c, images))));
    return json;
  };
  return { card, stub: (c) => cardStub(card(c), images.listIconName(c)) };
}

/** An object literal without spreads: V8 builds `{ ...a, more }` several times slower. */
function cardJson(card: Card, images: ImageLinks): CardJson {
  const json: CardJson = {
    id: card.id,
    ordinal: card.ordinal,
    title: card.title?.original ?? '',
    title_en: card.title?.secondary ?? '',
    char_name: card.charName.secondary ?? card.charName.original,
    original_char_name: card.charName.original,
    type_id: card.typeId,
    illustrator: null,
    is_transform_disabled: flag(card.transformDisabled),
    is_support_card: flag(card.supportCard),
    is_costume_card: flag(card.costumeCard),
    is_pre_transformed: flag(card.preTransformed),
    rarity: card.rarity,
    attribute: card.attribute,
    skill: card.skill && renderSkill(card.skill),
    center_skill: card.centerSkill && renderCenterSkill(card.centerSkill),
    hp_base: card.hpBase,
    normal_max_kizuna: card.normalMaxKizuna,
    transformed_max_kizuna: card.transformedMaxKizuna,
    normal_max_level: card.normalMaxLevel,
    transformed_max_level: card.transformedMaxLevel,
    normal_max_level_exp: card.normalMaxLevelExp,
    transformed_max_level_exp: card.transformedMaxLevelExp,
    affiliation: card.character?.memberCategory ?? 0,
    year: card.character?.year ?? 0,
    sub_affiliation: card.character?.subUnit ?? 0,
    album_page_id: card.albumSeriesId ?? 0,
    extra_data: { release_date: card.releaseDate, release_date_is_dirty: flag(card.releaseDateIsDirty) },
    sets: sharedArray(card.setIds),
    images: images.cardImages(card),
    events: card.events.map((e) => ({ id: e.id, name: e.name.original, name_en: e.name.secondary, start_date: e.start })),
    smile: sharedArray(card.levels.smile),
    pure: sharedArray(card.levels.pure),
    cool: sharedArray(card.levels.cool),
    stamina: sharedArray(card.levels.stamina),
    sell_price: sharedArray(card.levels.salePrice),
    exp_given: sharedArray(card.levels.mergeExp),
  };
  if (card.regions) json.regions = card.regions;
  return json;
}

/** A card stub (card_list.json, unit_stub): the card object's identity fields, so each rule is written once. */
function cardStub(c: CardJson, icon: string | null): CardStubJson {
  return {
    id: c.id,
    ordinal: c.ordinal,
    char_name: c.char_name,
    is_transform_disabled: c.is_transform_disabled,
    is_pre_transformed: c.is_pre_transformed,
    rarity: c.rarity,
    title: c.title,
    title_en: c.title_en,
    type_id: c.type_id,
    attribute: c.attribute,
    is_support_card: c.is_support_card,
    is_costume_card: c.is_costume_card,
    release_date: c.extra_data.release_date,
    icon,
  };
}
