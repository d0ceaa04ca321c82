/**
 * Every published endpoint, declared once: the URL clients call, the file that holds the
 * response (for static ones), its parameters, its response schema (by its name in
 * schemas.ts RESPONSES) and its errors. Renderers publish through these declarations
 * (render/files.ts `emit`, typed by the schema), the edge handler routes and reads by
 * them, and openapi.json, the API reference page and docs/api.md are
 * generated from them. Schemas are imported as types only: this module, which the edge
 * function loads, needs no package at run time.
 */
import type { Static } from '@sinclair/typebox';
import { BULK_PART_BYTES, KEY_PACK_SIZE, MAX_BULK_PARTS, PACK_SIZE } from './format.ts';
import { MAX_IDS, MAX_VERSION_IDS } from './limits.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, MAX_SEED } from '../web/search/query.js';
import type { RESPONSES } from './schemas.ts';
import { KINDS, OBJECT_TYPE_NAMES, type GenericWithOwn, type ObjectType, type OwnBulkKind, type OwnHistoryType, type PackedKindName, type SearchKind } from './kinds.ts';

/** The name of a response schema (schemas.ts RESPONSES, openapi.json components). */
export type ResponseName = keyof typeof RESPONSES;
/** The JSON a response of that schema holds. */
export type ResponseOf<N extends ResponseName> = Static<(typeof RESPONSES)[N]>;

/** Query parameters every JSON GET route takes (edge). */
export const QUERY_PARAMETERS = {
  stubs: 'yes | true | 1 (any case): embedded linked objects (skill, center_skill, unit_stub, ...) become {"ref": "/api/v1/<type>/<id>"}.',
  datetime: 'unix (default) | iso8601: how timestamps (release_date, start_date, end_date, result_end_date) are written.',
  keys: 'a,b,...: keep only these keys (case-insensitive, spaces trimmed) in the entries of the response\'s lists.',
} as const;
/** Query parameters of the search routes (search/<kind>; random.json takes q). */
export const SEARCH_PARAMETERS = {
  q: 'the query (docs/search.md): terms ANDed, or, ( ), -negation, field:value, field>n, "quoted words"; empty matches everything.',
  order: 'a numeric or date field of the kind (default: ordinal for cards, id otherwise), or random.',
  dir: 'asc (default) | desc.',
  page: `1-based page number, 1 to ${MAX_PAGE} (default 1).`,
  page_size: `results per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`,
  seed: `order=random only: the shuffle's seed (0 to ${MAX_SEED}); next links carry it so pages do not overlap.`,
} as const;
/** The query parameter of the object routes that pins an answer to an earlier data version (docs/versions.md). */
export const VERSION_PARAMETER = {
  version: `a truth_version from versions.json: the answer as that version's site gave it (reconstructed from the history); an object that did not exist then is left out (null on generic routes); an unknown version is a 400; a list then takes at most ${MAX_VERSION_IDS} distinct ids (each id's history is a read; an id named again costs nothing; more is a 400).`,
} as const;
/** The query parameter of the happening routes. */
export const HAPPENING_PARAMETER = {
  extended_time_period_for_events: 'yes | true | 1: an event stays active until its result_end_date.',
} as const;
export type QueryParameter = keyof typeof QUERY_PARAMETERS | keyof typeof SEARCH_PARAMETERS | keyof typeof VERSION_PARAMETER | keyof typeof HAPPENING_PARAMETER;

export interface PathParameter {
  name: string;
  description: string;
  /** Every value it takes, where the declarations know them (host rules that must name each file use them). */
  values?: readonly string[];
}

/** Who answers: a static file, the edge function, or a static file with edge-computed variants (lists, queries). */
export type Host = 'static' | 'edge' | 'static+edge';

