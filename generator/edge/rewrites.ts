/**
 * The static host's rules in Netlify's redirect syntax, the one source for the build's
 * `_redirects` and `_headers` (render/hostRules.ts), the local server and the Pages worker
 * (edge/staticHost.ts): declared routes that are not their file's path (`/api/v1/info`,
 * `/api/v1/list/<type>`) rewritten to that file, and a JSON 404 for any other unknown
 * /api/ path. Like Netlify's unforced rules, a rule only applies when no file exists at
 * the requested path; the first matching rule wins.
 *
 * Every rewrite is literal and names no published file, so it means the same on Cloudflare
 * Pages, which applies rules even where a file exists (a `card_t/*` splat would turn
 * `card_t/4.json` into `4.json.json` there). Routes with parameters (`<type>/<ids>`) are the
 * edge's. Pages refuses the 404 rule (it knows no status 404) and skips it with a warning;
 * its worker answers unknown /api/ paths itself, from the same list.
 */
import { NOT_FOUND_FILE, allEndpoints } from '../contract/endpoints.ts';
import { REVALIDATE } from './http.ts';

/** The paths the edge function answers (Netlify's function path, Pages' worker route): the API. */
export const EDGE_PATH = '/api/*';
export const isEdgePath = (pathname: string) => pathname.startsWith(EDGE_PATH.slice(0, -1));

export interface StaticRule {
  from: string;
  to: string;
  status: 200 | 404;
}

/** Literal GET routes whose file is elsewhere: the extensionless URLs of static files. */
const renamedFiles = (): StaticRule[] => allEndpoints().flatMap((endpoint) => {
  const file = endpoint.method === 'get' && endpoint.file && !endpoint.route.includes('{') ? `/${endpoint.file()}` : null;
  return file && file !== endpoint.route ? [{ from: endpoint.route, to: file, status: 200 as const }] : [];
});

export const STATIC_RULES: readonly StaticRule[] = [
  ...renamedFiles(),
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
