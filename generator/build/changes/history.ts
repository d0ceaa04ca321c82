/**
 * The history stage (after the changelog): api/v1/versions.json and one
 * api/v1/history/<type>/<id>.json per object that any published version had (for the types of
 * PACKED_HISTORY_TYPES, charts' notes, in packs: history/<type>/pack/<block>.json), each entry a
 * JSON Patch (RFC 6902) from the previous version's object. Only
 * the histories of objects that differ from the previous site are rebuilt; every other
 * history file is carried from the previous site (the published folder, or --since) byte
 * for byte, so a build costs the same however many versions the site keeps. A rebuild of
 * the same truth version replaces that version's entries. A previous site without a
 * history (an older builder) starts it with its own version.
 */
import path from 'node:path';
import {
  endpoints, FILE_HISTORY_TYPES, HISTORY_ALIASES, HISTORY_PACK_TYPES, HISTORY_TYPES, isAliasedHistory, OBJECT_TYPE_NAMES, type AliasedHistoryType, type HistoryType,
} from '../../contract/endpoints.ts';
import { Type, type TSchema } from '@sinclair/typebox';
import { History as HistorySchema, Pack, Versions as VersionsSchema, type HistoryJson, type VersionsJson } from '../../contract/schemas.ts';
import { packOf } from '../../contract/format.ts';
import { misfit } from '../render/check.ts';
import { applyPatch } from '../../contract/patch.ts';
import { emit, encodedJson, jsonBytes } from '../render/files.ts';
import type { MovableFiles } from '../siteFiles.ts';
import { emitPacks } from '../render/packs.ts';
import { isJsonObject, noObjects, type Json, type JsonObject } from './published.ts';
import { parseText, sameText, type Snapshot } from './snapshot.ts';
import { UserError } from '../errors.ts';
import type { PreviousSite } from '../input/previousSite.ts';
import { carriedVersionFault } from '../input/curated.ts';

type Entry = HistoryJson['versions'][number];
type Version = VersionsJson['versions'][number];
type Change = Entry['change'];

/** Nothing: what a first version is compared with. */
const EMPTY: Snapshot = { version: { truth_version: '', date: null }, objects: noObjects() as unknown as Snapshot['objects'] };

/** A card's ordinal from its JSON text: the renderer writes id then ordinal first; anything else is parsed. */
function ordinalOf(text: Buffer): string {
  const head = /^\{"id":\d+,"ordinal":(\d+)[,}]/.exec(text.toString('latin1', 0, 64));
  return head ? head[1] : String(parseText(text).ordinal);
}

const cardsByOrdinal = new WeakMap<Snapshot, Map<string, Buffer>>();

/** The objects of a history type in a snapshot by id (cards by ordinal). */
function textsOf(snapshot: Snapshot, type: HistoryType): Map<string, Buffer> {
  if (type === 'accessory') return snapshot.objects.accessory_t;
  if (type !== 'card') return snapshot.objects[type];
  let byOrdinal = cardsByOrdinal.get(snapshot);
  if (!byOrdinal) {
    byOrdinal = new Map([...snapshot.objects.card_t.values()].map((text) => [ordinalOf(text), text]));
    cardsByOrdinal.set(snapshot, byOrdinal);
  }
  return byOrdinal;
}

type Operation = NonNullable<Entry['patch']>[number];

