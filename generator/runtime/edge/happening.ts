/** /api/v1/happening/now and /api/v1/happening/<unix seconds>: the events and gachas active then. */
import { endpoints } from '../../contract/endpoints.ts';
import type { HappeningJson } from '../../contract/schemas.ts';
import { HttpError } from './http.ts';
import { readJson, type EdgeSite } from './siteReader.ts';

const UNIX_SECONDS = /^\d{1,11}$/;

/** The instant a request names, in unix seconds; a 400 HttpError when malformed. */
export function parseInstant(name: string, site: EdgeSite): number {
  if (name === 'now') return Math.floor((site.now ?? Date.now)() / 1000);
  if (!UNIX_SECONDS.test(name)) throw new HttpError(400, `malformed time "${name.slice(0, 40)}": use now or unix seconds`);
  return Number(name);
}

/**
 * Active means start_date <= instant < end_date; with `extendedEvents` an event stays
 * active until its result_end_date (starlight's extended_time_period_for_events).
 * The timeline is published newest first, and the answer keeps that order.
 */
export async function happeningAt(site: EdgeSite, instant: number, extendedEvents: boolean): Promise<HappeningJson> {
  const timeline = await readJson<HappeningJson>(site, endpoints.timeline.file());
  if (!timeline) return { events: [], gachas: [] };
  const active = (start: number, end: number) => start <= instant && instant < end;
  return {
    events: timeline.events.filter((e) => active(e.start_date, extendedEvents ? Math.max(e.end_date, e.result_end_date ?? 0) : e.end_date)),
    gachas: timeline.gachas.filter((g) => active(g.start_date, g.end_date)),
  };
}
