/** The change list between two snapshots: a pure function of them (same snapshots, same bytes). */
import { isDeepStrictEqual } from 'node:util';
import type { ChangeCounts, ChangeListJson } from '../../contract/schemas.ts';
import { CHANGE_TYPES, kindOfChange, type ChangeType } from '../../contract/kinds.ts';
import { isJsonObject, type Json, type JsonObject } from './published.ts';
import { parseText, sameText, type Snapshot } from './snapshot.ts';

type Id = number | string;
type FieldChange = { field: string; from: Json; to: Json };

const same = (object: JsonObject) => object;

/** Objects without the fields that only reflect publishing: a picture change is not a data change. */
const WITHOUT_PICTURES: Partial<Record<ChangeType, (object: JsonObject) => JsonObject>> = {
  cards: ({ images: _, ...card }) => card,
  accessories: ({ icon_image: _, unit_stub, ...accessory }) => {
    if (!isJsonObject(unit_stub)) return { ...accessory, unit_stub };
    const { icon: _icon, ...stub } = unit_stub;
    return { ...accessory, unit_stub: stub };
  },
};

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

/**
 * Added, removed and changed objects of one type; `idOf` turns a snapshot key back into the
 * published id, `shape` drops what is no data change.
 */
function typeChanges<I extends Id>(type: ChangeType, from: Snapshot, to: Snapshot, idOf: (key: string) => I) {
  const { published } = kindOfChange(type);
  const [before, after] = [from.objects[published], to.objects[published]];
  const shape = WITHOUT_PICTURES[type] ?? same;
  const ids = (objects: Map<string, Buffer>, test: (key: string) => boolean) => sortIds([...objects.keys()].filter(test).map(idOf));
  const differs = (key: string) => before.has(key) && !sameText(before.get(key), after.get(key));
  const changed = ids(after, differs).map((id) => {
    const [old, now] = [before, after].map((objects) => shape(parseText(objects.get(String(id))!)));
    return { id, fields: fieldChanges(old, now, '', []).sort((a, b) => (a.field < b.field ? -1 : 1)) };
  }).filter((change) => change.fields.length);
  return { added: ids(after, (key) => !before.has(key)), removed: ids(before, (key) => !after.has(key)), changed };
}

/** The ordinal of a card in a snapshot. */
const ordinalIn = (snapshot: Snapshot) => (id: number) => parseText(snapshot.objects.card_t.get(String(id))!).ordinal as number;

/** What the update from `from` to `to` changed, type by type in CHANGE_TYPES order: cards also by ordinal, sets by their text ids. */
export function diffSnapshots(from: Snapshot, to: Snapshot): ChangeListJson {
  const cards = typeChanges('cards', from, to, Number);
  const of = (type: ChangeType) => (type === 'cards'
    ? {
      added: cards.added,
      removed: cards.removed,
      added_ordinals: sortIds(cards.added.map(ordinalIn(to))),
      removed_ordinals: sortIds(cards.removed.map(ordinalIn(from))),
      changed: cards.changed.map(({ id, fields }) => ({ id, ordinal: ordinalIn(to)(id), fields })),
    }
    : typeChanges<Id>(type, from, to, type === 'sets' ? String : Number));
  return {
    from: from.version,
    to: to.version,
    types: Object.fromEntries(CHANGE_TYPES.map((type) => [type, of(type)])) as ChangeListJson['types'],
  };
}

/** How many objects of each type a change list adds, removes and changes. */
export function countsOf(list: ChangeListJson): ChangeCounts {
  return Object.fromEntries(CHANGE_TYPES.map((type) => {
    const { added, removed, changed } = list.types[type];
    return [type, { added: added.length, removed: removed.length, changed: changed.length }];
  })) as ChangeCounts;
}

export const isEmpty = (counts: Partial<ChangeCounts>): boolean =>
  Object.values(counts).every((c) => c.added + c.removed + c.changed === 0);

/** "24 cards added, 3 skills changed, ..." in type order, or "none". */
export function describeCounts(counts: Partial<ChangeCounts>): string {
  const parts = CHANGE_TYPES.flatMap((type) => {
    const c = counts[type];
    if (!c) return [];
    const { one, many } = kindOfChange(type).change!;
    return (['added', 'removed', 'changed'] as const).filter((kind) => c[kind]).map((kind) => `${c[kind]} ${c[kind] === 1 ? one : many} ${kind}`);
  });
  return parts.length ? parts.join(', ') : 'none';
}
