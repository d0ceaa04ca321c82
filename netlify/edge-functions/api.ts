/**
 * Netlify edge function for /api/* (declared below): the shared edge handler in Netlify's
 * chain (generator/edge/netlifyChain.ts), reading published files by fetching them from the
 * site itself. Those reads are plain static paths, for which the handler returns nothing,
 * so they never recurse.
 */
import { netlifyEdge } from '../../generator/edge/netlifyChain.ts';
import { fetchBytesReader, fetchReader } from '../../generator/edge/siteReader.ts';

/** What this function uses of Netlify's context: the rest of the chain. */
interface Context {
  next(): Promise<Response>;
}

export default function api(request: Request, context: Context): Promise<Response | undefined> {
  const origin = new URL(request.url).origin;
  const site = { read: fetchReader((url) => fetch(url), origin), readBytes: fetchBytesReader((url) => fetch(url), origin) };
  return netlifyEdge(request, site, () => context.next());
}

// Literal, as Netlify reads it without running the module; test/routes.test.ts checks it is EDGE_PATH.
export const config = { path: '/api/*' };
