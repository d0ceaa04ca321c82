/** api/404.json: the body the host serves, with status 404, for unknown /api/ paths. */
import { NOT_FOUND_FILE } from '../contract/endpoints.ts';
import type { ErrorJson } from '../contract/schemas.ts';
import { addJson, type SiteFiles } from './files.ts';

const NOT_FOUND: ErrorJson = { error: 'not found' };

export function renderNotFound(files: SiteFiles): void {
  addJson(files, NOT_FOUND_FILE, NOT_FOUND);
}
