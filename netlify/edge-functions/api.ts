/**
 * Netlify edge function for /api/* (declared below): the shared edge handler,
 * reading published files by fetching them from the site itself. Those reads are plain
 * static paths, for which the handler returns nothing, so they never recurse.
 */
import { handleRequest } from '../../generator/edge/handler.ts';
import { fetchReader } from '../../generator/edge/site.ts';

export default async function api(request: Request): Promise<Response | undefined> {
  const read = fetchReader((url) => fetch(url), new URL(request.url).origin);
  // undefined: Netlify continues the chain (redirects, headers, static files).
  return (await handleRequest(request, { read })) ?? undefined;
}

// Literal, as Netlify reads it without running the module; test/routes.test.ts checks it is EDGE_PATH.
export const config = { path: '/api/*' };
