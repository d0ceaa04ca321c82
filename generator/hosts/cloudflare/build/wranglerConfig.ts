/**
 * wrangler.json as `npm run docs` writes it: the repository's file, with `run_worker_first` (the
 * paths a Worker with static assets runs its code for before any file) derived from the routing
 * table (contract/hostRouting.ts). JSON has no comments to mark a section, so the file is written whole.
 */
import { fileURLToPath } from 'node:url';
import { workerFirstPaths } from '../../../contract/hostRouting.ts';

export const WRANGLER_CONFIG = {
  file: fileURLToPath(new URL('../../../../wrangler.json', import.meta.url)),
  generate: (current: string): string => {
    const config = JSON.parse(current) as { assets: Record<string, unknown> };
    return `${JSON.stringify({ ...config, assets: { ...config.assets, run_worker_first: workerFirstPaths() } }, null, 2)}\n`;
  },
};
