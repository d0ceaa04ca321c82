/**
 * What an archive (build/archive/, docs/archive.md) hands the build of one of its versions
 * besides the export itself: the version's name and date, the English export that names what
 * the export cannot, and every region's availability as known at that version.
 */
import type { InputFolder } from './inputFiles.ts';
import type { RegionsJson } from '../../contract/schemas.ts';

/**
 * Availability in each region of an archive (build/archive/, docs/archive.md), by kind and id:
 * cards by unit_id, songs by live_track_id, charts by live_setting_id, accessories by id.
 */
export interface RegionFacts {
  readonly cards: ReadonlyMap<number, RegionsJson>;
  readonly songs: ReadonlyMap<number, RegionsJson>;
  readonly charts: ReadonlyMap<number, RegionsJson>;
  readonly accessories: ReadonlyMap<number, RegionsJson>;
}

export interface ArchiveStep {
  /** The export's region (its time zone reads its dates) and the day it was taken, as unix seconds. */
  readonly truthVersion: string;
  readonly region: string;
  readonly date: number;
  /** An English client's export: its texts fill the English names when the export has no en/ folder of its own. */
  readonly english: InputFolder | null;
  readonly regions: RegionFacts;
  /** A digest of all the above but the export (the English export's files, the facts): part of the build's fingerprint. */
  readonly digest: string;
}
