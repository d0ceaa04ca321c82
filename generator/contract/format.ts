/**
 * The published file format beyond the endpoint declarations (contract/): where pictures
 * live, how responses link objects and times, and how translations are sharded. Renderers
 * write this format and the edge handler reads it; neither depends on the other.
 */
import { MAX_READS } from './limits.ts';

export const API_MAJOR = 1;
/** Bumped whenever a published shape changes in a backward-compatible way. */
export const API_REVISION = 2;

/** Rarity ids with their names, lowest first in game order (kept with the search words, which name them too). */
export { RARITIES } from '../web/search/words.js';

/** Published pictures: every picture exists as .png and as .webp. */
export type ImageFormat = 'png' | 'webp';
export const IMAGE_FORMATS: readonly ImageFormat[] = ['png', 'webp'];
export const imagePaths = {
  /** `<id>` not idolized, `<id>t` idolized: the names set-list previews use. */
  cardIconName: (id: number, idolized: boolean) => `${id}${idolized ? 't' : ''}`,
  cardIcon: (name: string, format: ImageFormat = 'png') => `images/card/icon/${name}.${format}`,
  /** `<id>`, the name accessory lists use. */
  accessoryIconName: (id: number) => `${id}`,
  accessoryIcon: (name: string, format: ImageFormat = 'png') => `images/accessory/icon/${name}.${format}`,
};

/**
 * Card and accessory objects appear only in responses at api/v1/<type>/<file> (single
 * files, sets, pairs, generic objects and comma lists alike), so this one prefix leads
 * from any of them to the site root.
 */
export const OBJECT_TO_ROOT = '../../../';

/** Keys whose value embeds a linked object (with its `id`), and the object type `?stubs=yes` refers to instead. */
export const LINKED_OBJECTS: Readonly<Record<string, 'skill_t' | 'leader_skill_t' | 'card_t'>> = {
  skill: 'skill_t',
  center_skill: 'leader_skill_t',
  unit_stub: 'card_t',
};

/** Keys holding unix seconds, which `?datetime=iso8601` rewrites. */
export const TIMESTAMP_KEYS: ReadonlySet<string> = new Set(['release_date', 'start_date', 'end_date', 'result_end_date']);

/**
 * A chart's notes (api/v1/notes/<live_setting_id>.json, docs/songs.md#notes): the game's codes of a
 * note's `effect`, each with what it is. A note file with any other code is not read.
 */
export const NOTE_EFFECTS = {
  1: 'normal',
  2: 'event (carries an event\'s item)',
  3: 'hold (effect_value: its length in seconds)',
  4: 'star',
  11: 'swing',
  12: 'swing event',
  13: 'swing hold (effect_value: its length in seconds)',
} as const;
export type NoteEffect = keyof typeof NOTE_EFFECTS;
/** The effects of holds (their end is timing_sec + effect_value), stars and swings, as the statistics of live_t count them. */
export const HOLD_EFFECTS: readonly number[] = [3, 13];
export const STAR_EFFECTS: readonly number[] = [4];
export const SWING_EFFECTS: readonly number[] = [11, 12, 13];
/** A note's `position`: its lane, 1 to LANES as the game numbers them. */
export const LANES = 9;

/**
 * Packs: every object also sits in the pack file of its block of PACK_SIZE consecutive
 * ids (ordinals for cards), keyed by id, so the edge answers a long comma list with one
 * read per block touched instead of one per id (a 4,000-card export has 32 card packs of
 * about 370 KB). Small enough that a change to one card rewrites a small file (what a host
 * uploads and a mirror fetches), and a short list or a page of results reads little.
 */
export const PACK_SIZE = 128;
export const packOf = (id: number) => Math.floor(id / PACK_SIZE);
/**
 * card_t's packs (each card's ordinal by unit id, a dozen bytes an entry) hold blocks of this many
 * ids instead: unit ids are sparse (the 4,000-card sample's span 12,000), so blocks of PACK_SIZE
 * made a 100-id card_t list read about 60 of them before the cards' packs, past a request's reads
 * (limits.ts MAX_READS); these are a few per site, at most about 25 KB, one rewritten per card added.
 */
