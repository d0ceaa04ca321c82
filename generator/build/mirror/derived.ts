/**
 * Files a mirror makes itself instead of downloading them:
 * - the bulk downloads' parts and the cards' packs, which hold once more the objects the site's
 *   other files hold (the cards' own files, the generic types' packs, the set and pair files);
 * - the history files of the objects that changed: the copy's history, with one entry more that
 *   turns the copy's object into the site's.
 * A broad game update (a stats rebalance touching a third of the cards) changes nearly every part
 * and pack and a history per changed card; made here from the files fetched anyway, they cost
 * nothing to receive. Each is made by the build's own code (derive/bulk.ts, render/packs.ts,
 * changes/history.ts) and kept only when its bytes are the ones the manifest lists; any other is
 * downloaded as before, so a site built by another builder, or a copy more than one version
 * behind, mirrors all the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import { endpoints, FILE_HISTORY_TYPES, isObjectType, objectEndpoint, OBJECT_TYPE_NAMES, type HistoryType } from '../../contract/endpoints.ts';
import { readObjects, readPacked, type SiteReader } from '../changes/snapshot.ts';
import { noObjects } from '../changes/published.ts';
import { packOf } from '../../contract/format.ts';
import { PACKED_KINDS } from '../../contract/kinds.ts';
import type { BulkIndexJson, CardJson, CardListJson, FileManifestJson, HistoryJson, PairListJson, SetListJson, VersionsJson } from '../../contract/schemas.ts';
import { sha256, type FileDigest } from '../digest.ts';
import { deriveBulk } from '../derive/bulk.ts';
import { emitPacks } from '../render/packs.ts';
import { jsonBytes } from '../render/files.ts';
import type { SiteFiles } from '../siteFiles.ts';
import { entryFor } from '../changes/history.ts';
import type { Rendered } from '../render/renderSite.ts';
import { memorySite } from '../input/previousSite.ts';

type Entry = FileManifestJson['files'][string];

/** The bytes of a file of the site being mirrored (from the copy or the downloads), null when it has none. */
export type SiteFile = (rel: string) => Buffer | null;

const BULK_PARTS = `${endpoints.bulkPart.file('\0', '\0').split('\0')[0]}`;
const CARD_PACKS = `${endpoints.cardPack.file('\0').split('\0')[0]}`;

/** The type and id of a history file (history/<type>/<id>.json of a type with a file per object), null for any other file. */
function historyFile(rel: string): { type: HistoryType; id: number } | null {
  const match = /^api\/v1\/history\/(\w+)\/(0|[1-9]\d{0,8})\.json$/.exec(rel);
  const type = match?.[1] as HistoryType | undefined;
  return type && FILE_HISTORY_TYPES.includes(type) ? { type, id: Number(match![2]) } : null;
}

/** Whether the mirror may make the file `rel` itself. */
export const isDerived = (rel: string): boolean => rel.startsWith(BULK_PARTS) || rel.startsWith(CARD_PACKS) || historyFile(rel) !== null;

/** A site's published JSON files, parsed (each once). */
function jsonFiles(file: SiteFile): <T>(rel: string) => T | null {
  const parsed = new Map<string, unknown>();
  return <T>(rel: string) => {
    if (!parsed.has(rel)) {
      const bytes = file(rel);
      parsed.set(rel, bytes === null ? null : JSON.parse(bytes.toString('utf8')));
    }
    return parsed.get(rel) as T | null;
  };
}

/** The object of a history type a site publishes under `id`, null when none: a card by ordinal, an accessory, a generic object from its pack. */
function objectOf(json: <T>(rel: string) => T | null, type: HistoryType, id: number): object | null {
  if (type === 'card') return json<{ cards: object[] }>(endpoints.card.file(id))?.cards[0] ?? null;
  if (type === 'accessory') return json<{ accessories: object[] }>(endpoints.accessory.file(id))?.accessories[0] ?? null;
  if (!isObjectType(type)) return null;
  return json<{ objects: Record<string, object> }>(objectEndpoint[type].pack.file(packOf(id)))?.objects[id] ?? null;
}

/**
 * Each wanted history file as the build writes it when the site follows the copy by one version:
 * the copy's history with the entry that turns the copy's object into the site's. One whose
 * version is already the copy's last (a rebuilt version) is left to the download.
 */
