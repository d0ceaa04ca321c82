/**
 * `_redirects` and `_headers` at the site root: the static host's rules (edge/rewrites.ts)
 * in the plain-text format Netlify and Cloudflare Pages read, so no host config repeats them.
 */
import { STATIC_HEADERS, STATIC_RULES } from '../edge/rewrites.ts';
import type { SiteFiles } from './files.ts';

const lines = (rows: string[]) => Buffer.from(rows.map((row) => `${row}\n`).join(''));

export function renderHostRules(files: SiteFiles): void {
  files.set('_redirects', lines(STATIC_RULES.map((rule) => `${rule.from}  ${rule.to}  ${rule.status}`)));
  files.set('_headers', lines(STATIC_HEADERS.flatMap((h) => [h.for, ...Object.entries(h.values).map(([name, value]) => `  ${name}: ${value}`)])));
}
