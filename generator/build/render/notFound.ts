/**
 * The site's answers for paths it does not have: api/404.json, the body the host serves with
 * status 404 for unknown /api/ paths, api/404.html the same for Cloudflare Pages, and 404.html
 * for any other path. Hosts serve 404.html
 * with status 404 (Netlify, Cloudflare Pages, most static hosts); without it Pages would
 * answer every missing path, its worker's reads included, with index.html and status 200.
 */
import { NOT_FOUND_FILE } from '../../contract/endpoints.ts';
import type { ErrorJson } from '../../contract/schemas.ts';
import { addJson } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';

const NOT_FOUND: ErrorJson = { error: 'not found' };

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found</title>
<p>Nothing is published at this address. <a href="/">The card browser</a> links every file of the API.</p>
</html>
`;

/**
 * Cloudflare Pages answers a missing file with the closest 404.html up its folders: under api/,
 * in the folders `_routes.json` keeps from the worker (packs, history, bulk parts...), this one,
 * the JSON 404's body (its media type is the folder's, from `_headers`, as on Netlify).
 */
const PAGES_API_NOT_FOUND = 'api/404.html';

export function renderNotFound(files: SiteFiles): void {
  addJson(files, NOT_FOUND_FILE, NOT_FOUND);
  // As a text file, ending in a line break (api/404.json does not).
  files.set(PAGES_API_NOT_FOUND, Buffer.from(`${JSON.stringify(NOT_FOUND)}\n`));
  files.set('404.html', Buffer.from(NOT_FOUND_PAGE));
}
