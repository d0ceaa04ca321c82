/**
 * The host configuration files at the site root, which hosts read and never serve: the
 * static host's rules (edge/rewrites.ts) as `_redirects` and `_headers`, the plain-text
 * files Netlify and Cloudflare Pages read, and Cloudflare's own (cloudflare/build/siteFiles.ts:
 * the bundled `_worker.js`, `_routes.json`). No host config repeats them.
 */
import { STATIC_HEADERS, STATIC_RULES } from '../../../contract/hostRouting.ts';
import type { SiteFiles } from '../../../build/siteFiles.ts';
import { CLOUDFLARE_FILES } from '../../cloudflare/build/siteFiles.ts';

const lines = (rows: string[]) => Buffer.from(rows.map((row) => `${row}\n`).join(''));

/** The host configuration files by name: what hosts read and never serve (a mirror writes them anew, never copies them). */
const HOST_CONFIG: Record<string, () => Buffer> = {
  _redirects: () => lines(STATIC_RULES.map((rule) => `${rule.from}  ${rule.to}  ${rule.status}`)),
  _headers: () => lines(STATIC_HEADERS.flatMap((h) => [h.for, ...Object.entries(h.values).map(([name, value]) => `  ${name}: ${value}`)])),
  ...CLOUDFLARE_FILES,
};

export const isHostConfigFile = (rel: string): boolean => Object.hasOwn(HOST_CONFIG, rel);

/** The bytes of the host configuration file `rel` as the build writes them (for the host limit check, hostFit.ts). */
export const hostConfigBytes = (rel: string): Buffer | undefined => (isHostConfigFile(rel) ? HOST_CONFIG[rel]() : undefined);

/** The host configuration files a site holds besides the ones it serves. */
export const hostConfigFiles = (): string[] => Object.keys(HOST_CONFIG);

export function renderHostRules(files: SiteFiles): void {
  for (const [rel, render] of Object.entries(HOST_CONFIG)) files.set(rel, render());
}
