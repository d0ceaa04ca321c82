/** Characters (unit_type_m) and member tags: school year, group and sub-unit. */
import type { MasterDb } from '../input/masterDb.ts';
import type { Character, MemberTag, Target, Text } from './types.ts';
import type { EnglishTexts } from './english.ts';
import { groupBy, num } from './values.ts';

const YEAR_TAGS = new Set([1, 2, 3]);

/**
 * The game's own English names of years, groups and sub-units, for exports whose English
 * export has no member tags (or that have no English export): the years by tag id (tags 1-3
 * in every export, whatever its language), the others by their Japanese name as the JP client
 * writes it (NFKC-normalized: JP writes `CYaRon！` with a full-width mark). The English names
 * are those the English client (WW) gives the same tags, and for Nijigasaki, whose tags came
 * after the English client's last member tag export here, the club's English name as the
 * English client's song and story texts spell it.
 */
const YEAR_NAMES: Record<number, string> = { 1: '1st year', 2: '2nd year', 3: '3rd year' };
const TAG_NAMES: Record<string, string> = {
  '1年生': '1st year', '2年生': '2nd year', '3年生': '3rd year',
  "μ's": "μ's", 'Aqours': 'Aqours', '虹ヶ咲': 'Nijigasaki', '虹ヶ咲学園スクールアイドル同好会': 'Nijigasaki High School Idol Club', 'Liella!': 'Liella!',
  'Printemps': 'Printemps', 'lily white': 'lily white', 'BiBi': 'BiBi',
  'CYaRon!': 'CYaRon!', 'AZALEA': 'AZALEA', 'Guilty Kiss': 'Guilty Kiss',
  'DiverDiva': 'DiverDiva', 'A・ZU・NA': 'A・ZU・NA', 'QU4RTZ': 'QU4RTZ', 'R3BIRTH': 'R3BIRTH',
  'CatChu!': 'CatChu!', 'KALEIDOSCORE': 'KALEIDOSCORE', '5yncri5e!': '5yncri5e!',
};
const NORMALIZED_TAG_NAMES = new Map(Object.entries(TAG_NAMES).map(([name, english]) => [name.normalize('NFKC'), english]));
const fixedTagName = (id: number, name: unknown): string | undefined =>
  YEAR_NAMES[id] ?? (typeof name === 'string' ? NORMALIZED_TAG_NAMES.get(name.normalize('NFKC').trim()) : undefined);

export function buildMemberTags(db: MasterDb, english: EnglishTexts): Map<number, MemberTag> {
  const links = db.rows('unit_type_member_tag_m');
  const members = groupBy(links, (l) => num(l.member_tag_id));
  // Before early 2017 member_tag_m has no display_flag: every tag then counts (years, group, sub-unit).
  const flagged = db.columns('member_tag_m').has('display_flag');
  return new Map(db.keyedRows('member_tag_m', 'member_tag_id').map((row) => {
    const id = num(row.member_tag_id);
    const tag: MemberTag = {
      id,
      // The game's fixed English names before the name_en column, which some regional exports fill with their own language.
      name: english.text(row.name, english.get('member_tag_m', 'member_tag_id', id), fixedTagName(id, row.name), row.name_en),
      display: !flagged || num(row.display_flag) === 1,
      memberCount: members.get(id)?.length ?? 0,
    };
    return [id, tag];
  }));
}

/** The group is the character's largest display tag; the sub-unit is the next display tag by id. */
function yearAndSubUnit(tagIds: number[], tags: Map<number, MemberTag>): { year: number; subUnit: number } {
  const year = tagIds.find((id) => YEAR_TAGS.has(id)) ?? 0;
  const display = tagIds
    .map((id) => tags.get(id))
    .filter((t): t is MemberTag => !!t && t.display && !YEAR_TAGS.has(t.id))
    .sort((a, b) => b.memberCount - a.memberCount || a.id - b.id);
  const subUnits = display.slice(1).sort((a, b) => a.id - b.id);
  return { year, subUnit: subUnits[0]?.id ?? 0 };
}

export function buildCharacters(db: MasterDb, tags: Map<number, MemberTag>, english: EnglishTexts): Map<number, Character> {
  const tagsByType = groupBy(db.rows('unit_type_member_tag_m'), (l) => num(l.unit_type_id));
  return new Map(db.keyedRows('unit_type_m', 'unit_type_id').map((row) => {
    const id = num(row.unit_type_id);
    const tagIds = [...new Set((tagsByType.get(id) ?? []).map((l) => num(l.member_tag_id)))].sort((a, b) => a - b);
    const character: Character = {
      id,
      name: english.text(row.name, english.get('unit_type_m', 'unit_type_id', id), row.name_en),
      memberCategory: num(row.member_category),
      tagIds,
      ...yearAndSubUnit(tagIds, tags),
    };
    return [id, character];
  }));
}

/** Resolves what a skill or accessory aims at: a character for reference type 3, else a member tag. */
export function resolveTarget(
  referenceType: number, target: number, tags: Map<number, MemberTag>, characters: Map<number, Character>,
): Target {
  const name: Text | null = referenceType === 3 ? characters.get(target)?.name ?? null : tags.get(target)?.name ?? null;
  return { referenceType, target, name };
}

/**
 * The group tag of a member_category (a song's group): the largest display tag, not a school
 * year, that its characters carry; null when no character of the category has one.
 */
export function groupTagOf(category: number | null, characters: Map<number, Character>, tags: Map<number, MemberTag>): MemberTag | null {
  const candidates = [...characters.values()]
    .filter((c) => category !== null && c.memberCategory === category)
    .flatMap((c) => c.tagIds.map((id) => tags.get(id)))
    .filter((t): t is MemberTag => !!t && t.display && !YEAR_TAGS.has(t.id));
  return candidates.sort((a, b) => b.memberCount - a.memberCount || a.id - b.id)[0] ?? null;
}
