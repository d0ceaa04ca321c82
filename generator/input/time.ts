/** Timestamps in the export: unix seconds, ISO 8601, or the client's local `YYYY/MM/DD H:MM:SS`. */

// Real exports write early hours with one digit (`2013/05/03 0:00:01`).
const LOCAL = /^(\d{4})[/-](\d{2})[/-](\d{2})[ T](\d{1,2}):(\d{2}):(\d{2})$/;
const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/** Minutes east of UTC for an offset like "+09:00". */
export function parseOffset(offset: string, source: string): number {
  const m = OFFSET.exec(offset);
  if (!m) throw new Error(`${source}: timezone "${offset}" is not an offset like +09:00`);
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** Unix seconds, or null when the value is not a timestamp in any accepted form. */
export function toUnixSeconds(value: unknown, offsetMinutes: number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value !== 'string') return null;
  const local = LOCAL.exec(value.trim());
  if (local) {
    const [, y, mo, d, h, mi, s] = local.map(Number);
    return Date.UTC(y, mo - 1, d, h, mi, s) / 1000 - offsetMinutes * 60;
  }
  const ms = /\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? null : Math.trunc(ms / 1000);
}
