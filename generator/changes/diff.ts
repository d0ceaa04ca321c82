/** The change list between two snapshots: a pure function of them (same snapshots, same bytes). */
import { isDeepStrictEqual } from 'node:util';
import { CHANGE_TYPES, type ChangeIndexJson, type ChangeListJson } from '../contract/schemas.ts';
import { isJsonObject, type ChangeType, type Json, type JsonObject, type Snapshot } from './snapshot.ts';

type Id = number | string;
type FieldChange = { field: string; from: Json; to: Json };
export type Counts = ChangeIndexJson['changes'][number]['counts'];

/** Numbers in numeric order, strings (set ids) in code unit order. */
const compareIds = (a: Id, b: Id): number => (typeof a === 'number' && typeof b === 'number' ? a - b : a < b ? -1 : a > b ? 1 : 0);
const sortIds = <T extends Id>(ids: T[]): T[] => ids.sort(compareIds);

/**
 * The fields in which `after` differs from `before`: nested objects are walked (dot paths),
 * anything else (arrays included) is compared whole; a field one side lacks counts as null.
 */
function fieldChanges(before: Json, after: Json, path: string, out: FieldChange[]): FieldChange[] {
  if (isJsonObject(before) && isJsonObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      fieldChanges(before[key] ?? null, after[key] ?? null, path ? `${path}.${key}` : key, out);
    }
  } else if (!isDeepStrictEqual(before, after)) {
    out.push({ field: path, from: before, to: after });
  }
  return out;
}

/** Added, removed and changed objects of one type; `idOf` turns a snapshot key back into the published id. */
function typeChanges<I extends Id>(before: Map<string, string>, after: Map<string, string>, idOf: (key: string) => I) {
  const ids = (objects: Map<string, string>, test: (key: string) => boolean) => sortIds([...objects.keys()].filter(test).map(idOf));
  const differs = (key: string) => before.has(key) && before.get(key) !== after.get(key);
  const changed = ids(after, differs).map((id) => {
    const [old, now] = [before, after].map((objects) => JSON.parse(objects.get(String(id))!) as Json);
    return { id, fields: fieldChanges(old, now, '', []).sort((a, b) => (a.field < b.field ? -1 : 1)) };
  });
  return { added: ids(after, (key) => !before.has(key)), removed: ids(before, (key) => !after.has(key)), changed };
}

/** The ordinal of a card in a snapshot. */
const ordinalIn = (snapshot: Snapshot) => (id: number) => (JSON.parse(snapshot.objects.cards.get(String(id))!) as JsonObject).ordinal as number;

/** What the update from `from` to `to` changed, type by type in CHANGE_TYPES order. */
export function diffSnapshots(from: Snapshot, to: Snapshot): ChangeListJson {
  const of = (type: ChangeType) => typeChanges(from.objects[type], to.objects[type], Number);
  const cards = of('cards');
  return {
    from: from.version,
    to: to.version,
    types: {
      cards: {
        added: cards.added,
        removed: cards.removed,
        added_ordinals: sortIds(cards.added.map(ordinalIn(to))),
        removed_ordinals: sortIds(cards.removed.map(ordinalIn(from))),
        changed: cards.changed.map(({ id, fields }) => ({ id, ordinal: ordinalIn(to)(id), fields })),
      },
      skills: of('skills'),
      center_skills: of('center_skills'),
      accessories: of('accessories'),
      characters: of('characters'),
      events: of('events'),
      sets: typeChanges(from.objects.sets, to.objects.sets, String),
      pairs: of('pairs'),
    },
  };
}

/** How many objects of each type a change list adds, removes and changes. */
export function countsOf(list: ChangeListJson): Counts {
  return Object.fromEntries(CHANGE_TYPES.map((type) => {
    const { added, removed, changed } = list.types[type];
    return [type, { added: added.length, removed: removed.length, changed: changed.length }];
  })) as Counts;
}

export const isEmpty = (counts: Partial<Counts>): boolean =>
  Object.values(counts).every((c) => c.added + c.removed + c.changed === 0);

const NAMES: Record<ChangeType, [one: string, many: string]> = {
  cards: ['card', 'cards'], skills: ['skill', 'skills'], center_skills: ['center skill', 'center skills'],
  accessories: ['accessory', 'accessories'], characters: ['character', 'characters'], events: ['event', 'events'],
  sets: ['set', 'sets'], pairs: ['pair', 'pairs'],
};

/** "24 cards added, 3 skills changed, ..." in type order, or "none". */
export function describeCounts(counts: Partial<Counts>): string {
  const parts = CHANGE_TYPES.flatMap((type) => {
    const c = counts[type];
    if (!c) return [];
    return (['added', 'removed', 'changed'] as const).filter((kind) => c[kind]).map((kind) => `${c[kind]} ${NAMES[type][c[kind] === 1 ? 0 : 1]} ${kind}`);
  });
  return parts.length ? parts.join(', ') : 'none';
}
