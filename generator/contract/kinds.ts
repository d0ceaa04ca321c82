/**
 * Every published kind of data, one row each: what the build and the edge used to keep in lists
 * of their own (the changelog's types and its words, the search kinds, the page's headings and
 * links, the bulk files, the histories, the databases read, which kinds an export may lack).
 * Those lists are derived here or looked up in the table; a new kind is a row here and its own
 * code (docs/architecture.md#adding-a-kind).
 *
 * Rows are in the order the generic object types have always been published in (openapi.json,
 * bulk/index.json, the page's config): a new row goes at the end. Change lists order their types
 * by `change.place` (their published key order, older than this table).
 *
 * This module imports nothing: the contract's other modules, the build and the edge import it.
 */

/** One published kind. */
export interface KindRow {
  /** The row's name in this table. */
  name: string;
  /** Its generic object type (starlight's object API: <type>/{ids}, list/<type>, pack/<type>/), if it has one. */
  objectType: string | null;
  /** The generic type's description (OBJECT_TYPES, openapi.json, docs/api.md). */
  about: string | null;
  /**
   * Its type in change lists (changes.json, change_index.json), with the type's place in them, and
   * its words in the build's summary ("3 center skills changed"); null when updates are not listed.
   */
  change: { type: string; place: number; one: string; many: string } | null;
  /** The search kind (api/v1/search/<kind>) whose results are this kind's objects, if any. */
  search: string | null;
  /** The browse page's heading of its changes and where an id leads: a view of the page (`#song/{}`), or null for the object's route. */
  page: { label: string; view: string | null } | null;
  /** The input database its objects come from (input/discover.ts finds it by this client name). */
  database: string;
  /** The table and id column its objects are rows of (the build's warnings name them), if one. */
  table: readonly [table: string, key: string] | null;
  /**
   * Its files of its own beside the generic type's: its bulk kind (bulk/<kind>.jsonl) and history
   * type (history/<type>/), if any; `linesOnly` when its bulk file is JSON Lines only, no table of
   * sif.sqlite (a chart's notes are a list: no column would hold any of it).
   */
  own: { bulk: string; history: string | null; linesOnly?: true } | null;
  /**
   * Its objects and their histories live in packs only (a file per object would pass a host's file
   * limit), declared as `<name>Pack` in endpoints.ts. `key`: the member holding each object's id.
   * `namedBy`: the objects of a generic type whose `member` is set (a URL) each name the one
   * object of this kind with their own id; an older site's snapshot reads those (changes/snapshot.ts).
   */
  packedOnly?: { key: string; namedBy: { type: string; member: string } };
}

/**
 * The input databases: `live` is optional, its kinds published only when the export has it (an
 * older site may lack them too); without event_common the events are published, none of them;
 * without unit nothing is built.
 */
const OPTIONAL_DATABASES: readonly string[] = ['live'];

const ROWS = [
  {
    name: 'card', objectType: 'card_t', about: 'a card by internal id (unit_id)',
    change: { type: 'cards', place: 0, one: 'card', many: 'cards' }, search: 'card', page: { label: 'Cards', view: '#card/{}' },
    database: 'unit', table: ['unit_m', 'unit_id'], own: { bulk: 'cards', history: 'card' },
  },
  {
    name: 'character', objectType: 'char_t', about: 'a character (unit_type_id)',
    change: { type: 'characters', place: 4, one: 'character', many: 'characters' }, search: null, page: { label: 'Characters', view: null },
    database: 'unit', table: ['unit_type_m', 'unit_type_id'], own: null,
  },
  {
    name: 'skill', objectType: 'skill_t', about: 'a card skill (unit_skill_id)',
    change: { type: 'skills', place: 1, one: 'skill', many: 'skills' }, search: null, page: { label: 'Skills', view: null },
    database: 'unit', table: ['unit_skill_m', 'unit_skill_id'], own: null,
  },
  {
    name: 'center_skill', objectType: 'leader_skill_t', about: 'a center skill (unit_leader_skill_id)',
    change: { type: 'center_skills', place: 2, one: 'center skill', many: 'center skills' }, search: null, page: { label: 'Center skills', view: null },
    database: 'unit', table: ['unit_leader_skill_m', 'unit_leader_skill_id'], own: null,
  },
  {
    name: 'accessory', objectType: 'accessory_t', about: 'an accessory (accessory_id)',
    change: { type: 'accessories', place: 3, one: 'accessory', many: 'accessories' }, search: 'accessory', page: { label: 'Accessories', view: '#accessory/{}' },
    database: 'unit', table: ['accessory_m', 'accessory_id'], own: { bulk: 'accessories', history: 'accessory' },
  },
  {
    name: 'event', objectType: 'event_t', about: 'an event (event_id)',
    change: { type: 'events', place: 5, one: 'event', many: 'events' }, search: 'event', page: { label: 'Events', view: '#event/{}' },
    database: 'event_common', table: ['event_m', 'event_id'], own: null,
  },
  {
    name: 'removable_skill', objectType: 'removable_skill_t', about: 'a School Idol Skill (unit_removable_skill_id)',
    change: null, search: null, page: null,
    database: 'unit', table: ['unit_removable_skill_m', 'unit_removable_skill_id'], own: null,
  },
  {
    name: 'song', objectType: 'song_t', about: 'a song (live_track_id of the live database)',
    change: { type: 'songs', place: 8, one: 'song', many: 'songs' }, search: null, page: { label: 'Songs', view: '#song/{}' },
    database: 'live', table: ['live_track_m', 'live_track_id'], own: null,
  },
  {
    // A song search answers charts: a row per chart.
    name: 'chart', objectType: 'live_t', about: 'a chart of a song (live_setting_id of the live database)',
    change: { type: 'charts', place: 9, one: 'chart', many: 'charts' }, search: 'song', page: { label: 'Charts', view: null },
    database: 'live', table: ['live_setting_m', 'live_setting_id'], own: null,
  },
  {
    // A set's cards are the cards' own (sets.json and the cards' names): no table of the database lists them.
    name: 'set', objectType: null, about: null,
    change: { type: 'sets', place: 6, one: 'set', many: 'sets' }, search: null, page: { label: 'Sets', view: '#set/{}' },
    database: 'unit', table: null, own: { bulk: 'sets', history: null },
  },
  {
    name: 'pair', objectType: null, about: null,
    change: { type: 'pairs', place: 7, one: 'pair', many: 'pairs' }, search: null, page: { label: 'Pairs', view: '#pair/{}' },
    database: 'unit', table: ['unit_pair_m', 'pair'], own: { bulk: 'pairs', history: null },
  },
  {
    // A chart's notes, from the note file its live_setting_m row names (notes/<live_setting_id>.json).
    name: 'notes', objectType: null, about: null,
    change: null, search: null, page: null,
    database: 'live', table: null, own: { bulk: 'notes', history: 'notes', linesOnly: true },
    packedOnly: { key: 'live_setting_id', namedBy: { type: 'live_t', member: 'notes_url' } },
  },
] as const satisfies readonly KindRow[];

