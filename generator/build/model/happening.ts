/**
 * What happens when: events from event_common's event_m (local-time strings of the
 * export's region) and the curated gachas. Event names get their secondary text from the
 * English export's event_m, else from the crowd translations; gacha names from the latter.
 */
import type { MasterDb, DbRow } from '../input/masterDb.ts';
import type { CuratedGacha } from '../input/curated.ts';
import { toUnixSeconds } from '../input/time.ts';
import type { Findings } from '../findings.ts';
import type { EnglishTexts } from './english.ts';
import type { Gacha, GameEvent, Writable } from './types.ts';
import { num, numOrNull } from './values.ts';

const byStart = <T extends { start: number }>(a: T, b: T) => a.start - b.start;

/** How event_m rows are read: the export's time zone and the English export's event texts (with the crowd translations). */
export interface EventSources {
  offsetMinutes: number;
  english: EnglishTexts;
}

/** One event_m row, or null (with a warning naming the row) when its start or end is unreadable. */
function readEvent(row: DbRow, { offsetMinutes, english }: EventSources, findings: Findings): Writable<GameEvent> | null {
  const id = num(row.event_id);
  const start = toUnixSeconds(row.start_date, offsetMinutes);
  const end = toUnixSeconds(row.end_date, offsetMinutes);
  if (start === null || end === null || end < start) {
    findings.warn(`event_m: event ${id} left out, start_date "${row.start_date}" / end_date "${row.end_date}" are not dates with end after start`, 'event_m: events left out for their dates');
    return null;
  }
  const name = typeof row.name === 'string' ? row.name : '';
  return {
    id,
    name: english.text(name, english.get('event_m', 'event_id', id)),
    type: numOrNull(row.event_category_id),
    start,
    end,
    resultEnd: toUnixSeconds(row.close_date, offsetMinutes),
    rewardCards: [],
  };
}

/** Events in start order (then id), their cards not yet linked; none when the export has no event_common database. */
export function buildEvents(db: MasterDb | null, sources: EventSources, findings: Findings): Writable<GameEvent>[] {
  if (!db) return [];
  if (!db.hasTable('event_m')) {
    findings.warn(`${db.file}: no event_m table; no events are published`);
    return [];
  }
  return db.keyedRows('event_m', 'event_id')
    .map((row) => readEvent(row, sources, findings))
    .filter((e) => e !== null)
    .sort((a, b) => byStart(a, b) || a.id - b.id);
}

/** Gachas in start order (then id). */
export function buildGachas(curated: CuratedGacha[], texts: EnglishTexts): Gacha[] {
  return curated
    .map((g) => ({ ...g, name: texts.text(g.name) }))
    .sort((a, b) => byStart(a, b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
