/**
 * Accessories (modern exports only): accessory_m with its level rows, effect targets,
 * owning card (accessory_special_m) and icon (accessory_asset_m). Legacy exports have none.
 */
import type { MasterDb, DbRow } from '../input/masterDb.ts';
import { WARNING_EXAMPLES, type Findings } from '../findings.ts';
import type { Accessory, AccessoryLevel, Card, Character, MemberTag, Target } from './types.ts';
import type { EnglishTexts } from './english.ts';
import { resolveTarget } from './characters.ts';
import { assetPath, groupBy, num, numOrNull } from './values.ts';

export interface AccessoryLinks {
  tags: Map<number, MemberTag>;
  characters: Map<number, Character>;
  cards: Card[];
}

/** `<stat>_max - <stat>_diff`; null where the level row's cell is NULL. */
const stat = (max: unknown, diff: unknown) => (numOrNull(diff) === null ? null : num(max) - num(diff));

/** One level row; a NULL cell stays null (trigger_value is NULL on most rows). */
function level(accessory: DbRow, row: DbRow): AccessoryLevel {
  return {
    level: num(row.level),
    smile: stat(accessory.smile_max, row.smile_diff),
    pure: stat(accessory.pure_max, row.pure_diff),
    cool: stat(accessory.cool_max, row.cool_diff),
    effectValue: numOrNull(row.effect_value),
    dischargeTime: numOrNull(row.discharge_time),
    triggerValue: numOrNull(row.trigger_value),
    activationRate: numOrNull(row.activation_rate),
    nextExp: numOrNull(row.next_exp),
    grantExp: numOrNull(row.grant_exp),
    mergeCost: numOrNull(row.merge_cost),
    salePrice: numOrNull(row.sale_price),
  };
}

/** icon_asset per accessory_asset_id ({} when accessory_asset_m is absent). */
function iconAssets(db: MasterDb): Map<number, string> {
  return new Map(db.rows('accessory_asset_m').flatMap((r) => {
    const icon = assetPath(r.icon_asset);
    return icon ? [[num(r.accessory_asset_id), icon] as const] : [];
  }));
}

/** unit_id of the card each limited accessory belongs to (first row wins, with a warning). */
function owners(db: MasterDb, findings: Findings): Map<number, number> {
  const byAccessory = new Map<number, number>();
  for (const row of db.rows('accessory_special_m')) {
    const id = num(row.accessory_id);
    if (byAccessory.has(id)) findings.warn(`accessory_special_m: accessory ${id} names more than one card; the first row is used`, 'accessory_special_m: accessories naming more than one card');
    else byAccessory.set(id, num(row.unit_id));
  }
  return byAccessory;
}

export function buildAccessories(db: MasterDb, english: EnglishTexts, links: AccessoryLinks, findings: Findings): Accessory[] {
  if (!db.hasTable('accessory_m')) return [];
  db.require('accessory_level_m', 'accessory levels');
  const levels = groupBy(db.rows('accessory_level_m'), (r) => num(r.accessory_id));
  const targets = groupBy(db.rows('accessory_effect_target_m'), (r) => num(r.accessory_id));
  const icons = iconAssets(db);
  const ownerIds = owners(db, findings);
  const cardsById = new Map(links.cards.map((c) => [c.id, c]));
  const unreadableOwners: number[] = [];
  const accessories = db.keyedRows('accessory_m', 'accessory_id').map((row): Accessory => {
    const id = num(row.accessory_id);
    const ownerId = ownerIds.get(id);
    const card = ownerId === undefined ? null : cardsById.get(ownerId) ?? null;
    if (ownerId !== undefined && !card) unreadableOwners.push(id);
    const effectTargets = (targets.get(id) ?? []).map((t): Target =>
      resolveTarget(num(t.reference_type), num(t.effect_target), links.tags, links.characters));
    return {
      id,
      name: english.text(row.name, english.get('accessory_m', 'accessory_id', id), row.name_en),
      rarity: num(row.rarity),
      smileMax: num(row.smile_max),
      pureMax: num(row.pure_max),
      coolMax: num(row.cool_max),
      isMaterial: num(row.is_material) !== 0,
      effectType: num(row.effect_type),
      triggerType: numOrNull(row.trigger_type),
      triggerEffectType: numOrNull(row.trigger_effect_type),
      defaultMaxLevel: num(row.default_max_level),
      maxLevel: num(row.max_level),
      iconAsset: icons.get(num(row.accessory_asset_id)) ?? null,
      effectTargets,
      limited: ownerId !== undefined,
      card,
      levels: (levels.get(id) ?? []).map((l) => level(row, l)).sort((a, b) => a.level - b.level),
    };
  });
  if (unreadableOwners.length) {
    const more = unreadableOwners.length > WARNING_EXAMPLES ? ` and ${unreadableOwners.length - WARNING_EXAMPLES} more` : '';
    const listed = unreadableOwners.slice(0, WARNING_EXAMPLES).join(', ') + more;
    findings.warn(`accessory_special_m: accessories ${listed} belong to cards that are unreadable or missing; their unit fields are null`);
  }
  return accessories.sort((a, b) => a.id - b.id);
}
