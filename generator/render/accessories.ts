/** Accessory objects, /api/v1/accessory/<id>.json and /api/v1/accessory_list.json. */
import type { Model } from '../model/buildModel.ts';
import type { Accessory } from '../model/types.ts';
import { imagePaths, paths, type AccessoryBriefJson, type AccessoryJson, type AccessoryListJson } from '../format.ts';
import { addJson, type SiteFiles } from './files.ts';
import { renderCardStub, targetNames } from './cards.ts';
import { objectImageUrl } from './imageUrls.ts';

/** The file name of an asset path ("assets/image/acc_1.png" -> "acc_1.png"). */
const fileName = (asset: string | null) => asset?.split('/').pop() ?? null;

export function renderAccessory(accessory: Accessory): AccessoryJson {
  const { card, levels } = accessory;
  return {
    id: accessory.id,
    name: accessory.name.original,
    name_en: accessory.name.secondary,
    rarity: accessory.rarity,
    smile_max: accessory.smileMax,
    pure_max: accessory.pureMax,
    cool_max: accessory.coolMax,
    is_material: accessory.isMaterial,
    effect_type: accessory.effectType,
    trigger_type: accessory.triggerType,
    trigger_fixed_param: accessory.triggerEffectType,
    default_level_max: accessory.defaultMaxLevel,
    level_max: accessory.maxLevel,
    icon_name: fileName(accessory.iconAsset),
    icon_image: objectImageUrl(accessory.iconImage),
    effect_targets: accessory.effectTargets.map((t) => `${t.referenceType},${t.target}`),
    effect_target_name: targetNames(accessory.effectTargets),
    is_limited: accessory.limited,
    unit_ordinal: card?.ordinal ?? null,
    unit_type_id: card?.typeId ?? null,
    unit_stub: card && renderCardStub(card),
    smile: levels.map((l) => l.smile),
    pure: levels.map((l) => l.pure),
    cool: levels.map((l) => l.cool),
    effect_val: levels.map((l) => l.effectValue),
    effect_dur: levels.map((l) => l.dischargeTime),
    trigger_val: levels.map((l) => l.triggerValue),
    probability: levels.map((l) => l.activationRate),
    next_exp: levels.map((l) => l.nextExp),
    grant_exp: levels.map((l) => l.grantExp),
    merge_cost: levels.map((l) => l.mergeCost),
    sale_price: levels.map((l) => l.salePrice),
  };
}

function renderAccessoryBrief(accessory: Accessory): AccessoryBriefJson {
  return {
    id: accessory.id,
    name: accessory.name.original,
    name_en: accessory.name.secondary,
    rarity: accessory.rarity,
    is_valid: !accessory.isMaterial,
    is_material: accessory.isMaterial,
    is_limited: accessory.limited,
    effect_type: accessory.effectType,
    trigger_type: accessory.triggerType,
    unit_ordinal: accessory.card?.ordinal ?? null,
    icon: accessory.iconImage && imagePaths.accessoryIconName(accessory.id),
  };
}

export function renderAccessories(model: Model, files: SiteFiles): void {
  for (const accessory of model.accessories) {
    addJson(files, paths.accessory(accessory.id), { accessories: [renderAccessory(accessory)] });
  }
  const list: AccessoryListJson = { accessories: model.accessories.map(renderAccessoryBrief) };
  addJson(files, paths.accessoryList(), list);
}