const pointer = (path: string, key: string | number) => `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * Whether patching `before` member by member gives `after`'s member order (kept members stay
 * where they are, added ones come last), so a rebuilt object serializes to the same bytes.
 */
function keepsOrder(before: JsonObject, after: JsonObject): boolean {
  const patched = [...Object.keys(before).filter((key) => Object.hasOwn(after, key)), ...Object.keys(after).filter((key) => !Object.hasOwn(before, key))];
  return JSON.stringify(patched) === JSON.stringify(Object.keys(after));
}

/**
 * The operations that turn `before` into `after` at `path`: objects member by member (removed,
 * changed, added, each in the order of its object) unless that would leave the members in
 * another order, arrays of the same length element by element, anything else replaced whole.
 * The same values always give the same patch; the tests apply it with the fast-json-patch
 * library too.
 */
function diff(before: Json, after: Json, path: string, patch: Operation[]): Operation[] {
  if (isJsonObject(before) && isJsonObject(after) && keepsOrder(before, after)) {
    for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) patch.push({ op: 'remove', path: pointer(path, key) });
    for (const [key, value] of Object.entries(after)) {
      // An equal scalar needs no patch and no pointer: most of an object changed by an update (a card's stat arrays).
      if (!Object.hasOwn(before, key)) patch.push({ op: 'add', path: pointer(path, key), value });
      else if (before[key] !== value) diff(before[key], value, pointer(path, key), patch);
    }
  } else if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    for (let i = 0; i < after.length; i++) if (before[i] !== after[i]) diff(before[i], after[i], pointer(path, i), patch);
  } else if (JSON.stringify(before) !== JSON.stringify(after)) {
    patch.push({ op: 'replace', path, value: after });
  }
  return patch;
}

/** The JSON Patch that turns `before` into `after` (empty when they are equal). */
export const patchBetween = (before: Json, after: Json): Operation[] => diff(before, after, '', []);

/**
 * The entry that turns `before` into `after`, given as its text (null: neither exists, or they
 * are equal). An added object is carried as its text, unparsed: a first build adds every object.
 */
export function entryFor(version: Snapshot['version'], before: JsonObject | null, after: Buffer | null): Entry | null {
  const at = { truth_version: version.truth_version, date: version.date };
  if (after === null) return before === null ? null : { ...at, change: 'removed', patch: null };
  if (before === null) return { ...at, change: 'added', patch: [{ op: 'add', path: '', value: encodedJson(after) as JsonObject }] };
  const patch = patchBetween(before, parseText(after));
  return patch.length ? { ...at, change: 'changed', patch } : null;
}

/** The object after every entry of `entries` (null when it does not exist then). */
function replay(entries: Entry[]): JsonObject | null {
  let object: unknown = null;
  for (const entry of entries) object = entry.patch === null ? null : applyPatch(object, entry.patch);
  return isJsonObject(object) ? object : null;
}

type Counts = Pick<Version, Change>;

/** Whether a type's histories live in packs (history/<type>/pack/<block>.json) rather than a file per object (card_t: those that are not their card's). */
const isPacked = (type: string) => (HISTORY_PACK_TYPES as readonly string[]).includes(type);

/** `history` as the history of object `id` of `type` (its entries copied: they are added to). */
const retyped = (history: HistoryJson, type: HistoryType, id: string): HistoryJson => ({ type, id: Number(id), versions: [...history.versions] });
/** Compared as their published bytes: an added object's text is spliced in as it is, not parsed and serialized again (29 s of a 200,000-card build). */
const sameHistory = (a: HistoryJson, b: HistoryJson) => jsonBytes(a.versions).equals(jsonBytes(b.versions));
/** The history packs of a packed type, as emitPacks publishes them. */
const historyPacks = (type: HistoryType) => ({ response: 'history_pack' as const, file: (block: number) => endpoints.historyPack.file(type, block) });

/** The history of a site being built: the previous site's, with the files this build rewrites. */
class History {
  /** Histories rewritten by this build, by file (an empty one is dropped); a packed type's by the file it would have. */
  readonly rewritten = new Map<string, HistoryJson>();
  /** The previous site's history packs read so far, by file: each member's history by id. */
  private readonly packs = new Map<string, ReadonlyMap<string, HistoryJson>>();

  /**
   * `checkCarried`: the previous site was read back, not taken from this builder's records: another
   * builder may have written it (--since, a mirror's copy), so each history carried on or continued
   * is checked first (readHistory, readHistoryPack). A site this builder recorded is read as it
   * wrote it, as the files it carries unread are: checking every member of every history pack read,
   * each patch of each version replayed, made the history stage grow with the versions kept
   * (docs/versions.md).
   */
  constructor(private readonly previous: PreviousSite | null, readonly versions: Version[], private readonly checkCarried: boolean) {}

  /** The snapshot the version being added follows: where an aliased history finds its object's previous ordinal. */
  private before: Snapshot = EMPTY;

  private async load(type: HistoryType, id: string): Promise<HistoryJson> {
    const rel = endpoints.history.file(type, id);
    const known = this.rewritten.get(rel);
    if (known) return known;
    const history = (await this.previousHistory(type, id)) ?? { type, id: Number(id), versions: [] };
    this.rewritten.set(rel, history);
    return history;
  }

  /** The previous site's history of object `id` of `type` (checked where read back), from its file or its pack; null when it has none. */
  private async previousHistory(type: HistoryType, id: string): Promise<HistoryJson | null> {
    if (!this.previous) return null;
    const own = isPacked(type) ? (await this.previousPack(type, packOf(Number(id)))).get(id) : (await this.previousFile(type, id))?.value;
    if (own || !isAliasedHistory(type)) return own ?? null;
    // An older site's own file, else its kind's history (a card's by its ordinal then).
    const legacy = type === 'card_t' ? (await this.previousFile(type, id))?.value : null;
    const kindId = this.aliasId(type, id, this.before);
    const kind = legacy ?? (kindId === null ? null : await this.previousHistory(HISTORY_ALIASES[type], kindId));
    return kind && retyped(kind, type, id);
  }

  /** The previous site's history file of object `id` of `type`, checked where it was read back (checkCarried). */
  private previousFile(type: HistoryType, id: string, listed = false): Promise<ReadBack<HistoryJson> | null> {
    return readHistory(this.previous!, type, id, { listed, check: this.checkCarried });
  }

  /** The id under which an aliased type's object `id` has its kind's history in `snapshot` (a card's ordinal), null when it has no object there. */
  private aliasId(type: AliasedHistoryType, id: string, snapshot: Snapshot): string | null {
    if (type === 'accessory_t') return id;
    const text = snapshot.objects.card_t.get(id);
    return text ? ordinalOf(text) : null;
  }

  /**
   * Drops the aliased types' histories that are their kind's (the edge answers them from it); what
   * is left of card_t's goes to its history packs: a card no longer published, or whose ordinal's
   * history is not its own (the ordinal changed, or held another card). One in a pack stays there.
   */
  private async keepOwnAliased(current: Snapshot): Promise<void> {
    for (const [rel, history] of [...this.rewritten]) {
      if (history.type === 'accessory_t') this.rewritten.delete(rel);
      if (history.type !== 'card_t') continue;
      const id = String(history.id);
      const ordinal = this.aliasId('card_t', id, current);
      const inPack = this.previous !== null && (await this.previousPack('card_t', packOf(history.id))).has(id);
      if (ordinal !== null && !inPack && sameHistory(await this.load('card', ordinal), history)) this.rewritten.delete(rel);
    }
  }

  /** The members of the previous site's history pack of `block` (checked; none when it has no such pack, unless `listed`). */
  private async previousPack(type: HistoryType, block: number, listed = false): Promise<ReadonlyMap<string, HistoryJson>> {
    const rel = endpoints.historyPack.file(type, block);
    let pack = this.packs.get(rel);
    if (!pack) {
      const read = await readHistoryPack(this.previous!, type, block, { listed, check: this.checkCarried });
      this.packs.set(rel, (pack = new Map(Object.entries(read?.value.objects ?? {}))));
    }
    return pack;
  }

  /**
   * The histories of a packed type: each pack holding a history this build rewrote is made again,
   * with its other members as the previous site has them; every other pack is carried (made again
   * from its checked members when the previous site was read back, so its offsets are this builder's).
   */
  private async addPacks(type: HistoryType, files: MovableFiles): Promise<void> {
    const packs = historyPacks(type);
    const rewritten = new Map<number, HistoryJson[]>();
    for (const history of this.rewritten.values()) {
      if (history.type !== type) continue;
      const block = packOf(history.id);
      rewritten.set(block, [...(rewritten.get(block) ?? []), history]);
    }
    const site = this.previous;
    const names = site ? await site.list(path.posix.dirname(packs.file(0))) : [];
    const listed = names.flatMap((name) => (/^(0|[1-9]\d{0,8})\.json$/.test(name) ? [Number(name.slice(0, -'.json'.length))] : []));
    for (const block of new Set([...rewritten.keys(), ...listed])) {
      const own = rewritten.get(block);
      if (!own && !this.checkCarried) {
        await site!.carry(packs.file(block), files);
        continue;
      }
      const members = new Map(listed.includes(block) ? await this.previousPack(type, block, true) : []);
      for (const history of own ?? []) {
        if (history.versions.length) members.set(String(history.id), history);
        else members.delete(String(history.id));
      }
      if (members.size) emitPacks(files, packs, [...members].map(([id, history]) => [Number(id), history] as const));
    }
  }

  /** Adds the version `after` holds, from the objects of `before`; a version already last is replaced. */
  async advance(before: Snapshot, after: Snapshot): Promise<void> {
    this.before = before;
    const { truth_version: version, date } = after.version;
    const last = this.versions.at(-1);
    const replacing = last?.truth_version === version;
    const counts: Counts = replacing ? { added: last.added, changed: last.changed, removed: last.removed } : { added: 0, changed: 0, removed: 0 };
    for (const type of HISTORY_TYPES) {
      // Cards and accessories are counted once, as card_t and accessory_t.
      const counted = (OBJECT_TYPE_NAMES as readonly string[]).includes(type);
      const [old, now] = [textsOf(before, type), textsOf(after, type)];
      for (const id of new Set([...old.keys(), ...now.keys()])) {
        if (sameText(old.get(id), now.get(id))) continue;
        const { versions } = await this.load(type, id);
        let base = old.has(id) ? parseText(old.get(id)!) : null;
        if (replacing && versions.at(-1)?.truth_version === version) {
          const replaced = versions.pop()!;
          if (counted) counts[replaced.change]--;
          base = replay(versions);
        }
        const entry = entryFor(after.version, base, now.get(id) ?? null);
        if (!entry) continue;
        versions.push(entry);
        if (counted) counts[entry.change]++;
      }
    }
    const next = { truth_version: version, date, ...counts, changes: null };
    if (replacing) this.versions[this.versions.length - 1] = next;
    else this.versions.push(next);
  }

  /** Adds the rewritten histories to the site, the previous site's others carried, and versions.json; `current`: the site being built. */
  async addTo(files: MovableFiles, current: Snapshot): Promise<void> {
    await this.keepOwnAliased(current);
    for (const history of this.rewritten.values()) if (history.versions.length && !isPacked(history.type)) emit(files, endpoints.history, [history.type, history.id], history);
    for (const type of HISTORY_PACK_TYPES) await this.addPacks(type, files);
    const site = this.previous;
    if (site) {
      for (const type of FILE_HISTORY_TYPES) {
        for (const name of await site.list(path.posix.dirname(endpoints.history.file(type, 0)))) {
          const id = name.replace(/\.json$/, '');
          const rel = endpoints.history.file(type, id);
          if (this.rewritten.has(rel) || !name.endsWith('.json')) continue;
          if (this.checkCarried) files.set(rel, (await this.previousFile(type, id, true))!.bytes);
          else await site.carry(rel, files);
        }
      }
    }
    // A version's change list is linked while the site publishes it.
    const changes = (version: string) => (files.has(endpoints.changes.file(version)) ? `changes/${encodeURIComponent(version)}.json` : null);
    emit(files, endpoints.versions, [], { versions: this.versions.map((v) => ({ ...v, changes: changes(v.truth_version) })) });
  }
}

/** A file of the previous site read back: its value and its bytes. */
type ReadBack<T> = { value: T; bytes: Buffer };

/** How a previous site's file is read: `listed` (the site listed it: absent, it is unreadable), `check` (against its schema and `invalid`). */
interface ReadOptions {
  listed?: boolean;
  check?: boolean;
}

/**
 * The JSON file `rel` of the previous site (a regular file, within the size limit), its value and
 * bytes; null when the site has none, unless `listed` (the site listed it: then it is unreadable).
 * Unless `check` is false, one that does not fit `schema` or that `invalid` finds fault with fails
 * the build in one line naming it (its history is never dropped).
 */
async function readPrevious<T>(
  site: PreviousSite, rel: string, what: string, schema: TSchema, { listed = false, check = true, invalid = (_: T): string | null => null }: ReadOptions & { invalid?: (value: T) => string | null } = {},
): Promise<ReadBack<T> | null> {
  const unreadable = (why: string) => new UserError(`${site.where(rel)}: the previous site's ${what} is unreadable (${why})`);
  let bytes: Buffer;
  let value: T;
  try {
    const read = await site.readBytes(rel);
    if (read === null) {
      if (listed) throw unreadable('it is gone');
      return null;
    }
    bytes = Buffer.from(read.buffer, read.byteOffset, read.byteLength);
    value = JSON.parse(bytes.toString('utf8')) as T;
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw unreadable((error as Error).message);
  }
  const fault = check ? misfit(schema, value) ?? invalid(value) : null;
  if (fault) throw new UserError(`${site.where(rel)}: the previous site's ${what} is not one this builder publishes (${fault})`);
  return { value, bytes };
}

