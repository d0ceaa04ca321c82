/**
 * References to member tags and characters that lead nowhere. The model already
 * degrades them (a tag that does not exist has no name, so it counts for no year or
 * sub-unit and names no target); this check says so in the build report, once per table.
 */
import type { MasterDb } from '../input/masterDb.ts';
import type { Findings } from '../findings.ts';
import type { Character, MemberTag } from './types.ts';
import { resolveTarget } from './characters.ts';
import { num } from './values.ts';

interface Reference {
  table: string;
  /** The column naming the row that refers. */
  owner: string;
  /** The column naming the tag (or, for reference_type 3, the character). */
  column: string;
  /** Only tags, never characters. */
  tagsOnly?: boolean;
  consequence: string;
}

const REFERENCES: Reference[] = [
  { table: 'unit_type_member_tag_m', owner: 'unit_type_id', column: 'member_tag_id', tagsOnly: true, consequence: 'the tags are ignored' },
  { table: 'unit_skill_effect_target_m', owner: 'unit_skill_id', column: 'effect_target', consequence: 'they name no target' },
  { table: 'unit_skill_trigger_target_m', owner: 'unit_skill_id', column: 'trigger_target', consequence: 'they name no target' },
  { table: 'unit_leader_skill_extra_m', owner: 'unit_leader_skill_id', column: 'member_tag_id', tagsOnly: true, consequence: 'their names are ""' },
  { table: 'accessory_effect_target_m', owner: 'accessory_id', column: 'effect_target', consequence: 'they name no target' },
];

/** Shown per warning; the rest are counted. */
const EXAMPLES = 5;

export function warnDanglingRefs(db: MasterDb, tags: Map<number, MemberTag>, characters: Map<number, Character>, findings: Findings): void {
  for (const ref of REFERENCES) {
    const dangling = db.rows(ref.table).flatMap((row) => {
      const target = num(row[ref.column]);
      const referenceType = ref.tagsOnly ? 0 : num(row.reference_type);
      if (target === 0 || resolveTarget(referenceType, target, tags, characters).name) return [];
      return [`${ref.owner} ${num(row[ref.owner])} -> ${referenceType === 3 ? 'character' : 'member tag'} ${target}`];
    });
    const what = `${ref.table}: ${dangling.length} row(s) name a member tag or character that does not exist, so ${ref.consequence}`;
    findings.warnMany(dangling.length, what, dangling.slice(0, EXAMPLES));
  }
}
