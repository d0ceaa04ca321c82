/**
 * Refuses request paths that could lead outside the published folder: dot segments,
 * empty segments (`//`), backslashes and NUL, also when percent-encoded once or more.
 */
import { HttpError } from './http.ts';

const MAX_DECODES = 3;
const refused = () => new HttpError(400, 'request path is not allowed (dot segments, //, backslash or NUL)');

function unsafe(path: string): boolean {
  if (!path.startsWith('/') || /[\\\0]/.test(path)) return true;
  const segments = path.split('/').slice(1);
  return segments.some((s, i) => s === '.' || s === '..' || (s === '' && i < segments.length - 1));
}

/** Throws a 400 HttpError unless `path` (raw, as in the request line) stays inside the site. */
export function checkSitePath(path: string): void {
  let current = path;
  for (let round = 0; round <= MAX_DECODES; round++) {
    if (unsafe(current)) throw refused();
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      throw new HttpError(400, 'request path has malformed percent-encoding');
    }
    if (decoded === current) return;
    current = decoded;
  }
  throw refused();
}
