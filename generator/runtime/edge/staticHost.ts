/**
 * A static /api/ file served as Netlify's CDN serves it, for hosts without such a rule
 * engine (the local server, the Cloudflare Pages worker): the file at the path, else the
 * target of the first matching rule (edge/rewrites.ts) with that rule's status, else the
 * JSON 404; with the static headers and, for a 200, an ETag that answers If-None-Match and
 * byte ranges (Range), as static hosts answer.
 */
import { CONTENT_TYPES, NOT_FOUND_FILE } from '../../contract/endpoints.ts';
import { HttpError, byteRange, errorResponse, withETag } from './http.ts';
import { firstRule, staticHeaders } from './rewrites.ts';
import { rawFileType } from './routes.ts';
import type { EdgeSite } from './siteReader.ts';

async function resolve(site: EdgeSite, pathname: string): Promise<{ text: string; status: number } | null> {
  const direct = await site.read(pathname.slice(1));
  if (direct !== null) return { text: direct, status: 200 };
  const match = firstRule(pathname);
  const target = match ? await site.read(match.target.slice(1)) : null;
  if (match && target !== null) return { text: target, status: match.rule.status };
  const notFound = await site.read(NOT_FOUND_FILE);
  return notFound === null ? null : { text: notFound, status: 404 };
}

/** A static file's response with the media type of a file that is not JSON (`_headers` gives every /api/ file the JSON one). */
export function withType(file: Response, type: string): Response {
  const headers = new Headers(file.headers);
  headers.set('content-type', type);
  return new Response(file.body, { status: file.status, headers });
}

/** A file that is not JSON (edge/routes.ts rawFileType), as its bytes with its media type; null when absent. */
async function rawFile(site: EdgeSite, pathname: string, type: string): Promise<Response | null> {
  const bytes = await site.readBytes!(pathname.slice(1));
  if (!bytes) return null;
  const headers = new Headers(staticHeaders(pathname));
  headers.set('content-type', type);
  return new Response(bytes, { status: 200, headers });
}

/** The response to a GET or HEAD of the static /api/ path `pathname` (as in the request, undecoded). */
export async function staticApiFile(site: EdgeSite, request: Request, pathname: string): Promise<Response> {
  const type = site.readBytes ? rawFileType(pathname) : null;
  const raw = type && (await rawFile(site, pathname, type));
  if (raw) return byteRange(request, (await withETag(request, raw))!);
  const found = await resolve(site, pathname);
  if (!found) return errorResponse(new HttpError(404, 'not found'));
  // Every file resolve() gives is JSON (the file, a rule's target, the JSON 404), whatever the path's own type.
  const headers = { ...staticHeaders(pathname), 'Content-Type': CONTENT_TYPES.json };
  return byteRange(request, (await withETag(request, new Response(found.text, { status: found.status, headers })))!);
}