/** Why the entries of `history` do not replay (a patch that does not apply, an object that is no object), or null. */
function replayFault(history: HistoryJson): string | null {
  let object: unknown = null;
  for (const { truth_version: version, patch } of history.versions) {
    try {
      object = patch === null ? null : applyPatch(object, patch);
    } catch (error) {
      return `the patch of version ${JSON.stringify(version).slice(0, 80)} does not apply: ${(error as Error).message}`;
    }
    if (object !== null && !isJsonObject(object)) return `version ${JSON.stringify(version).slice(0, 80)} makes the object a ${Array.isArray(object) ? 'list' : typeof object}`;
  }
  return null;
}

/**
 * The history file of object `id` of `type` in the previous site (null when it has none; see
 * readPrevious), checked unless `options.check` is false: its schema, its type and id (the file's
 * name is a canonical id), and every patch applying in turn. A bad patch carried on would make
 * each ?version= read of that object, and every list holding it, fail at the edge.
 */
function readHistory(site: PreviousSite, type: HistoryType, id: string, options: ReadOptions = {}): Promise<ReadBack<HistoryJson> | null> {
  return readPrevious<HistoryJson>(site, endpoints.history.file(type, id), 'history', HistorySchema, { ...options, invalid: (h) => historyFault(h, type, id) });
}

