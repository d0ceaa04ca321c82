/**
 * Refuses request paths that could lead outside the published folder: dot segments,
 * empty segments (`//`), backslashes and NUL, also when percent-encoded once or more;
 * and encoded slashes, which would name one path on one host and another elsewhere.
 */
import { HttpError } from './http.ts';

const MAX_DECODES = 3;
const refused = () => new HttpError(400, 'request path is not allowed (dot segments, //, backslash or NUL)');
/**
 * Hosts disagree on what `%2F` is (a separator after decoding, or part of a file name), so
 * no host gives it either meaning: it is refused, encoded again or not.
 */
const ENCODED_SLASH = /%2f/i;
const encodedSlash = () => new HttpError(400, 'request path is not allowed: it has an encoded slash (%2F); separate path segments with /');

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
    if (ENCODED_SLASH.test(current)) throw encodedSlash();
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
