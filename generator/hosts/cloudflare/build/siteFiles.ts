/**
 * What the build writes into a site for Cloudflare alone, beside the rule files Netlify reads too
 * (all/build/hostRules.ts): the worker bundled as `_worker.js`, Pages' `_routes.json` sending it
 * the API paths, and the `.assetsignore` that keeps both out of a Worker's static assets.
 */
import { EDGE_PATH, pagesRoutes } from '../../../contract/hostRouting.ts';
import { pagesWorkerBundle } from './workerBundle.ts';

/**
 * The workerd behaviour the worker is written and tested for (`wrangler pages dev
 * --compatibility-date`); set the same date in the Pages project.
 */
export const PAGES_COMPATIBILITY_DATE = '2025-09-01';

/** Cloudflare's files by name, each rendered when the site is. */
export const CLOUDFLARE_FILES: Record<string, () => Buffer> = {
  '_worker.js': pagesWorkerBundle,
  '_routes.json': () => Buffer.from(`${JSON.stringify(pagesRoutes(EDGE_PATH))}\n`),
  // A Worker with static assets (wrangler.json) uploads the folder but these: the worker's own code and Pages' routes.
  '.assetsignore': () => Buffer.from('_worker.js\n_routes.json\n'),
};
