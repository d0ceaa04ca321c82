/**
 * The site's answers for paths it does not have: api/404.json, the body the host serves with
 * status 404 for unknown /api/ paths, and 404.html for any other path. Hosts serve 404.html
 * with status 404 (Netlify, Cloudflare Pages, most static hosts); without it Pages would
 * answer every missing path, its worker's reads included, with index.html and status 200.
 */
import { NOT_FOUND_FILE } from '../../contract/endpoints.ts';
import type { ErrorJson } from '../../contract/schemas.ts';
import { addJson, type SiteFiles } from './files.ts';

const NOT_FOUND: ErrorJson = { error: 'not found' };

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found</title>
<p>Nothing is published at this address. <a href="/">The card browser</a> links every file of the API.</p>
</html>
`;

export function renderNotFound(files: SiteFiles): void {
  addJson(files, NOT_FOUND_FILE, NOT_FOUND);
  files.set('404.html', Buffer.from(NOT_FOUND_PAGE));
}
