/**
 * The edge's routes are the declared ones (contract/endpoints.ts): each route template
 * becomes a matcher in which `{name}` binds one part of a path segment. Literal routes
 * (card/random.json, card/set_list.json) win over templates (card/{ordinals}.json).
 */
import { allEndpoints, contentTypeOf, type Endpoint } from '../../contract/endpoints.ts';

interface Matcher {
  endpoint: Endpoint;
  pattern: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A parameter with declared values matches only those; any other one part of a segment. */
function matcher(endpoint: Endpoint): Matcher {
  const values = (name: string) => endpoint.parameters.find((p) => p.name === name)?.values;
  const source = endpoint.route.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (!name) return escape(part);
    return `(?<${name}>${values(name)?.map(escape).join('|') ?? '[^/]+'})`;
  }).join('');
  return { endpoint, pattern: new RegExp(`^${source}$`) };
}

const isLiteral = (endpoint: Endpoint) => !endpoint.route.includes('{');
const ALL = allEndpoints();
const MATCHERS: Matcher[] = [...ALL.filter(isLiteral), ...ALL.filter((e) => !isLiteral(e))].map(matcher);

/** The declared endpoint of a (decoded) request path and its parameters, or null. */
export function matchRoute(path: string): { endpoint: Endpoint; params: Record<string, string> } | null {
  for (const { endpoint, pattern } of MATCHERS) {
    const match = pattern.exec(path);
    if (match) return { endpoint, params: { ...match.groups } };
  }
  return null;
}

/** Declared files that are not JSON (the bulk downloads) are served byte for byte: their media type, else null. */
export function rawFileType(path: string): string | null {
  const endpoint = matchRoute(path)?.endpoint;
  return endpoint?.format && endpoint.format !== 'json' ? contentTypeOf(endpoint) : null;
}