export interface Endpoint<N extends ResponseName = ResponseName> {
  method: 'get' | 'post';
  /** As clients call it, parameters in braces. */
  route: string;
  summary: string;
  host: Host;
  parameters: PathParameter[];
  query: QueryParameter[];
  response: N;
  /** Statuses of `{"error"}` answers. */
  errors: number[];
  /** The published file holding the response, relative to the site root (static and static+edge): fileOf(route). */
  file?: FileOf;
  requestBody?: ResponseName;
  /** Not part of the original services' API. */
  extra?: boolean;
  /** What the file holds (default JSON): the other formats are served byte for byte, never parsed or reshaped. */
  format?: FileFormat;
  /**
   * The original services took the query on the file's own path (starlight's `list/<type>?keys=`),
   * so clients send it there: every host runs the edge for its paths (contract/hostRouting.ts),
   * which shapes a query and passes a plain read on to the file. A host's static layer would
   * answer the plain file and drop the query without a word.
   */
  queryOnFile?: boolean;
}

/** Formats of published files beyond JSON responses (the bulk downloads), with their media types. */
export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  jsonl: 'application/jsonl; charset=utf-8',
  sqlite: 'application/vnd.sqlite3',
  part: 'application/octet-stream',
  text: 'text/plain; charset=utf-8',
} as const;
export type FileFormat = keyof typeof CONTENT_TYPES;
export const contentTypeOf = (endpoint: Endpoint) => CONTENT_TYPES[endpoint.format ?? 'json'];

const SHAPING: QueryParameter[] = ['stubs', 'datetime', 'keys'];
/** The object routes also take ?version=. */
const VERSIONED: QueryParameter[] = [...SHAPING, 'version'];
const ID_LIST = `decimal ids separated by commas (at most ${MAX_IDS.toLocaleString('en')}; empty parts ignored; leading zeros allowed)`;

/** A file path from its route's parameters, in the route's order. */
export type FileOf = (...values: (string | number)[]) => string;

/**
 * The file that holds a static route's response ("the URL is the file"): the route with its
 * parameters filled in, without the leading slash, `.json` added where its last segment has no extension.
 */
export function fileOf(route: string): FileOf {
  const template = route.slice(1) + (/\.\w+$/.test(route.split('/').pop()!) ? '' : '.json');
  // The text around the parameters, split once: a build names a path for every file it writes.
  const [head, ...rest] = template.split(/\{\w+\}/);
  return (...values) => {
    let path = head;
    for (let i = 0; i < rest.length; i++) path += String(values[i]) + rest[i];
    return path;
  };
}

type Declaration<N extends ResponseName, H extends Host> = Partial<Omit<Endpoint<N>, 'file'>> & Pick<Endpoint<N>, 'route' | 'summary' | 'response'> & { host: H };

/** An endpoint with defaults filled in; one a file answers (static, static+edge) gets its file from its route. */
function declare<N extends ResponseName, H extends Host>(endpoint: Declaration<N, H>): Endpoint<N> & (H extends 'edge' ? unknown : { file: FileOf }) {
  const file = endpoint.host === 'edge' ? undefined : fileOf(endpoint.route);
  return { method: 'get', parameters: [], query: SHAPING, errors: [], ...endpoint, file } as Endpoint<N> & { file: FileOf };
}

/** Generic object types (starlight's object API), each with its responses `<type>_result`, `<type>_list` and `<type>_pack`: the kinds of kinds.ts that have one. */
export const OBJECT_TYPES = Object.fromEntries(KINDS.filter((k) => k.objectType).map((k) => [k.objectType, k.about])) as Record<ObjectType, string>;
export { OBJECT_TYPE_NAMES, type ObjectType };
export const isObjectType = (name: string): name is ObjectType => Object.hasOwn(OBJECT_TYPES, name);

/** An object's extensionless URL as a root-relative path: it resolves the same from every response. */
export const objectRef = (type: ObjectType, id: number) => `/api/v1/${type}/${id}`;

/**
 * A chart's notes (api/v1/notes/<live_setting_id>.json): a kind of its own beside the generic
 * types, published for each chart that has a note file (only with a live database, as the song
 * types), with a history and a bulk file like them; its name in the pack, history and bulk routes.
 * Like the generic types' objects, a chart's notes live in packs only, and so does their history
 * (PACKED_HISTORY_TYPES): a file per chart, and another for its history, would add two files per
 * chart, about 4,600 at the game's last export, which with the rest of that site passes Cloudflare
 * Free's 20,000 files (docs/songs.md#notes).
 */
