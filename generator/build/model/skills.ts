/** Skills (unit_skill_m + levels + targets) and center skills (unit_leader_skill_m + extra). */
import type { MasterDb } from '../input/masterDb.ts';
import type { CenterSkill, Character, MemberTag, Skill, Target } from './types.ts';
import { EnglishTexts } from './english.ts';
import { resolveTarget } from './characters.ts';
import { groupBy, num, numOrNull } from './values.ts';

type Lookups = { tags: Map<number, MemberTag>; characters: Map<number, Character> };

function targets(db: MasterDb, table: string, column: string, lookups: Lookups): Map<number, Target[]> {
  const rows = groupBy(db.rows(table), (r) => num(r.unit_skill_id));
  return new Map([...rows].map(([id, list]) => [
    id,
    list.map((r) => resolveTarget(num(r.reference_type), num(r[column]), lookups.tags, lookups.characters)),
  ]));
}

export function buildSkills(db: MasterDb, english: EnglishTexts, lookups: Lookups): Map<number, Skill> {
  const levels = groupBy(db.rows('unit_skill_level_m'), (r) => num(r.unit_skill_id));
  const effectTargets = targets(db, 'unit_skill_effect_target_m', 'effect_target', lookups);
  const triggerTargets = targets(db, 'unit_skill_trigger_target_m', 'trigger_target', lookups);
  const linkedNames = english.namesLinkedByCards(db.rows('unit_m'), 'default_unit_skill_id', 'unit_skill_m', 'unit_skill_id');
  const rows = db.keyedRows('unit_skill_m', 'unit_skill_id');
  const sameNames = EnglishTexts.namesBySameOriginal(rows, 'unit_skill_id', linkedNames);
  return new Map(rows.map((row) => {
    const id = num(row.unit_skill_id);
    const skill: Skill = {
      id,
      name: english.text(row.name, linkedNames.get(id), sameNames.get(row.name), english.get('unit_skill_m', 'unit_skill_id', id), row.name_en),
      effectType: num(row.skill_effect_type),
      dischargeType: numOrNull(row.discharge_type),
      triggerType: num(row.trigger_type),
      maxLevel: num(row.max_level),
      levels: (levels.get(id) ?? [])
        .map((l) => ({
          level: num(l.skill_level),
          effectValue: num(l.effect_value),
          dischargeTime: num(l.discharge_time),
          triggerValue: num(l.trigger_value),
          activationRate: num(l.activation_rate),
        }))
        .sort((a, b) => a.level - b.level),
      effectTargets: effectTargets.get(id) ?? [],
      triggerTargets: triggerTargets.get(id) ?? [],
    };
    return [id, skill];
  }));
}

export function buildCenterSkills(db: MasterDb, english: EnglishTexts, tags: Map<number, MemberTag>): Map<number, CenterSkill> {
  const extras = groupBy(db.rows('unit_leader_skill_extra_m'), (r) => num(r.unit_leader_skill_id));
  const linkedNames = english.namesLinkedByCards(db.rows('unit_m'), 'default_leader_skill_id', 'unit_leader_skill_m', 'unit_leader_skill_id');
  return new Map(db.keyedRows('unit_leader_skill_m', 'unit_leader_skill_id').map((row) => {
    const id = num(row.unit_leader_skill_id);
    const extra = extras.get(id)?.[0];
    const englishName = linkedNames.get(id) ?? english.get('unit_leader_skill_m', 'unit_leader_skill_id', id);
    const skill: CenterSkill = {
      id,
      name: typeof row.name === 'string' || englishName || row.name_en ? english.text(row.name, englishName, row.name_en) : null,
      effectType: num(row.leader_skill_effect_type),
      effectValue: num(row.effect_value),
      extra: extra
        ? {
          memberTagId: num(extra.member_tag_id),
          tagName: tags.get(num(extra.member_tag_id))?.name ?? null,
          effectType: num(extra.leader_skill_effect_type),
          effectValue: num(extra.effect_value),
        }
        : null,
    };
    return [id, skill];
  }));
}
