/**
 * Objects as an earlier data version published them, rebuilt from their history files
 * (api/v1/history/<type>/<id>.json: per version a JSON Patch from the previous version's
 * object). The edge function loads no package, so JSON Patch (RFC 6902) is applied here;
 * test/versions.test.ts checks it against the fast-json-patch library. The build replays
 * histories with the same code.
 */
import { endpoints, type HistoryType } from '../contract/endpoints.ts';
import type { HistoryJson, VersionsJson } from '../contract/schemas.ts';
import { HttpError } from './http.ts';
import { readJson, type EdgeSite } from './siteReader.ts';

/** History files read at once for one ?version= answer. */
const CONCURRENT_READS = 32;

export type PatchOperation = NonNullable<HistoryJson['versions'][number]['patch']>[number];
type Container = Record<string, unknown> | unknown[];

/** The reference tokens of a JSON Pointer (RFC 6901). */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`JSON Pointer "${pointer}" does not start with /`);
  return pointer.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A member or element of `node`: own members only, so `__proto__` or `constructor` is a member like any other. */
const childOf = (node: unknown, token: string): unknown =>
  Array.isArray(node) ? node[Number(token)] : node !== null && typeof node === 'object' && Object.hasOwn(node, token) ? (node as Record<string, unknown>)[token] : undefined;

/** Sets a member as an own property (an assignment to `__proto__` would change the prototype instead). */
const setMember = (object: Record<string, unknown>, token: string, value: unknown): void =>
  void Object.defineProperty(object, token, { value, writable: true, enumerable: true, configurable: true });

/** The container a pointer's last token lives in, and that token. */
function parentOf(document: unknown, pointer: string): [Container, string] {
  const path = tokens(pointer);
  const last = path.pop()!;
  let node = document;
  for (const token of path) {
    node = childOf(node, token);
    if (node === null || typeof node !== 'object') throw new Error(`JSON Pointer "${pointer}" leads through a missing or scalar value`);
  }
  return [node as Container, last];
}

const indexIn = (array: unknown[], token: string, adding: boolean): number => {
  const index = token === '-' && adding ? array.length : Number(token);
  if (!/^(0|[1-9]\d*|-)$/.test(token) || index > array.length - (adding ? 0 : 1)) throw new Error(`array index "${token}" out of range`);
  return index;
};

const valueAt = (document: unknown, pointer: string): unknown => tokens(pointer).reduce<unknown>(childOf, document);

function add(document: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const [parent, token] = parentOf(document, pointer);
  if (Array.isArray(parent)) parent.splice(indexIn(parent, token, true), 0, value);
  else setMember(parent, token, value);
  return document;
}

/** Replaces in place, so an object's members keep their order. */
function replace(document: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const [parent, token] = parentOf(document, pointer);
  if (Array.isArray(parent)) parent[indexIn(parent, token, false)] = value;
  else if (Object.hasOwn(parent, token)) setMember(parent, token, value);
  else throw new Error(`no member "${token}" to replace at "${pointer}"`);
  return document;
}

function remove(document: unknown, pointer: string): unknown {
  const [parent, token] = parentOf(document, pointer);
  if (Array.isArray(parent)) parent.splice(indexIn(parent, token, false), 1);
  else if (Object.hasOwn(parent, token)) delete parent[token];
  else throw new Error(`no member "${token}" to remove at "${pointer}"`);
  return document;
}

/** `document` with `patch` applied (RFC 6902; `test` compares JSON texts). Changes `document` in place where it can. */
export function applyPatch(document: unknown, patch: PatchOperation[]): unknown {
  const copy = (value: unknown) => (value === undefined ? null : JSON.parse(JSON.stringify(value)));
  return patch.reduce<unknown>((doc, { op, path, value, from }) => {
    switch (op) {
      case 'add': return add(doc, path, copy(value));
      case 'remove': return remove(doc, path);
      case 'replace': return replace(doc, path, copy(value));
      case 'move': {
        const moved = valueAt(doc, from!);
        return add(remove(doc, from!), path, moved);
      }
      case 'copy': return add(doc, path, copy(valueAt(doc, from!)));
      case 'test':
        if (JSON.stringify(valueAt(doc, path)) !== JSON.stringify(value)) throw new Error(`test failed at "${path}"`);
        return doc;
    }
  }, document);
}

/**
 * The object after the history's entries up to `version` (by the order of `order`, the
 * versions' positions); null when it did not exist then.
 */
export function objectAt(history: HistoryJson, order: Map<string, number>, version: string): unknown {
  const until = order.get(version)!;
  let object: unknown = null;
  for (const entry of history.versions) {
    if ((order.get(entry.truth_version) ?? Infinity) > until) break;
    object = entry.patch === null ? null : applyPatch(object, entry.patch);
  }
  return object;
}

/** The position of every published version, oldest first; a 400 for a version the site never published. */
export async function versionOrder(site: EdgeSite, version: string): Promise<Map<string, number>> {
  const versions = (await readJson<VersionsJson>(site, endpoints.versions.file()))?.versions ?? [];
  const order = new Map(versions.map((v, i) => [v.truth_version, i]));
  if (!order.has(version)) {
    throw new HttpError(400, `unknown version "${version.slice(0, 80)}": ?version= takes a truth_version listed in /${endpoints.versions.file()}`);
  }
  return order;
}

/** The JSON text of each id's object as `version` published it, null where it did not exist then. */
/**
 * Objects an immutable site's instance has rebuilt (edge/siteReader.ts EdgeSite.immutable), by
 * history file and version, least recently used first, up to KEPT_CHARS characters: a version's
 * answer never changes within one deploy, and replaying patches is most of a ?version= list's CPU.
 */
const keptObjects = new Map<string, string | null>();
const KEPT_CHARS = 16 * 1024 * 1024;
let keptChars = 0;

/** The JSON text of one object as `version` published it, null when it did not exist then. */
async function objectTextAt(site: EdgeSite, type: HistoryType, id: number, order: Map<string, number>, version: string): Promise<string | null> {
  const file = endpoints.history.file(type, id);
  const key = `${file}@${version}`;
  if (site.immutable && keptObjects.has(key)) return keptObjects.get(key)!;
  const history = await readJson<HistoryJson>(site, file);
  const object = history && objectAt(history, order, version);
  const text = object === null ? null : JSON.stringify(object);
  if (site.immutable) {
    keptObjects.set(key, text);
    keptChars += key.length + (text?.length ?? 0);
    for (const [oldest, kept] of keptObjects) {
      if (keptChars <= KEPT_CHARS) break;
      keptObjects.delete(oldest);
      keptChars -= oldest.length + (kept?.length ?? 0);
    }
  }
  return text;
}

export async function objectsAt(site: EdgeSite, type: HistoryType, ids: number[], version: string): Promise<(string | null)[]> {
  const order = await versionOrder(site, version);
  const texts = new Map<number, string | null>();
  const pending = [...new Set(ids)];
  // A few reads at a time: a 1,000-id list never opens 1,000 requests to the host at once.
  const worker = async () => {
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) texts.set(id, await objectTextAt(site, type, id, order, version));
  };
  await Promise.all(Array.from({ length: CONCURRENT_READS }, worker));
  return ids.map((id) => texts.get(id) ?? null);
}