export const NOTES = 'notes';

/**
 * The kinds' own bulk kinds or history types (kinds.ts `own`): those of the kinds with files of their
 * own first (cards, accessories, sets, pairs), before the generic types; those of the kinds that live
 * in packs only (notes) after them.
 */
function ownFiles<F extends 'bulk' | 'history'>(of: F, packedOnly: boolean): (F extends 'bulk' ? OwnBulkKind : OwnHistoryType)[] {
  return KINDS.filter((k) => !!k.packedOnly === packedOnly).flatMap((k) => (k.own?.[of] ? [k.own[of]] : [])) as (F extends 'bulk' ? OwnBulkKind : OwnHistoryType)[];
}

/** The kinds of the bulk downloads, in bulk/index.json's order: a JSON Lines file each, then every kind but LINES_ONLY_KINDS in one SQLite file. */
export type BulkKind = OwnBulkKind | ObjectType;
export const BULK_KINDS: readonly BulkKind[] = [...ownFiles('bulk', false), ...OBJECT_TYPE_NAMES, ...ownFiles('bulk', true)];
const BULK_FILE_NAMES = [...BULK_KINDS.map((kind) => `${kind}.jsonl`), 'sif.sqlite'];
/**
 * Kinds sif.sqlite leaves out (kinds.ts `own.linesOnly`): a chart's notes are a list (no column would
 * hold any of it) and, at the game's size, 65 MB, which would more than triple the database every
 * other kind is in.
 */
export const LINES_ONLY_KINDS: readonly BulkKind[] = KINDS.flatMap((k) => (k.own && 'linesOnly' in k.own ? [k.own.bulk] : []));

/** Types with a history (api/v1/history/<type>/<id>.json): cards by ordinal, accessories, every generic object type, and notes by chart. */
export type HistoryType = OwnHistoryType | ObjectType;
export const HISTORY_TYPES: readonly HistoryType[] = [...ownFiles('history', false), ...OBJECT_TYPE_NAMES, ...ownFiles('history', true)];
/** History types whose histories live in packs (api/v1/history/<type>/pack/<block>.json) instead of a file per object. */
export const PACKED_HISTORY_TYPES: readonly HistoryType[] = ownFiles('history', true);

/**
 * Types whose objects are another kind's, published once: card_t's objects are the cards (by unit
 * id; the cards' packs hold them by ordinal) and accessory_t's the accessories (the same ids). Their
 * histories are that kind's, which the edge answers under their own type and id: a copy of each would
 * double what an update to a card rewrites. card_t's packs hold each id's ordinal (CardIdPack);
 * card_t's history packs the few histories that are not their card's (an id whose ordinal changed,
 * a card no longer published), which win over the card's.
 */
export type AliasedHistoryType = GenericWithOwn['objectType'];
type Aliases = { [T in AliasedHistoryType]: Extract<GenericWithOwn, { objectType: T }>['own']['history'] };
export const HISTORY_ALIASES = Object.fromEntries(KINDS.flatMap((k) => (k.objectType && k.own?.history ? [[k.objectType, k.own.history]] : []))) as Aliases;
export const isAliasedHistory = (type: string): type is AliasedHistoryType => Object.hasOwn(HISTORY_ALIASES, type);
/** History types with a file per object (api/v1/history/<type>/<id>.json). */
export const FILE_HISTORY_TYPES: readonly HistoryType[] = HISTORY_TYPES.filter((type) => !PACKED_HISTORY_TYPES.includes(type) && !isAliasedHistory(type));
/** History types with packs (api/v1/history/<type>/pack/<block>.json): the packed ones, and card_t's histories that are not their card's. */
export const HISTORY_PACK_TYPES: readonly HistoryType[] = [...PACKED_HISTORY_TYPES, 'card_t'];

