/**
 * Netlify edge function for /api/* (declared below): the shared edge handler,
 * reading published files by fetching them from the site itself. Those reads are plain
 * static paths, for which the handler returns nothing, so they never recurse.
 */
import { handleRequest } from '../../generator/edge/handler.ts';

export default async function api(request: Request): Promise<Response | undefined> {
  const origin = new URL(request.url).origin;
  const read = async (path: string): Promise<string | null> => {
    const response = await fetch(new URL(`/${path}`, origin));
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) throw new Error(`reading /${path}: HTTP ${response.status}`);
    return response.text();
  };
  // undefined: Netlify continues the chain (redirects, headers, static files).
  return (await handleRequest(request, { read })) ?? undefined;
}

export const config = { path: '/api/*' };
