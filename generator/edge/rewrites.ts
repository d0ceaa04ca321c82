/**
 * The static host's rules in Netlify's redirect syntax, the one source for the build's
 * `_redirects` and `_headers` (render/hostRules.ts) and for the local server: extensionless
 * URLs rewritten to their .json files, and a JSON 404 for any other unknown /api/ path.
 * Like Netlify's unforced rules, a rule only applies when no file exists at the requested
 * path; the first matching rule wins.
 */
import { NOT_FOUND_FILE, OBJECT_TYPE_NAMES, endpoints } from '../contract/endpoints.ts';
import { REVALIDATE } from './http.ts';

export interface StaticRule {
  from: string;
  to: string;
  status: 200 | 404;
}

export const STATIC_RULES: readonly StaticRule[] = [
  { from: '/api/v1/info', to: `/${endpoints.info.file()}`, status: 200 },
  { from: '/api/v1/list/*', to: '/api/v1/list/:splat.json', status: 200 },
  ...OBJECT_TYPE_NAMES.map((type): StaticRule => ({ from: `/api/v1/${type}/*`, to: `/api/v1/${type}/:splat.json`, status: 200 })),
  { from: '/api/*', to: `/${NOT_FOUND_FILE}`, status: 404 },
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
 * Headers the host adds to static files (`_headers`; the edge handler sets its own).
 * The patterns do not repeat a header: Netlify would join two matching values into one.
 */
export const STATIC_HEADERS: readonly { for: string; values: Readonly<Record<string, string>> }[] = [
  { for: '/*', values: { 'Access-Control-Allow-Origin': '*' } },
  { for: '/api/*', values: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': REVALIDATE } },
];

/** Every static header for `pathname`, from all matching patterns. */
export function staticHeaders(pathname: string): Record<string, string> {
  const matches = (pattern: string) => (pattern.endsWith('*') ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern);
  return Object.assign({}, ...STATIC_HEADERS.filter((h) => matches(h.for)).map((h) => h.values));
}
