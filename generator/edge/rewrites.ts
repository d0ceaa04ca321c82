/**
 * The static host's rules in Netlify's redirect syntax, the one source for the build's
 * `_redirects` and `_headers` (render/hostRules.ts), the local server and the Pages worker
 * (edge/staticHost.ts). Every route that can be a file is one (emit in render/files.ts), so the
 * only rule left is the JSON 404 for unknown /api/ paths. Like Netlify's unforced rules, a
 * rule only applies when no file exists at the requested path; the first matching rule wins.
 * Cloudflare Pages knows no status 404 in rules and skips this one with a warning; its
 * worker answers unknown /api/ paths itself, from the same list.
 */
import { NOT_FOUND_FILE } from '../contract/endpoints.ts';
import { EDGE_PATH, contentTypeBlocks } from '../contract/hostRouting.ts';
import { REVALIDATE } from './http.ts';

export { EDGE_PATH };
export const isEdgePath = (pathname: string) => pathname.startsWith(EDGE_PATH.slice(0, -1));

export interface StaticRule {
  from: string;
  to: string;
  status: 200 | 404;
}

export const STATIC_RULES: readonly StaticRule[] = [
  { from: EDGE_PATH, to: `/${NOT_FOUND_FILE}`, status: 404 },
];

/** The rule's target for `pathname` (a trailing `*` in `from` binds `:splat`), or null when it does not match. */
function matchRule(rule: StaticRule, pathname: string): string | null {
  if (!rule.from.endsWith('*')) return pathname === rule.from ? rule.to : null;
  const prefix = rule.from.slice(0, -1);
  if (!pathname.startsWith(prefix)) return null;
  return rule.to.replace(':splat', pathname.slice(prefix.length));
}

/** The first rule matching `pathname`, with its target. */
export function firstRule(pathname: string): { rule: StaticRule; target: string } | null {
  for (const rule of STATIC_RULES) {
    const target = matchRule(rule, pathname);
    if (target !== null) return { rule, target };
  }
  return null;
}

/**
 * Headers the host adds to static files (`_headers`; the edge handler sets its own): CORS on
 * every file, the revalidating cache policy under /api/, and each published file's media type
 * (contract/hostRouting.ts). The patterns do not repeat a header: Netlify would join two
 * matching values into one.
 */
export const STATIC_HEADERS: readonly { for: string; values: Readonly<Record<string, string>> }[] = [
  { for: '/*', values: { 'Access-Control-Allow-Origin': '*' } },
  { for: '/api/*', values: { 'Cache-Control': REVALIDATE } },
  ...contentTypeBlocks().map((block) => ({ for: block.for, values: { 'Content-Type': block.type } })),
];

/** Every static header for `pathname`, from all matching patterns. */
export function staticHeaders(pathname: string): Record<string, string> {
  const matches = (pattern: string) => (pattern.endsWith('*') ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern);
  return Object.assign({}, ...STATIC_HEADERS.filter((h) => matches(h.for)).map((h) => h.values));
}
