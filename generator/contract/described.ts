/**
 * The declarations in words, for the human documentation: a schema as a short type expression,
 * an object schema's fields, the named schemas described field by field, and where each endpoint
 * is served. Shared by the published API reference page (render/apiReference.ts) and the
 * repository's generated docs (build/docs/docs.ts), so the two never describe a shape differently.
 */
import type { Endpoint } from './endpoints.ts';
import { components } from './schemas.ts';

type Schema = Record<string, any>;

/** A schema as a short type expression: `Card`, `integer | null`, `string[]`, `{n_count, ...}`. */
function typeOf(schema: Schema): string {
  if (schema.$ref) return String(schema.$ref).split('/').pop()!;
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  if (schema.type === 'array') {
    const item = typeOf(schema.items);
    return item.includes(' ') ? `(${item})[]` : `${item}[]`;
  }
  if (schema.type === 'object' && schema.properties) {
    return `{${Object.entries<Schema>(schema.properties).map(([k, v]) => (v.type === 'object' ? k : `${k}: ${typeOf(v)}`)).join(', ')}}`;
  }
  if (schema.type === 'object' && schema.patternProperties) return `{string: ${typeOf(Object.values(schema.patternProperties)[0] as Schema)}}`;
  // A schema without a type (TypeBox's Unknown) takes any JSON value.
  return schema.type === undefined ? 'any' : String(schema.type);
}

/** Field rows of an object schema: name, type, note. */
export function fields(schema: Schema): [string, string, string][] {
  return Object.entries<Schema>(schema.properties ?? {}).map(([name, field]) => [name, typeOf(field), field.description ?? '']);
}

/** Where an endpoint is served, in words. */
export const servedBy = (e: Endpoint) => ({ static: 'file', edge: 'edge', 'static+edge': 'file, edge for lists and queries' })[e.host];

/** Named object schemas with fields: the docs describe them field by field (not the generated per-type envelopes). */
const isDescribed = (name: string) => components[name]?.type === 'object' && !!components[name].properties && !/_(result|list|pack)$|Pack$/.test(name);
export const described = () => Object.entries<Schema>(components).filter(([name]) => isDescribed(name));

/** A response by its described schema's name, else its shape in brief (`{result: (Card | null)[]}`). */
export const responseName = (e: Endpoint) => (isDescribed(e.response) ? e.response : typeOf(components[e.response] as Schema));
