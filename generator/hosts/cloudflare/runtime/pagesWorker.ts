/**
 * Cloudflare entry, for a Worker with static assets (wrangler.json: the assets serve every file
 * at its path before the worker runs, so it sees only what no file answers and the paths
 * `run_worker_first` names, the lists, whose plain reads it passes on) and for Pages
 * (`_routes.json` sends it the /api/ paths that may need code): the build bundles it into the
 * site's `_worker.js` (hosts/all/build/hostRules.ts). It answers with the shared edge handler; where
 * that passes, Pages serves the static file (its ETag, `_headers`, streamed without the worker
 * holding it), given back with its own media type when it is not JSON. What Pages cannot
 * serve (a missing file, which it answers with 404.html, or a redirect of its own) gets what
 * every other host answers (edge/staticHost.ts: the JSON 404), since Pages skips the `_redirects`
 * rule that says so. The handler reads files through the assets binding too.
 */
import { handleRequest } from '../../../runtime/edge/handler.ts';
import { HttpError, errorResponse, notModified, ranCode } from '../../../runtime/edge/http.ts';
import { staticApiFile, withType } from '../../../runtime/edge/staticHost.ts';
import { rawFileType } from '../../../runtime/edge/routes.ts';
import { fetchBytesReader, fetchReader, namesAFile, type EdgeSite } from '../../../runtime/edge/siteReader.ts';
import { edgeKept } from '../../../runtime/edge/kept.ts';
import { isEdgePath } from '../../../runtime/edge/rewrites.ts';

interface Env {
  /** The site's static files (Pages' assets binding). */
  ASSETS: { fetch(request: Request | URL): Promise<Response> };
}

/** What this instance keeps between requests: a Worker's module is loaded once per instance, which serves one deploy. */
const KEPT = edgeKept();

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const assets = (file: URL) => env.ASSETS.fetch(file);
    // A Worker (or Pages) version serves one deploy: its files never change under it.
    const site = { read: fetchReader(assets, url.origin), readBytes: fetchBytesReader(assets, url.origin), immutable: true, kept: KEPT };
    if (!isEdgePath(url.pathname)) return pageOrNotFound(request, env);
    try {
      return ranCode((await handleRequest(request, site)) ?? (await servedByPages(request, env)) ?? await staticApiFile(without(site, url.pathname), request, url.pathname));
    } catch (error) {
      // Never an error page with a stack and the host's paths in it (what workerd answers to a thrown error).
      console.error(error);
      return ranCode(errorResponse(new HttpError(500, 'internal error')));
    }
  },
};

/**
 * A path outside /api/: the asset, else the site's 404.html with status 404 (a Worker's
 * assets answer a missing file with an empty 404; Pages answers with 404.html already).
 */
async function pageOrNotFound(request: Request, env: Env): Promise<Response> {
  const asset = await env.ASSETS.fetch(request);
  if (asset.status !== 404) return asset;
  const page = await env.ASSETS.fetch(new URL('/404.html', request.url));
  if (!page.ok) return asset;
  await asset.body?.cancel();
  return new Response(page.body, { status: 404, headers: page.headers });
}

/**
 * The site without the file at `pathname`: Pages was just asked for it and had none to give
 * (asked again, a path below a file, `info.json/x` or `info/x`, is an error under wrangler, not a 404).
 */
function without(site: EdgeSite, pathname: string): EdgeSite {
  const rel = pathname.slice(1);
  return {
    read: (path) => (path === rel ? Promise.resolve(null) : site.read(path)),
    readBytes: (path) => (path === rel ? Promise.resolve(null) : site.readBytes!(path)),
  };
}

/**
 * The static file as Pages serves it, or null when Pages has none to give (anything but a
 * 2xx). Asked without the client's validators and answered 304 here: Pages' own 304 leaves
 * out the ETag and keeps the JSON media type.
 */
async function servedByPages(request: Request, env: Env): Promise<Response | null> {
  const pathname = new URL(request.url).pathname;
  if (!namesAFile(pathname.slice(1))) return null; // a folder: Pages would answer with a page (/api/ with api.html)
  const unconditional = new Headers(request.headers);
  unconditional.delete('if-none-match');
  unconditional.delete('if-modified-since');
  const file = await env.ASSETS.fetch(new Request(request.url, { method: request.method, headers: unconditional }));
  if (!file.ok) {
    await file.body?.cancel();
    return null;
  }
  const type = rawFileType(pathname);
  return notModified(request, type ? withType(file, type) : file);
}