type Row = (typeof ROWS)[number];
/** A row with what follows from it: whether the kind is optional, and its key among the published objects. */
export type Kind = Row & Pick<KindRow, 'packedOnly'> & {
  /** Published only when the export has its database (an older site may lack it too). */
  optional: boolean;
  /** Its key among a build's published objects and snapshots (changes/published.ts): its generic type, else its name. */
  published: NonNullable<Row['objectType']> | Exclude<Row, { objectType: string }>['name'];
};

/** Every published kind, in the table's order. */
export const KINDS: readonly Kind[] = ROWS.map((row) => ({
  ...row, optional: OPTIONAL_DATABASES.includes(row.database), published: row.objectType ?? row.name,
} as Kind));

export type KindName = Row['name'];
export type ObjectType = NonNullable<Row['objectType']>;
export type ChangeType = NonNullable<Row['change']>['type'];
export type SearchKind = NonNullable<Row['search']>;
export type DatabaseName = Row['database'];
export type PublishedKind = Kind['published'];
/** The bulk kinds and history types of the kinds' own files (beside their generic types'). */
export type OwnBulkKind = NonNullable<Row['own']>['bulk'];
export type OwnHistoryType = NonNullable<NonNullable<Row['own']>['history']>;
/** The kinds with a generic type and files of their own (cards, accessories): the generic type's objects are theirs, published once. */
export type GenericWithOwn = Extract<Row, { objectType: string; own: { history: string } }>;

const only = <T>(values: (T | null)[]): T[] => values.filter((value): value is T => value !== null);

/** The row of a kind by name. */
export const kind = (name: KindName): Kind => KINDS.find((k) => k.name === name)!;
/** The row of a generic object type. */
export const kindOfType = (type: ObjectType): Kind => KINDS.find((k) => k.objectType === type)!;
/** The row of a change list type. */
export const kindOfChange = (type: ChangeType): Kind => KINDS.find((k) => k.change?.type === type)!;
/** The row whose objects a search kind's results are. */
export const kindOfSearch = (search: SearchKind): Kind => KINDS.find((k) => k.search === search)!;

/** The kinds whose objects live in packs only, and their names. */
type PackedRow = Extract<Row, { packedOnly: object }>;
export type PackedKind = Kind & PackedRow;
export type PackedKindName = PackedRow['name'];
export const PACKED_KINDS = KINDS.filter((k) => k.packedOnly) as PackedKind[];

/** The generic object types, in the order they are published in. */
export const OBJECT_TYPE_NAMES = only(KINDS.map((k) => k.objectType as ObjectType | null));
/** The change lists' types, in their published order. */
export const CHANGE_TYPES = KINDS.filter((k) => k.change).sort((a, b) => a.change!.place - b.change!.place).map((k) => k.change!.type as ChangeType);
/**
 * The change types of the first change lists ever published, cards to pairs: a list from before a
 * later type (songs, charts, any new one) lacks it, which reads as nothing changed in it.
 */
const FIRST_CHANGE_TYPES = 8;
export const LATER_CHANGE_TYPES = CHANGE_TYPES.slice(FIRST_CHANGE_TYPES);
/** The input databases the build reads, by their client names. */
export const DATABASES = [...new Set(KINDS.map((k) => k.database))] as DatabaseName[];

/**
 * The kinds a site publishes, given the generic types it publishes: an optional kind is published
 * with its database, and the database is there when a generic type from it is published.
 */
export function kindsPublishedWith(objectTypes: readonly ObjectType[]): Kind[] {
  const present = new Set(KINDS.filter((k) => k.objectType && objectTypes.includes(k.objectType)).map((k) => k.database));
  return KINDS.filter((k) => !k.optional || present.has(k.database));
}

/** The generic types a site publishes, given whether its export has each optional database. */
export const objectTypesWith = (has: (database: DatabaseName) => boolean): ObjectType[] =>
  only(KINDS.filter((k) => !k.optional || has(k.database)).map((k) => k.objectType as ObjectType | null));