/** Why `history` cannot be the history of object `id` of `type` (another object's, a version that cannot be carried, a patch that does not apply), or null. */
function historyFault(history: HistoryJson, type: HistoryType, id: string): string | null {
  if (history.type !== type || String(history.id) !== id) return `it is the history of ${String(history.type).slice(0, 40)} ${history.id}, not of ${type} ${id.slice(0, 40)}`;
  return firstFault(history.versions.map((v) => v.truth_version)) ?? replayFault(history);
}

type HistoryPackJson = { objects: Record<string, HistoryJson> };
/**
 * What a previous site's history pack is read for: its members (each id and history checked
 * below). Its offsets are not: the pack is made again with this builder's (an older builder's had
 * no sums, contract/packSum.ts).
 */
const HistoryPackMembers = Type.Object({ objects: Pack(HistorySchema).properties.objects });

/**
 * The history pack of `block` of a packed type in the previous site (null when it has none; see
 * readPrevious); unless `options.check` is false, each member checked as readHistory checks a
 * file, and an id of the block.
 */
function readHistoryPack(site: PreviousSite, type: HistoryType, block: number, options: ReadOptions = {}): Promise<ReadBack<HistoryPackJson> | null> {
  return readPrevious<HistoryPackJson>(site, endpoints.historyPack.file(type, block), 'history pack', HistoryPackMembers, {
    ...options,
    invalid: (pack) => {
      for (const [id, history] of Object.entries(pack.objects)) {
        if (String(Number(id)) !== id || packOf(Number(id)) !== block) return `it holds ${id.slice(0, 40)}, not an id of block ${block}`;
        const fault = historyFault(history, type, id);
        if (fault) return `member ${id}: ${fault}`;
      }
      return null;
    },
  });
}