/** The history route of an aliased type: answered by the edge from its kind's history files. */
function aliasHistoryEndpoint(type: AliasedHistoryType) {
  const of = HISTORY_ALIASES[type];
  return declare({
    route: `/api/v1/history/${type}/{id}.json`,
    summary: `One ${type} object's history, as history/{type}/{id}.json gives it (answered by the edge from ${of === 'card' ? 'its card\'s history, history/card/{ordinal}.json' : 'history/accessory/{id}.json'}, the same objects' history)`,
    host: 'edge',
    parameters: [{ name: 'id', description: 'the id' }],
    query: [],
    response: 'History',
    errors: [404],
    extra: true,
  });
}

/** The pack files of one kind (format.ts PACK_SIZE; card_t's KEY_PACK_SIZE): the data behind its comma lists. */
function packEndpoint<N extends ResponseName>(kind: string, response: N, key: 'id' | 'ordinal' | 'live_setting_id') {
  const held = kind === 'card_t' ? 'The ordinal of each card (its object is in pack/card/), for the cards' : `The ${kind} objects`;
  const size = kind === 'card_t' ? KEY_PACK_SIZE : PACK_SIZE;
  return declare({
    route: `/api/v1/pack/${kind}/{block}.json`,
    summary: `${held} whose ${key} divided by ${size} is {block}, keyed by ${key} (the data behind comma lists)`,
    host: 'static',
    parameters: [{ name: 'block', description: `floor(${key} / ${size})` }],
    query: [],
    response,
    extra: true,
  });
}

function objectEndpoints<T extends ObjectType>(type: T) {
  const about = OBJECT_TYPES[type];
  return {
    object: declare({
      route: `/api/v1/${type}/{ids}`,
      summary: `${type}: ${about}; one result entry per id, null when it does not exist (answered by the edge from the type's packs)`,
      host: 'edge',
      parameters: [{ name: 'ids', description: ID_LIST }],
      query: VERSIONED,
      response: `${type}_result` as const,
      errors: [400],
    }),
    pack: packEndpoint(type, `${type}_pack` as const, 'id'),
    list: declare({
      route: `/api/v1/list/${type}`,
      summary: `Brief descriptions of every ${type} object, in id order`,
      host: 'static+edge',
      queryOnFile: true,
      response: `${type}_list` as const,
    }),
  };
}

export const objectEndpoint = Object.fromEntries(OBJECT_TYPE_NAMES.map((type) => [type, objectEndpoints(type)])) as {
  [T in ObjectType]: ReturnType<typeof objectEndpoints<T>>;
};

const SEARCH_QUERY: QueryParameter[] = [...SHAPING, ...(Object.keys(SEARCH_PARAMETERS) as QueryParameter[])];

/** The search route of one kind (answered by the edge from the kind's index and objects files). */
function searchEndpoint<N extends ResponseName>(kind: SearchKind, response: N) {
  return declare({
    route: `/api/v1/search/${kind}`,
    summary: `The ${kind} objects a query matches, ordered and paged (docs/search.md)`,
    host: 'edge',
    query: SEARCH_QUERY,
    response,
    errors: [400],
    extra: true,
  });
}

