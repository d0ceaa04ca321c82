/**
 * The host configuration files at the site root, which hosts read and never serve: the
 * static host's rules (edge/rewrites.ts) as `_redirects` and `_headers`, the plain-text
 * files Netlify and Cloudflare Pages read, and for Pages the edge handler bundled as
 * `_worker.js` with `_routes.json` sending it the API paths. No host config repeats them.
 */
import { EDGE_PATH, STATIC_HEADERS, STATIC_RULES } from '../../../contract/hostRouting.ts';
import type { SiteFiles } from '../../../build/render/files.ts';
import { pagesRoutes } from '../../../contract/hostRouting.ts';
import { pagesWorkerBundle } from '../../cloudflare/build/workerBundle.ts';

const lines = (rows: string[]) => Buffer.from(rows.map((row) => `${row}\n`).join(''));

/**
 * The workerd behaviour the worker is written and tested for (`wrangler pages dev
 * --compatibility-date`); set the same date in the Pages project.
 */
export const PAGES_COMPATIBILITY_DATE = '2025-09-01';

/** The host configuration files by name: what hosts read and never serve (a mirror writes them anew, never copies them). */
const HOST_CONFIG: Record<string, () => Buffer> = {
  _redirects: () => lines(STATIC_RULES.map((rule) => `${rule.from}  ${rule.to}  ${rule.status}`)),
  _headers: () => lines(STATIC_HEADERS.flatMap((h) => [h.for, ...Object.entries(h.values).map(([name, value]) => `  ${name}: ${value}`)])),
  '_worker.js': pagesWorkerBundle,
  '_routes.json': () => Buffer.from(`${JSON.stringify(pagesRoutes(EDGE_PATH))}\n`),
  // A Worker with static assets (wrangler.jsonc) uploads the folder but these: the worker's own code and Pages' routes.
  '.assetsignore': () => lines(['_worker.js', '_routes.json']),
};

export const isHostConfigFile = (rel: string): boolean => Object.hasOwn(HOST_CONFIG, rel);

/** The bytes of the host configuration file `rel` as the build writes them (for the host limit check, hostFit.ts). */
export const hostConfigBytes = (rel: string): Buffer | undefined => (isHostConfigFile(rel) ? HOST_CONFIG[rel]() : undefined);

/** The host configuration files a site holds besides the ones it serves. */
export const hostConfigFiles = (): string[] => Object.keys(HOST_CONFIG);

export function renderHostRules(files: SiteFiles): void {
  for (const [rel, render] of Object.entries(HOST_CONFIG)) files.set(rel, render());
}
