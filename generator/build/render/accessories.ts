/** Accessory objects, /api/v1/accessory/<id>.json and /api/v1/accessory_list.json. */
import type { Accessory } from '../model/types.ts';
import { endpoints } from '../../contract/endpoints.ts';
import type { AccessoryJson } from '../../contract/schemas.ts';
import { emit } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';
import { targetNames } from './cards.ts';
import type { RenderContext } from './context.ts';

/** The file name of an asset path ("assets/image/acc_1.png" -> "acc_1.png"). */
const fileName = (asset: string | null) => asset?.split('/').pop() ?? null;

export function renderAccessory({ cards, images }: RenderContext, accessory: Accessory): AccessoryJson {
  const { card, levels } = accessory;
  const json: AccessoryJson = {
    id: accessory.id,
    rarity: accessory.rarity,
    name: accessory.name.original,
    name_en: accessory.name.secondary ?? '',
    level_max: accessory.maxLevel,
    icon_name: fileName(accessory.iconAsset),
    trigger_type: accessory.triggerType,
    trigger_fixed_param: accessory.triggerEffectType,
    effect_type: accessory.effectType,
    effect_targets: accessory.effectTargets.length ? accessory.effectTargets.map((t) => `${t.referenceType},${t.target}`) : null,
    effect_target_name: targetNames(accessory.effectTargets),
    is_limited: accessory.limited,
    unit_ordinal: card?.ordinal ?? null,
    unit_type_id: card?.typeId ?? null,
    unit_stub: card && cards.stub(card),
    smile: levels.map((l) => l.smile),
    pure: levels.map((l) => l.pure),
    cool: levels.map((l) => l.cool),
    probability: levels.map((l) => l.activationRate),
    effect_val: levels.map((l) => l.effectValue),
    effect_dur: levels.map((l) => l.dischargeTime),
    trigger_val: levels.map((l) => l.triggerValue),
    smile_max: accessory.smileMax,
    pure_max: accessory.pureMax,
    cool_max: accessory.coolMax,
    is_material: accessory.isMaterial,
    default_level_max: accessory.defaultMaxLevel,
    icon_image: images.accessoryIconUrl(accessory),
    next_exp: levels.map((l) => l.nextExp),
    grant_exp: levels.map((l) => l.grantExp),
    merge_cost: levels.map((l) => l.mergeCost),
    sale_price: levels.map((l) => l.salePrice),
  };
  if (accessory.regions) json.regions = accessory.regions;
  return json;
}

export function renderAccessories(context: RenderContext, files: SiteFiles): void {
  const { model, images } = context;
  for (const accessory of model.accessories) emit(files, endpoints.accessory, [accessory.id], { accessories: [renderAccessory(context, accessory)] });
  emit(files, endpoints.accessoryList, [], {
    accessories: model.accessories.map((accessory) => ({
      id: accessory.id,
      is_valid: !accessory.isMaterial,
      name: accessory.name.original,
      name_en: accessory.name.secondary ?? '',
      rarity: accessory.rarity,
      is_material: accessory.isMaterial,
      is_limited: accessory.limited,
      effect_type: accessory.effectType,
      trigger_type: accessory.triggerType,
      unit_ordinal: accessory.card?.ordinal ?? null,
      icon: images.accessoryIconName(accessory),
    })),
  });
}