export const endpoints = {
  info: declare({
    route: '/api/v1/info',
    summary: 'Instance information: API version and the version of the game data',
    host: 'static',
    response: 'Info',
  }),
  card: declare({
    route: '/api/v1/card/{ordinals}.json',
    summary: 'Cards by album ordinal; a comma list answers several in request order, unknown ordinals left out',
    host: 'static+edge',
    parameters: [{ name: 'ordinals', description: `an ordinal, or ${ID_LIST}` }],
    response: 'CardsResponse',
    query: VERSIONED,
    errors: [400, 404],
  }),
  cardPack: packEndpoint('card', 'CardPack', 'ordinal'),
  randomCard: declare({
    route: '/api/v1/card/random.json',
    summary: 'One random card; with ?q=, one random card among those the query matches',
    host: 'edge',
    query: [...SHAPING, 'q'],
    response: 'CardsResponse',
    errors: [400, 404],
  }),
  cardList: declare({
    route: '/api/v1/card_list.json',
    summary: 'Counts and a short description (stub) of every card, in ordinal order',
    host: 'static',
    response: 'CardList',
  }),
  setList: declare({
    route: '/api/v1/card/set_list.json',
    summary: 'Every set (release) with preview icons',
    host: 'static',
    response: 'SetList',
  }),
  set: declare({
    route: '/api/v1/set/{name}.json',
    summary: 'The cards of a set, in ordinal order',
    host: 'static',
    parameters: [{ name: 'name', description: 'a set id from the set list' }],
    response: 'CardsResponse',
    errors: [404],
  }),
  pair: declare({
    route: '/api/v1/pair/{pair_id}.json',
    summary: 'The two cards whose art forms one picture, in position order',
    host: 'static',
    parameters: [{ name: 'pair_id', description: 'a pair id from pair_list.json' }],
    response: 'CardsResponse',
    errors: [404],
  }),
  pairList: declare({
    route: '/api/v1/pair_list.json',
    summary: 'The valid pair ids with their cards',
    host: 'static',
    response: 'PairList',
    extra: true,
  }),
  accessory: declare({
    route: '/api/v1/accessory/{ids}.json',
    summary: 'Accessories by id; a comma list answers several in request order, unknown ids left out',
    host: 'static+edge',
    parameters: [{ name: 'ids', description: `an accessory id, or ${ID_LIST}` }],
    response: 'AccessoriesResponse',
    query: VERSIONED,
    errors: [400, 404],
  }),
  accessoryList: declare({
    route: '/api/v1/accessory_list.json',
    summary: 'Every accessory id with whether it can be used in a live',
    host: 'static',
    response: 'AccessoryList',
  }),
  notes: declare({
    route: '/api/v1/notes/{live_setting_id}.json',
    summary: 'A chart\'s notes (its beatmap): every note of the note file its live_setting_m row names, in the file\'s order, for each chart whose live_t notes_url is not null (answered by the edge from the notes packs; docs/songs.md#notes)',
    host: 'edge',
    parameters: [{ name: 'live_setting_id', description: 'one chart\'s id (live_t; leading zeros allowed)' }],
    query: ['keys', 'version'],
    response: 'Notes',
    errors: [400, 404],
    extra: true,
  }),
  notesPack: packEndpoint(NOTES, 'notes_pack', 'live_setting_id'),
  happening: declare({
    route: '/api/v1/happening/{time}',
    summary: 'Events and gachas active at a time, newest first',
    host: 'edge',
    parameters: [{ name: 'time', description: '"now" or unix seconds' }],
    query: [...SHAPING, 'extended_time_period_for_events'],
    response: 'Happening',
    errors: [400],
  }),
  timeline: declare({
    route: '/api/v1/happening.json',
    summary: 'Every event and gacha, newest first (the data behind happening)',
    host: 'static',
    response: 'Happening',
    extra: true,
  }),
  readTl: declare({
    method: 'post',
    route: '/api/v1/read_tl',
    summary: 'Crowd translations of the given strings (those that have one)',
    host: 'edge',
    query: [],
    requestBody: 'ReadTlBody',
    response: 'Translations',
    errors: [400, 405, 413],
  }),
  translationIndex: declare({
    route: '/api/v1/tl/index.json',
    summary: 'How many shard files hold the crowd translations (the data behind read_tl)',
    host: 'static',
    response: 'TranslationIndex',
    extra: true,
  }),
  openapi: declare({
    route: '/api/v1/openapi.json',
    summary: 'This contract as an OpenAPI 3.1 document',
    host: 'static',
    query: [],
    response: 'OpenApi',
    extra: true,
  }),
  translationShard: declare({
    route: '/api/v1/tl/{shard}.json',
    summary: 'One shard of the crowd translations: the originals whose FNV-1a-32 hash modulo the shard count is {shard}',
    host: 'static',
    parameters: [{ name: 'shard', description: 'a shard number below tl/index.json\'s count' }],
    response: 'Translations',
    extra: true,
  }),
  searchCard: searchEndpoint('card', 'CardSearch'),
  searchAccessory: searchEndpoint('accessory', 'AccessorySearch'),
  searchEvent: searchEndpoint('event', 'EventSearch'),
  searchSong: searchEndpoint('song', 'SongSearch'),
  searchIndex: declare({
    route: '/api/v1/search_index/{kind}.json',
    summary: 'The search index of a kind: one column per searchable value, a row per object (the data behind search and the browse page)',
    host: 'static',
    parameters: [{ name: 'kind', description: 'card, accessory, event or song' }],
    query: [],
    response: 'SearchIndex',
    extra: true,
  }),
  versions: declare({
    route: '/api/v1/versions.json',
    summary: 'Every data version the site has published, oldest first, with how many objects each added, changed and removed',
    host: 'static',
    query: [],
    response: 'Versions',
    extra: true,
  }),
  history: declare({
    route: '/api/v1/history/{type}/{id}.json',
    summary: 'One object\'s history: per data version, what changed, as JSON Patch (RFC 6902) from the previous version\'s object',
    host: 'static',
    parameters: [
      {
        name: 'type',
        description: `card (by ordinal), accessory, or a generic object type: ${FILE_HISTORY_TYPES.join(', ')} (${PACKED_HISTORY_TYPES.join(', ')}: in history/{type}/pack/{block}.json; ${Object.keys(HISTORY_ALIASES).join(', ')}: the edge answers them from their kind's)`,
        values: FILE_HISTORY_TYPES,
      },
      { name: 'id', description: 'the ordinal (card) or id' },
    ],
    query: [],
    response: 'History',
    errors: [404],
    extra: true,
  }),
  cardIdHistory: aliasHistoryEndpoint('card_t'),
  accessoryIdHistory: aliasHistoryEndpoint('accessory_t'),
  historyPack: declare({
    route: '/api/v1/history/{type}/pack/{block}.json',
    summary: `The histories of the objects of a type whose histories are kept in packs (${PACKED_HISTORY_TYPES.join(', ')}; and card_t's that are not their card's): each as history/{type}/{id}.json would hold it, keyed by id, for the ids whose floor(id / ${PACK_SIZE}) is {block}`,
    host: 'static',
    parameters: [
      { name: 'type', description: HISTORY_PACK_TYPES.join(', '), values: HISTORY_PACK_TYPES },
      { name: 'block', description: `floor(id / ${PACK_SIZE})` },
    ],
    query: [],
    response: 'history_pack',
    extra: true,
  }),
  latestChanges: declare({
    route: '/api/v1/changes.json',
    summary: 'What the latest game update changed (absent until a build has seen an update)',
    host: 'static',
    query: [],
    response: 'ChangeList',
    extra: true,
  }),
  changeIndex: declare({
    route: '/api/v1/changes/index.json',
    summary: 'Every published change list with its counts, newest first',
    host: 'static',
    query: [],
    response: 'ChangeIndex',
    extra: true,
  }),
  changes: declare({
    route: '/api/v1/changes/{truth_version}.json',
    summary: 'What the update to a truth version changed',
    host: 'static',
    parameters: [{ name: 'truth_version', description: 'a truth version from changes/index.json' }],
    query: [],
    response: 'ChangeList',
    errors: [404],
    extra: true,
  }),
  bulkIndex: declare({
    route: '/api/v1/bulk/index.json',
    summary: 'Every bulk download (all objects of a kind in one file, and all kinds in one SQLite database) with its size, SHA-256 and the truth version it last changed in',
    host: 'static',
    query: [],
    response: 'BulkIndex',
    extra: true,
  }),
  bulkLines: declare({
    route: '/api/v1/bulk/{kind}.jsonl',
    summary: 'Every object of a kind as JSON Lines, each line as its single-object route publishes it (cards by ordinal, sets and pairs in their lists\' order, the others by id); the edge joins the file\'s parts (bulk/index.json lists them)',
    host: 'edge',
    parameters: [{ name: 'kind', description: 'cards, accessories, sets, pairs, notes, or a generic object type (card_t, char_t, ...): bulk/index.json lists them' }],
    query: [],
    response: 'BulkLines',
    format: 'jsonl',
    errors: [404],
    extra: true,
  }),
  bulkSqlite: declare({
    route: '/api/v1/bulk/sif.sqlite',
    summary: 'Every kind but notes as a table (or a view) of a SQLite database: a column per scalar field, the object as published in `json`, and a `meta` table; the edge joins the file\'s parts (bulk/index.json lists them)',
    host: 'edge',
    query: [],
    response: 'SqliteFile',
    format: 'sqlite',
    errors: [404],
    extra: true,
  }),
  bulkPart: declare({
    route: '/api/v1/bulk/parts/{file}/{part}.part',
    summary: `One part of a bulk file, in the order bulk/index.json lists them: parts of about ${BULK_PART_BYTES / 1024} KiB, twice or more that in a file that would otherwise make more than ${MAX_BULK_PARTS} (the SQLite file's whole pages, JSON Lines files' whole lines); joined, they are the file`,
    host: 'static',
    parameters: [{ name: 'file', description: 'the name of the first bulk file holding the part (cards.jsonl, sif.sqlite, ...): card_t.jsonl lists cards.jsonl\'s parts where its lines are the same' }, { name: 'part', description: 'the first 16 hex digits of the part\'s SHA-256 (bulk/index.json lists the parts in order)' }],
    query: [],
    response: 'BulkPart',
    format: 'part',
    extra: true,
  }),
  bulkChecksum: declare({
    route: '/api/v1/bulk/{file}.sha256',
    summary: 'The SHA-256 of a bulk file in sha256sum format (`sha256sum -c` beside the file)',
    host: 'static',
    parameters: [{ name: 'file', description: 'a bulk file\'s name (cards.jsonl, sif.sqlite, ...)', values: BULK_FILE_NAMES }],
    query: [],
    response: 'Checksum',
    format: 'text',
    extra: true,
  }),
  fileManifest: declare({
    route: '/api/v1/manifest.json',
    summary: 'Every file the site serves with its SHA-256 and size (what `npm run mirror` compares its copy with)',
    host: 'static',
    query: [],
    response: 'FileManifest',
    extra: true,
  }),
  manifestBlocks: declare({
    route: '/api/v1/manifest.blocks.json',
    summary: 'The SHA-256, size and block sums of manifest.json (`npm run mirror` reads it first and fetches only the blocks of the manifest that changed)',
    host: 'static',
    query: [],
    response: 'ManifestBlocks',
    extra: true,
  }),
};

