/**
 * The static host's rules and headers (contract/hostRouting.ts declares them, the build writes
 * them as `_redirects` and `_headers`) as the local server and the Cloudflare worker apply them
 * (edge/staticHost.ts): like Netlify's unforced rules, a rule only applies when no file exists
 * at the requested path; the first matching rule wins.
 */
import { EDGE_PATH, STATIC_HEADERS, STATIC_RULES, type StaticRule } from '../../contract/hostRouting.ts';

export const isEdgePath = (pathname: string) => pathname.startsWith(EDGE_PATH.slice(0, -1));

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

/** Every static header for `pathname`, from all matching patterns. */
export function staticHeaders(pathname: string): Record<string, string> {
  const matches = (pattern: string) => (pattern.endsWith('*') ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern);
  return Object.assign({}, ...STATIC_HEADERS.filter((h) => matches(h.for)).map((h) => h.values));
}
