/** Responses of the edge handler: JSON with the headers every response keeps (SPEC 6), and errors. */
import type { ErrorJson } from '../format.ts';

/** A request the handler refuses: status and message become `{"error": message}`. */
export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
}

/**
 * Cache policy of API responses, static and computed: any cache may keep them but must ask
 * the origin (a cheap 304 by ETag) before reusing them, so nothing stale outlives a deploy.
 */
export const REVALIDATE = 'public, max-age=0, must-revalidate';

const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'access-control-allow-origin': '*',
};

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function errorResponse(error: HttpError): Response {
  const body: ErrorJson = { error: error.message };
  return jsonResponse(body, error.status, error.headers);
}

export const methodNotAllowed = (method: string, allow: string) =>
  new HttpError(405, `method ${method} is not allowed here (allowed: ${allow})`, { allow });

/** The CORS preflight: any origin may call every route, read_tl's POST included. */
export function preflight(request: Request): Response {
  const asked = request.headers.get('access-control-request-headers');
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
      'access-control-allow-headers': asked && /^[\w\s,-]+$/.test(asked) ? asked : 'Content-Type',
      'access-control-max-age': '86400',
    },
  });
}