/** The packs of a kind that lives in packs only (kinds.ts `packedOnly`): its `<name>Pack` endpoint. */
export const packedPack = (kind: PackedKindName) => endpoints[`${kind}Pack`];

/** Every endpoint in documentation order: the named ones, then each generic object type's routes. */
export function allEndpoints(): Endpoint[] {
  const objects = OBJECT_TYPE_NAMES.flatMap((type) => Object.values(objectEndpoint[type]));
  return [...Object.values(endpoints), ...objects] as Endpoint[];
}

/** The body of a JSON 404, served for unknown /api/ paths by the host's catch-all rule (not an endpoint). */
export const NOT_FOUND_FILE = 'api/404.json';

/** An endpoint's short name, its route without /api/v1/, parameters or extension: "card", "card/set_list", "list/card_t". */
export const endpointName = (endpoint: Endpoint) =>
  endpoint.route.replace(/^\/api\/v1\//, '').replace(/\/?\{\w+\}/g, '').replace(/\.json$/, '');

/** A regex for the files an endpoint publishes: each parameter of its route is one path segment part. */
function filePattern(file: FileOf): RegExp {
  const template = file('\0', '\0', '\0');
  return new RegExp(`^${template.split('\0').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`);
}

let patterns: { endpoint: Endpoint; pattern: RegExp; literal: boolean }[] | undefined;

/** The endpoint that publishes the file `rel` (a literal path wins over a template), undefined for other files. */
export function endpointOfFile(rel: string): Endpoint | undefined {
  patterns ??= allEndpoints().flatMap((endpoint) => (endpoint.file ? [{ endpoint, pattern: filePattern(endpoint.file), literal: !endpoint.route.includes('{') }] : []));
  const matching = patterns.filter((p) => p.pattern.test(rel));
  return (matching.find((p) => p.literal) ?? matching[0])?.endpoint;
}
