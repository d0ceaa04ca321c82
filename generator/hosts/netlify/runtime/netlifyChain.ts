/**
 * The edge function's place in Netlify's chain (edge-functions/api.ts): the edge
 * handler's answer, else the rest of the chain (rewrites, headers, static files). The function
 * runs only for paths no published file has (its excludedPath lists them), so what the chain
 * finds there is the JSON 404 rule, answered as every host answers it; a file of another
 * format is given back with its own media type.
 */
import { handleRequest } from '../../../runtime/edge/handler.ts';
import { isEdgePath } from '../../../runtime/edge/rewrites.ts';
import { REVALIDATE } from '../../../contract/hostRouting.ts';
import { HttpError, errorResponse, ranCode } from '../../../runtime/edge/http.ts';
import { rawFileType } from '../../../runtime/edge/routes.ts';
import type { EdgeSite } from '../../../runtime/edge/siteReader.ts';
import { withType } from '../../../runtime/edge/staticHost.ts';

export async function netlifyEdge(request: Request, site: EdgeSite, next: () => Promise<Response>): Promise<Response | undefined> {
  const answer = await handleRequest(request, site);
  if (answer) return answer;
  const { pathname } = new URL(request.url);
  const type = rawFileType(pathname);
  const file = await next();
  if (file.status === 404 && isEdgePath(pathname)) {
    // No file at a path the function runs for (published files are excluded from it): the JSON 404 with its own media type.
    await file.body?.cancel();
    return ranCode(errorResponse(new HttpError(404, 'not found', { 'cache-control': REVALIDATE })));
  }
  return ranCode(type && file.ok ? withType(file, type) : file);
}