function deriveHistories(site: <T>(rel: string) => T | null, copy: <T>(rel: string) => T | null, wanted: Iterable<string>, kept: MatchingFiles): void {
  const version = site<VersionsJson>(endpoints.versions.file())?.versions.at(-1);
  if (!version) return;
  for (const rel of wanted) {
    const file = historyFile(rel);
    if (!file) continue;
    const history = copy<HistoryJson>(rel) ?? { type: file.type, id: file.id, versions: [] };
    if (history.versions.at(-1)?.truth_version === version.truth_version) continue;
    const [before, after] = [objectOf(copy, file.type, file.id), objectOf(site, file.type, file.id)];
    const entry = entryFor(version, before as Parameters<typeof entryFor>[1], after && jsonBytes(after));
    if (entry) kept.set(rel, jsonBytes({ ...history, versions: [...history.versions, entry] }));
  }
}

/** Site files that keep only the wanted ones whose bytes are the manifest's, as `<sha256>` in `into`. */
class MatchingFiles implements SiteFiles {
  readonly made = new Map<string, string>();

  constructor(private readonly wanted: ReadonlyMap<string, Entry>, private readonly into: string) {}

  private matches(rel: string, digest: FileDigest): string | null {
    const entry = this.wanted.get(rel);
    return entry && entry.sha256 === digest.sha256 && entry.bytes === digest.bytes ? path.join(this.into, entry.sha256) : null;
  }

  set(rel: string, bytes: Buffer): void {
    const to = this.matches(rel, { sha256: sha256(bytes), bytes: bytes.length });
    if (!to) return;
    fs.writeFileSync(to, bytes);
    this.made.set(rel, to);
  }

  has(rel: string): boolean {
    return this.made.has(rel);
  }

  keys(): Iterable<string> {
    return this.made.keys();
  }
}

/**
 * What the bulk stage reads, from the site's files: every card from its own file (its packs are
 * what is being made), the other types and the kinds in packs only as a --since build reads them back
 * (changes/snapshot.ts), the sets and pairs as their lists and files.
 */
async function renderedOf(json: <T>(rel: string) => T | null): Promise<{ rendered: Rendered; cards: CardJson[] }> {
  const cards = (json<CardListJson>(endpoints.cardList.file())?.stubs ?? []).map((stub) => json<{ cards: CardJson[] }>(endpoints.card.file(stub.ordinal))!.cards[0]);
  const read: SiteReader = async (rel, optional = false) => {
    const value = json(rel);
    if (value === null && !optional) throw new Error(`${rel} is missing`);
    return value ?? undefined;
  };
  const published = noObjects();
  const objectTypes = OBJECT_TYPE_NAMES.filter((type) => json(objectEndpoint[type].list.file()) !== null);
  for (const type of objectTypes) if (type !== 'card_t') await readObjects(read, type, published);
  await readPacked(read, published);
  const objects = Object.fromEntries(OBJECT_TYPE_NAMES.map((type) => [type, type === 'card_t' ? [...cards].sort((a, b) => a.id - b.id) : [...published[type].values()]]));
  const sets = (json<SetListJson>(endpoints.setList.file())?.sets ?? []).map((set) => ({ ...set, ...json<object>(endpoints.set.file(set.id)) }));
  const pairs = (json<PairListJson>(endpoints.pairList.file())?.pairs ?? []).map((pair) => ({ ...pair, ...json<object>(endpoints.pair.file(pair.pair)) }));
  const packed = Object.fromEntries(PACKED_KINDS.map((k) => [k.name, [...published[k.published].values()]]));
  return { rendered: { objects, objectTypes, sets, pairs, packed, timezoneOffset: 0 } as unknown as Rendered, cards };
}

/**
 * Makes the `wanted` files (each derived: isDerived) that it can from the site's other files and
 * the `copy`'s (its previous version), into `into` as `<sha256>` (the mirror's downloads), in a
 * scratch folder `scratch`; returns the files made by site path. What it cannot make the same, it
 * leaves to the download.
 */
export async function deriveFiles(file: SiteFile, copy: SiteFile, wanted: ReadonlyMap<string, Entry>, into: string, scratch: string): Promise<Map<string, string>> {
  const json = jsonFiles(file);
  const kept = new MatchingFiles(wanted, into);
  deriveHistories(json, jsonFiles(copy), wanted.keys(), kept);
  const { rendered, cards } = await renderedOf(json);
  emitPacks(kept, endpoints.cardPack, cards.map((card) => [card.ordinal, card] as const));
  const index = json<BulkIndexJson>(endpoints.bulkIndex.file());
  if (index) {
    await deriveBulk(rendered, kept, { truthVersion: index.truth_version, date: index.date, previous: memorySite(new Map()), scratch });
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return kept.made;
}
