/**
 * Objects as an earlier data version published them, rebuilt from their history files
 * (api/v1/history/<type>/<id>.json, or for a packed type its pack, history/<type>/pack/<block>.json:
 * per version a JSON Patch from the previous version's object), applied by contract/patch.ts, the
 * code the build replays histories with.
 */
import { endpoints, objectEndpoint, PACKED_HISTORY_TYPES, type HistoryType } from '../../contract/endpoints.ts';
import type { HistoryJson, VersionsJson } from '../../contract/schemas.ts';
import { HttpError } from './http.ts';
import { MAX_READS, MAX_VERSION_IDS } from '../../contract/limits.ts';
import { applyPatch } from '../../contract/patch.ts';
import { readJson, type EdgeSite } from './siteReader.ts';
import { keysOf, readObjects } from './objects.ts';

type Patch = NonNullable<HistoryJson['versions'][number]['patch']>;

/** Whether a version's patch gives the whole object anew (its first operation sets the root) or removes it: what came before does not count. */
const startsAnew = (patch: Patch | null) => patch === null || (patch.length > 0 && patch[0].path === '' && (patch[0].op === 'add' || patch[0].op === 'replace'));

/**
 * The object after the history's entries up to `version` (by the order of `order`, the
 * versions' positions); null when it did not exist then. Replayed from the last entry that gives
 * the whole object anew; when that entry is all there is to it (an object as it was first
 * published, the answer to `?version=` of the oldest version), the history's own value, not a
 * copy: never change it (the edge serializes it at once).
 */
export function objectAt(history: HistoryJson, order: Map<string, number>, version: string): unknown {
  const until = order.get(version)!;
  const entries = history.versions;
  let end = 0;
  while (end < entries.length && (order.get(entries[end].truth_version) ?? Infinity) <= until) end++;
  let start = end - 1;
  while (start > 0 && !startsAnew(entries[start].patch)) start--;
  if (start < 0) return null;
  const first = entries[start].patch;
  if (start === end - 1 && first !== null && first.length === 1 && startsAnew(first)) return first[0].value ?? null;
  let object: unknown = null;
  for (const entry of entries.slice(start, end)) object = entry.patch === null ? null : applyPatch(object, entry.patch);
  return object;
}

/** The position of every published version, oldest first; a 400 for a version the site never published. */
async function versionOrder(site: EdgeSite, version: string): Promise<Map<string, number>> {
  const versions = (await readJson<VersionsJson>(site, endpoints.versions.file()))?.versions ?? [];
  const order = new Map(versions.map((v, i) => [v.truth_version, i]));
  if (!order.has(version)) {
    throw new HttpError(400, `unknown version "${version.slice(0, 80)}": ?version= takes a truth_version listed in /${endpoints.versions.file()}`);
  }
  return order;
}

/** The history of object `id` of a type whose histories live in packs (history/<type>/pack/<block>.json): only its own bytes are parsed. */
async function packedHistory(site: EdgeSite, type: HistoryType, id: number): Promise<HistoryJson | null> {
  const [text] = await readObjects(site, { key: 'history', pack: (block) => endpoints.historyPack.file(type, block) }, [id]);
  return text === null ? null : (JSON.parse(typeof text === 'string' ? text : new TextDecoder().decode(text)) as HistoryJson);
}

/** The history of `kind`'s object `kindId` as the history of object `id` of `type` (null when it has none). */
async function aliased(site: EdgeSite, kind: HistoryType, kindId: number | null, type: HistoryType, id: number): Promise<HistoryJson | null> {
  const history = kindId === null ? null : await readJson<HistoryJson>(site, endpoints.history.file(kind, kindId));
  return history && { type, id, versions: history.versions };
}

/**
 * The history of object `id` of `type` (null when it has none): its file or its pack's member;
 * accessory_t's is its accessory's, card_t's its card's (by the ordinal card_t's pack names) unless
 * card_t's history pack holds its own (endpoints.ts HISTORY_ALIASES). Reads of one answer run at once.
 */
export async function historyOf(site: EdgeSite, type: HistoryType, id: number): Promise<HistoryJson | null> {
  if (type === 'accessory_t') return aliased(site, 'accessory', id, type, id);
  if (type === 'card_t') {
    const [own, [ordinal]] = await Promise.all([packedHistory(site, type, id), keysOf(site, objectEndpoint.card_t.pack.file, [id])]);
    return own ?? aliased(site, 'card', ordinal, type, id);
  }
  return PACKED_HISTORY_TYPES.includes(type) ? packedHistory(site, type, id) : readJson<HistoryJson>(site, endpoints.history.file(type, id));
}

/** The JSON text of one object as `version` published it, null when it did not exist then. */
async function objectTextAt(site: EdgeSite, type: HistoryType, id: number, order: Map<string, number>, version: string): Promise<string | null> {
  const file = endpoints.history.file(type, id);
  const key = `${file}@${version}`;
  const keep = site.immutable ? site.kept?.objects : undefined;
  const kept = keep?.get(key);
  if (kept) return kept.value;
  const history = await historyOf(site, type, id);
  const object = history && objectAt(history, order, version);
  const text = object === null ? null : JSON.stringify(object);
  keep?.set(key, text, key.length + (text?.length ?? 0));
  return text;
}

/**
 * The JSON text of each id's object as `version` published it, null where it did not exist then.
 * Once versions.json is read, every history is read at once: a 1,000-id list is two rounds of
 * reads, not one round per few ids (a host that limits its connections queues the rest itself).
 */
export async function objectsAt(site: EdgeSite, type: HistoryType, ids: number[], version: string): Promise<(string | null)[]> {
  // Distinct ids: an id named twice is one history, one read.
  const distinct = [...new Set(ids)];
  if (distinct.length > MAX_VERSION_IDS) {
    throw new HttpError(400, `?version= lists take at most ${MAX_VERSION_IDS} distinct ids, not ${distinct.length} (each id's history is a read of its own, and a request reads at most ${MAX_READS} files of the site): ask in parts`);
  }
  const order = await versionOrder(site, version);
  const texts = await Promise.all(distinct.map((id) => objectTextAt(site, type, id, order, version)));
  const byId = new Map(distinct.map((id, i) => [id, texts[i]]));
  return ids.map((id) => byId.get(id) ?? null);
}