/** The first of `names` that cannot be carried (input/curated.ts carriedVersionFault), or null. */
const firstFault = (names: unknown[]): string | null => names.reduce<string | null>((fault, name) => fault ?? carriedVersionFault(name), null);

/** The versions a previous site published (none when it has no versions.json: an older builder), each name checked as a new one is. */
async function previousVersions(site: PreviousSite | null): Promise<Version[]> {
  const read = site && (await readPrevious<VersionsJson>(site, endpoints.versions.file(), 'versions.json', VersionsSchema, {
    invalid: (v) => firstFault(v.versions.map((version) => version.truth_version)),
  }));
  return read?.value.versions ?? [];
}

export interface HistoryInput {
  /** The previous site's objects (null on a first build). */
  previous: Snapshot | null;
  /** The site being built. */
  current: Snapshot;
  /** The previous site (null on a first build): its history files and versions.json are carried on. */
  site: PreviousSite | null;
  /** Whether the previous site's objects were read back rather than taken from its build's records (--since): what is carried is checked. */
  readBack: boolean;
}

/** Publishes versions.json and the history files of the site being built into `files`. */
export async function deriveHistory({ previous, current, site, readBack }: HistoryInput, files: MovableFiles): Promise<void> {
  const versions = await previousVersions(previous && site);
  const history = new History(versions.length ? site : null, versions, readBack);
  // A previous site without a history starts it with its own version.
  if (previous && !versions.length) await history.advance(EMPTY, previous);
  await history.advance(previous ?? EMPTY, current);
  await history.addTo(files, current);
}
