/** api/404.json: the body the host serves, with status 404, for unknown /api/ paths. */
import { paths, type ErrorJson } from '../format.ts';
import { addJson, type SiteFiles } from './files.ts';

const NOT_FOUND: ErrorJson = { error: 'not found' };

export function renderNotFound(files: SiteFiles): void {
  addJson(files, paths.notFound(), NOT_FOUND);
}
