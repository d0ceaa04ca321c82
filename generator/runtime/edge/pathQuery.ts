/**
 * The query in the path: `/api/v1;version=v2;stubs=yes/card/5.json` asks what
 * `/api/v1/card/5.json?version=v2&stubs=yes` asks. Hosts route by path and never see a
 * query: where a published file sits at a path (Netlify's edge function excludes it, a
 * Cloudflare Worker's static assets serve it before any code), the host answers a query
 * on it with the plain file. Parameters in the version segment make a path no file has, so
 * every host runs the edge for it; the segment keeps the path's depth, so the relative URLs
 * inside a response (pictures, next pages) resolve as they do from the plain path.
 */
import { HttpError } from './http.ts';

const PATH_QUERY = /^\/api\/v1;([^/]*)(\/.*)?$/;

/** The parameters of a `v1;a=b;c=d` segment, in order; a 400 for a segment that names none. */
function segmentParameters(segment: string): [string, string][] {
  const pairs = segment.split(';').filter((part) => part !== '').map((part): [string, string] => {
    const at = part.indexOf('=');
    const [name, value] = at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
    try {
      return [decodeURIComponent(name), decodeURIComponent(value)];
    } catch {
      throw new HttpError(400, `path parameter "${part.slice(0, 80)}" has malformed percent-encoding`);
    }
  });
  if (!pairs.length) throw new HttpError(400, 'the path segment "v1;" names no parameter: write /api/v1;<name>=<value>/...');
  return pairs;
}

/** The URL a request asks for: parameters in the path moved into the query (before its own), else the URL itself. */
export function withPathQuery(url: URL): URL {
  const match = PATH_QUERY.exec(url.pathname);
  if (!match) return url;
  const canonical = new URL(`/api/v1${match[2] ?? '/'}`, url);
  const params = new URLSearchParams(segmentParameters(match[1]));
  for (const [name, value] of url.searchParams) params.append(name, value);
  canonical.search = params.toString();
  return canonical;
}
