/** /api/v1/happening/now and /api/v1/happening/<unix seconds>: the events and gachas active then. */
import { paths, type HappeningJson } from '../format.ts';
import { HttpError } from './http.ts';
import { readJson, type EdgeSite } from './site.ts';

const UNIX_SECONDS = /^\d{1,11}$/;

/** The instant a request names, in unix seconds; a 400 HttpError when malformed. */
export function parseInstant(name: string, site: EdgeSite): number {
  if (name === 'now') return Math.floor((site.now ?? Date.now)() / 1000);
  if (!UNIX_SECONDS.test(name)) throw new HttpError(400, `malformed time "${name}": use now or unix seconds`);
  return Number(name);
}

/** Active means start <= instant < end. */
export async function happeningAt(site: EdgeSite, instant: number): Promise<HappeningJson> {
  const timeline = await readJson<HappeningJson>(site, paths.happening());
  if (!timeline) throw new HttpError(404, 'no timeline is published');
  const active = <T extends { start: number; end: number }>(items: T[]) => items.filter((i) => i.start <= instant && instant < i.end);
  return { events: active(timeline.events), gachas: active(timeline.gachas) };
}
