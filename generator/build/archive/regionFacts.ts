/**
 * Availability per region (docs/archive.md): from the exports a version knows, for each region
 * the archive has exports of, whether its newest export holds an object (by the same id), the
 * earliest export that held it, and the release date the region's own event data gives a card.
 */
import type { RegionFacts } from '../input/archiveStep.ts';
import type { RegionsJson } from '../../contract/schemas.ts';
import type { Census } from './census.ts';

/** An export of the archive, identified and read. */
export interface ArchiveExport {
  /** Its folder, relative to the archive ('/'-separated). */
  rel: string;
  dir: string;
  region: string;
  /** The day it was taken, as unix seconds (midnight in the region's time) and as YYYY-MM-DD. */
  date: number;
  day: string;
  /** `<region>-<day>`: the truth version of a primary export, the name others are known by. */
  name: string;
  digest: string;
  census: Census;
}

type Kind = keyof RegionFacts;
const idsOf = (census: Census, kind: Kind): readonly number[] =>
  ({ cards: census.cards, songs: census.songs ?? [], charts: census.charts ?? [], accessories: census.accessories })[kind];

type RegionEntry = RegionsJson[string];

/** How far ahead of its own day an export's event data can date a release: events are scheduled weeks ahead, not years. */
const SCHEDULED_AHEAD = 31 * 24 * 3600;
const ABSENT: RegionEntry = { present: false, first_seen: null, first_seen_version: null, released: null };

/** One region's entry for every id its exports (oldest first) ever held, of one kind. */
function regionEntries(exports: readonly ArchiveExport[], kind: Kind): Map<number, RegionEntry> {
  const entries = new Map<number, RegionEntry>();
  for (const e of exports) {
    for (const id of idsOf(e.census, kind)) if (!entries.has(id)) entries.set(id, { present: false, first_seen: e.day, first_seen_version: e.name, released: null });
  }
  const newest = new Set(idsOf(exports[exports.length - 1].census, kind));
  for (const [id, entry] of entries) entry.present = newest.has(id);
  if (kind === 'cards') {
    // The newest export that dates a card has the most event data: its date stands, unless it lies
    // past what the export could know (a private server's copy rewrote events to years later).
    for (const e of exports) {
      for (const [id, date] of e.census.released) if (date <= e.date + SCHEDULED_AHEAD) entries.get(id)!.released = date;
    }
  }
  return entries;
}

/** The exports of each region, oldest first, regions in name order. */
function byRegion(exports: readonly ArchiveExport[]): Map<string, ArchiveExport[]> {
  const regions = new Map<string, ArchiveExport[]>();
  for (const e of [...exports].sort((a, b) => a.date - b.date)) {
    if (!regions.has(e.region)) regions.set(e.region, []);
    regions.get(e.region)!.push(e);
  }
  return new Map([...regions].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The regions member of every object the exports `known` to a version ever held: one entry per
 * region among them. Objects that are equal share one member (a region's entry is a function of
 * the id's history alone), so the facts of 4,000 cards cost one object per distinct history.
 */
export function regionFacts(known: readonly ArchiveExport[]): RegionFacts {
  const regions = byRegion(known);
  const kindFacts = (kind: Kind): Map<number, RegionsJson> => {
    const perRegion = [...regions].map(([region, exports]) => [region, regionEntries(exports, kind)] as const);
    const ids = new Set(perRegion.flatMap(([, entries]) => [...entries.keys()]));
    const shared = new Map<string, RegionsJson>();
    const facts = new Map<number, RegionsJson>();
    for (const id of [...ids].sort((a, b) => a - b)) {
      const member: RegionsJson = Object.fromEntries(perRegion.map(([region, entries]) => [region, entries.get(id) ?? ABSENT]));
      const key = JSON.stringify(member);
      if (!shared.has(key)) shared.set(key, member);
      facts.set(id, shared.get(key)!);
    }
    return facts;
  };
  return { cards: kindFacts('cards'), songs: kindFacts('songs'), charts: kindFacts('charts'), accessories: kindFacts('accessories') };
}
