/**
 * Literal routes whose file has an extension the route lacks (`/api/v1/info`,
 * `/api/v1/list/<type>`) are published a second time under the route itself, so every host
 * serves them as files: a plain static host with no rules or edge, and Cloudflare Pages,
 * which would apply a rewrite even where a file exists. Only parameterized routes need an edge.
 */
import { allEndpoints } from '../contract/endpoints.ts';
import type { SiteFiles } from './files.ts';

export function renderRouteFiles(files: SiteFiles): void {
  for (const endpoint of allEndpoints()) {
    if (endpoint.method !== 'get' || !endpoint.file || endpoint.route.includes('{')) continue;
    const [route, file] = [endpoint.route.slice(1), endpoint.file()];
    const bytes = files.get(file);
    if (route !== file && bytes) files.set(route, bytes);
  }
}
