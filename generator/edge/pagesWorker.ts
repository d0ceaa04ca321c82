/**
 * Cloudflare Pages entry: the build bundles it into the site's `_worker.js` (render/hostRules.ts),
 * and `_routes.json` sends it only /api/ requests. It answers with the shared edge handler and,
 * where that passes, serves the static file itself (edge/staticHost.ts) with the same rules,
 * headers and validators as the local server: Pages would apply `_redirects` even where a file
 * exists. Files are read through the assets binding, which answers a missing file with the
 * site's 404.html (status 404) rather than index.html.
 */
import { handleRequest } from './handler.ts';
import { staticApiFile } from './staticHost.ts';
import { fetchBytesReader, fetchReader } from './site.ts';
import { isEdgePath } from './rewrites.ts';

interface Env {
  /** The site's static files (Pages' assets binding). */
  ASSETS: { fetch(request: Request | URL): Promise<Response> };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const assets = (file: URL) => env.ASSETS.fetch(file);
    const site = { read: fetchReader(assets, url.origin), readBytes: fetchBytesReader(assets, url.origin) };
    if (!isEdgePath(url.pathname)) return env.ASSETS.fetch(request);
    return (await handleRequest(request, site)) ?? staticApiFile(site, request, url.pathname);
  },
};