export const KEY_PACK_SIZE = 2048;
export const keyPackOf = (id: number) => Math.floor(id / KEY_PACK_SIZE);

/**
 * Bulk files are published in parts (api/v1/bulk/parts/<file>/<name>.part), joined by the edge:
 * parts of about bulkPartBytes, named by their content (bulkPartName). JSON Lines files' are
 * whole lines by position (a power-of-two count of lines, from the file's average line: 128 cards,
 * 8 sets of 18 cards): objects keep their places, so a changed object rewrites its own part and a
 * new one, mostly last, the last part. The SQLite file's are whole pages cut at each table's or
 * index's first page and every part's worth of pages after it, a short piece joined to the next
 * (derive/bulk.ts `pageRanges`): a table grown by a page moves every page after it, but the parts
 * of the later tables keep their bytes and so their names. Small parts keep every file far below
 * the hosts' size limits and make a change to one object rewrite a small part, not a whole-kind
 * file (what a deploy uploads).
 */
export const BULK_PART_BYTES = 512 * 1024;
/**
 * Parts of one bulk file at most: the edge joins a file by reading bulk/index.json and each part, all
 * within one request's reads (limits.ts MAX_READS), with one read to spare.
 */
export const MAX_BULK_PARTS = MAX_READS - 2;
/**
 * The part size of a bulk file of `bytes`: BULK_PART_BYTES, doubled while the file would make more
 * than MAX_BULK_PARTS parts. A cut at whole lines or at a b-tree's first page leaves parts at least
 * half full, so at most 2 x bytes / part + 1 of them; doubling (not any size) keeps a growing file's
 * cut until it doubles.
 */
export function bulkPartBytes(bytes: number): number {
  let part = BULK_PART_BYTES;
  while ((2 * bytes) / part + 1 > MAX_BULK_PARTS) part *= 2;
  return part;
}
const MAX_PART_LINES = 2 ** 16;
/** Lines per part of a JSON Lines file of `lines` lines of `bytes` in all: about bulkPartBytes each, a power of two, at most MAX_BULK_PARTS parts. */
export function bulkPartLines(lines: number, bytes: number): number {
  const average = bytes / Math.max(1, lines);
  const bySize = Math.min(MAX_PART_LINES, 2 ** Math.max(0, Math.round(Math.log2(bulkPartBytes(bytes) / Math.max(1, average)))));
  return Math.max(bySize, 2 ** Math.ceil(Math.log2(Math.max(1, lines / MAX_BULK_PARTS))));
}
/**
 * A part's file name: the first 16 hex digits of its SHA-256. Named by content, a part that did not
 * change keeps its name when a part before it is split or joined (the SQLite file's parts are cut by
 * content), so a deploy uploads, and a mirror fetches, only the parts whose bytes are new; the order
 * is bulk/index.json's.
 */
export const bulkPartName = (sha256: string) => sha256.slice(0, 16);

/**
 * Block sums (api/v1/manifest.json `blocks`, manifest.blocks.json): a file of at least
 * BLOCK_SUMS_MIN_BYTES is listed with a weak rolling sum and a strong hash per BLOCK_SIZE
 * bytes (generator/build/blockSums.ts), so a mirror finds the blocks its old copy already holds,
 * at any offset, and fetches only the others by HTTP Range (docs/bulk.md "Mirror").
 */
export const BLOCK_SIZE = 8 * 1024;
export const BLOCK_SUMS_MIN_BYTES = 64 * 1024;
/**
 * The manifest's own blocks (manifest.blocks.json) are smaller: an update changes a few dozen
 * entries spread over the whole manifest (a 4,000-card site's is 2.5 MB), so finer blocks fetch
 * less of it, for sums that are still a small file (39 KB at 2.5 MB).
 */
export const MANIFEST_BLOCK_SIZE = 1024;

/** The shard holding `original`: FNV-1a (32 bit) of its UTF-8 bytes, modulo the shard count. */
export function translationShard(original: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(original)) hash = Math.imul(hash ^ byte, 0x01000193);
  return (hash >>> 0) % shards;
}
