/** Timestamps in the export: unix seconds, ISO 8601, the client's local `YYYY/MM/DD H:MM:SS`, or a bare day `YYYY-MM-DD` (local midnight). */
import { UserError } from '../errors.ts';

// Real exports write early hours with one digit (`2013/05/03 0:00:01`). Without a time (`2018-09-20`), the day's 00:00:00.
const LOCAL = /^(\d{4})[/-](\d{2})[/-](\d{2})(?:[ T](\d{1,2}):(\d{2}):(\d{2}))?$/;
const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/** Minutes east of UTC for an offset like "+09:00". */
export function parseOffset(offset: string, source: string): number {
  const m = OFFSET.exec(offset);
  // Real offsets run from -12:00 to +14:00.
  if (!m || Number(m[2]) > 14 || Number(m[3]) > 59) throw new UserError(`${source}: timezone "${offset}" is not an offset like +09:00`);
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** 9999-12-31T23:59:59Z: the last instant `datetime=iso8601` can write with a four-digit year. */
const MAX_UNIX = 253402300799;
const inRange = (unix: number): number | null => (unix >= 0 && unix <= MAX_UNIX ? unix : null);

/** Unix seconds, or null when the value is not a timestamp in any accepted form or lies outside 1970-9999. */
export function toUnixSeconds(value: unknown, offsetMinutes: number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? inRange(Math.trunc(value)) : null;
  if (typeof value !== 'string') return null;
  const local = LOCAL.exec(value.trim());
  if (local) {
    const [y, mo, d, h, mi, s] = local.slice(1).map((part) => Number(part ?? 0));
    const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
    // Date.UTC rolls 13/45 25:61 over into later dates (and years below 100 into the 1900s): refuse instead.
    const exact = date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60 && s < 60;
    return exact ? inRange(date.getTime() / 1000 - offsetMinutes * 60) : null;
  }
  const ms = /\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? null : inRange(Math.trunc(ms / 1000));
}
