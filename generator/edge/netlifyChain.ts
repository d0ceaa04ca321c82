/**
 * The edge function's place in Netlify's chain (netlify/edge-functions/api.ts): the edge
 * handler's answer, else undefined so the chain goes on to the rewrites, headers and static
 * files. A file that is not JSON (the bulk downloads) goes on to its static file too, but is
 * given back with its own media type: `_headers` gives every /api/ file the JSON one, and
 * Netlify would join a second value to it rather than replace it.
 */
import { handleRequest } from './handler.ts';
import { rawFileType } from './routes.ts';
import type { EdgeSite } from './siteReader.ts';
import { withType } from './staticHost.ts';

export async function netlifyEdge(request: Request, site: EdgeSite, next: () => Promise<Response>): Promise<Response | undefined> {
  const answer = await handleRequest(request, site);
  if (answer) return answer;
  const type = rawFileType(new URL(request.url).pathname);
  if (!type) return undefined;
  const file = await next();
  return file.ok ? withType(file, type) : file;
}
