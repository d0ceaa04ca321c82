/** The change list between two snapshots: a pure function of them (same snapshots, same bytes). */
import { isDeepStrictEqual } from 'node:util';
import { CHANGE_TYPES, type ChangeCounts, type ChangeListJson, type ChangeType } from '../../contract/schemas.ts';
import { isJsonObject, type Json, type JsonObject, type PublishedKind } from './published.ts';
import { parseText, sameText, type Snapshot } from './snapshot.ts';

type Id = number | string;
type FieldChange = { field: string; from: Json; to: Json };

/** The published kind each changelog type compares. */
const KIND_OF: Record<ChangeType, PublishedKind> = {
  cards: 'card_t', skills: 'skill_t', center_skills: 'leader_skill_t', accessories: 'accessory_t',
  characters: 'char_t', events: 'event_t', sets: 'set', pairs: 'pair', songs: 'song_t', charts: 'live_t',
};

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
  const [before, after] = [from.objects[KIND_OF[type]], to.objects[KIND_OF[type]]];
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

/** What the update from `from` to `to` changed, type by type in CHANGE_TYPES order. */
export function diffSnapshots(from: Snapshot, to: Snapshot): ChangeListJson {
  const of = (type: ChangeType) => typeChanges(type, from, to, Number);
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
      sets: typeChanges('sets', from, to, String),
      pairs: of('pairs'),
      songs: of('songs'),
      charts: of('charts'),
    },
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

const NAMES: Record<ChangeType, [one: string, many: string]> = {
  cards: ['card', 'cards'], skills: ['skill', 'skills'], center_skills: ['center skill', 'center skills'],
  accessories: ['accessory', 'accessories'], characters: ['character', 'characters'], events: ['event', 'events'],
  sets: ['set', 'sets'], pairs: ['pair', 'pairs'], songs: ['song', 'songs'], charts: ['chart', 'charts'],
};

/** "24 cards added, 3 skills changed, ..." in type order, or "none". */
export function describeCounts(counts: Partial<ChangeCounts>): string {
  const parts = CHANGE_TYPES.flatMap((type) => {
    const c = counts[type];
    if (!c) return [];
    return (['added', 'removed', 'changed'] as const).filter((kind) => c[kind]).map((kind) => `${c[kind]} ${NAMES[type][c[kind] === 1 ? 0 : 1]} ${kind}`);
  });
  return parts.length ? parts.join(', ') : 'none';
}
