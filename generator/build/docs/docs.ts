/**
 * Human documentation of the contract, generated from the declarations: the API reference
 * page (public/api.html), docs/api.md, docs/search.md and the route table of docs/hosts.md (kept equal by tests);
 * with the hosts' configuration that `npm run docs` writes too, each from its host's build/ folder.
 */
import { fileURLToPath } from 'node:url';
import { importGraphMermaid } from './importGraph.ts';
import { HAPPENING_PARAMETER, QUERY_PARAMETERS, SEARCH_PARAMETERS, VERSION_PARAMETER, allEndpoints, type Endpoint } from '../../contract/endpoints.ts';
import { components } from '../../contract/schemas.ts';
import { NETLIFY_FUNCTION_CONFIGS } from '../../hosts/netlify/build/functionConfig.ts';
import { WRANGLER_CONFIG } from '../../hosts/cloudflare/build/wranglerConfig.ts';
import { examplesMarkdown, searchMarkdown } from './searchDocs.ts';
import { EXAMPLES, exampleUrl } from '../../web/search/examples.js';

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
function fields(schema: Schema): [string, string, string][] {
  return Object.entries<Schema>(schema.properties ?? {}).map(([name, field]) => [name, typeOf(field), field.description ?? '']);
}

const host = (e: Endpoint) => ({ static: 'file', edge: 'edge', 'static+edge': 'file, edge for lists and queries' })[e.host];
/** Named object schemas with fields: the docs describe them field by field (not the generated per-type envelopes). */
const isDescribed = (name: string) => components[name]?.type === 'object' && !!components[name].properties && !/_(result|list|pack)$|Pack$/.test(name);
const described = () => Object.entries<Schema>(components).filter(([name]) => isDescribed(name));

/** A response by its described schema's name, else its shape in brief (`{result: (Card | null)[]}`). */
const responseName = (e: Endpoint) => (isDescribed(e.response) ? e.response : typeOf(components[e.response] as Schema));

/** A list of query parameters under its heading, each with what it does. */
const parameterList = (heading: string, parameters: Record<string, string>) =>
  ['', heading, '', ...Object.entries(parameters).map(([name, about]) => `- \`${name}\`: ${about}`)];

function apiMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const lines = [
    '| method | URL | response | served by | errors |',
    '| --- | --- | --- | --- | --- |',
    ...allEndpoints().map((e) => `| ${e.method.toUpperCase()} | \`${e.route}\` | ${cell(responseName(e))} | ${host(e)}${e.extra ? ' (extra)' : ''} | ${e.errors.join(', ') || '-'} |`),
    ...parameterList('Query parameters (every JSON GET route):', QUERY_PARAMETERS),
    ...parameterList('Object routes (`card/`, `accessory/`, `notes/`, `<type>/`, single ids and comma lists) also take ([versions.md](versions.md)):', VERSION_PARAMETER),
    ...parameterList('`happening/<time>` also takes:', HAPPENING_PARAMETER),
    ...parameterList('Search parameters (`search/<kind>`; `card/random.json` takes `q`), the language in [search.md](search.md):', SEARCH_PARAMETERS),
    '',
    'Search examples:',
    '',
    ...examplesMarkdown(),
  ];
  for (const [name, schema] of described()) {
    lines.push(`**${name}**${schema.description ? `: ${schema.description}` : ''}`, '');
    lines.push('| field | type | note |', '| --- | --- | --- |');
    for (const [field, type, note] of fields(schema)) lines.push(`| \`${field}\` | ${cell(type)} | ${cell(note)} |`);
    lines.push('');
  }
  return lines.join('\n');
}

/** What a host without an edge serves of an endpoint, and what only an edge answers. */
function withoutEdge(e: Endpoint): [string, string] {
  const queries = e.query.length ? 'query parameters' : '';
  if (e.host === 'edge') return ['nothing', 'every request'];
  if (e.host === 'static' || !e.parameters.length) return ['every request', queries || '-'];
  const file = `/${e.file!(...e.parameters.map((p) => `<${p.name === 'ids' ? 'id' : p.name.replace(/s$/, '')}>`))}`;
  return [`one id, at \`${file}\``, ['comma lists', 'ids with leading zeros', queries].filter(Boolean).join(', ')];
}

/** docs/hosts.md's table: per route, what a plain static host serves and what needs an edge. */
function hostsMarkdown(): string {
  const lines = [
    '| method | URL | a plain static host serves | needs an edge |',
    '| --- | --- | --- | --- |',
    ...allEndpoints().map((e) => `| ${e.method.toUpperCase()} | \`${e.route}\` | ${withoutEdge(e).join(' | ')} |`),
    '',
  ];
  return lines.join('\n');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const anchor = (name: string) => `schema-${name}`;
/** A type expression with links to the schemas it names. */
const linked = (type: string) => escapeHtml(type).replace(/\b[A-Z]\w*\b/g, (name) => (components[name] ? `<a href="#${anchor(name)}">${name}</a>` : name));

export function apiReferenceHtml(): string {
  const rows = allEndpoints().map((e) => `<tr><td>${e.method.toUpperCase()}</td><td><code>${escapeHtml(e.route)}</code></td>`
    + `<td>${escapeHtml(e.summary)}</td><td>${linked(responseName(e))}</td><td>${host(e)}${e.extra ? ' (extra)' : ''}</td><td>${e.errors.join(', ') || '-'}</td></tr>`);
  const schemas = described().map(([name, schema]) => `<section id="${anchor(name)}"><h3>${name}</h3>`
    + (schema.description ? `<p>${escapeHtml(schema.description)}</p>` : '')
    + '<table><thead><tr><th>field</th><th>type</th><th>note</th></tr></thead><tbody>'
    + fields(schema).map(([f, t, n]) => `<tr><td><code>${escapeHtml(f)}</code></td><td>${linked(t)}</td><td>${escapeHtml(n)}</td></tr>`).join('')
    + '</tbody></table></section>');
  const item = ([name, about]: [string, string]) => `<li><code>${name}</code>: ${escapeHtml(about)}</li>`;
  const query = Object.entries(QUERY_PARAMETERS).map(item).join('');
  const search = Object.entries(SEARCH_PARAMETERS).map(item).join('');
  const examples = EXAMPLES.map((e) => `<tr><td>${e.kind}</td><td><code>${escapeHtml(e.q)}</code></td><td>${e.order ? `${e.order} ${e.dir ?? 'asc'}` : '-'}</td>`
    + `<td>${escapeHtml(e.means)}</td><td><a href="api/v1/${escapeHtml(exampleUrl(e))}"><code>${escapeHtml(`/api/v1/${exampleUrl(e)}`)}</code></a></td></tr>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>SIF static data API: reference</title>
<link rel="stylesheet" href="site/style.css">
</head>
<body>
<main class="wrap reference">
<h1>API reference</h1>
<p><a href="index.html">Card browser</a> · <a href="api/v1/openapi.json">openapi.json</a> (OpenAPI 3.1). URLs are relative to the site root; every JSON response carries <code>Access-Control-Allow-Origin: *</code>; errors are <code>{"error": "message"}</code>.</p>
<h2>Endpoints</h2>
<table><thead><tr><th>method</th><th>URL</th><th>what</th><th>response</th><th>served by</th><th>errors</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<h2>Query parameters</h2>
<ul>${query}</ul>
<h2>Search</h2>
<p>Search parameters (<code>search/&lt;kind&gt;</code>; <code>card/random.json</code> takes <code>q</code>):</p>
<ul>${search}</ul>
<table><thead><tr><th>kind</th><th>query</th><th>order</th><th>finds</th><th>URL (needs the edge)</th></tr></thead><tbody>
${examples}
</tbody></table>
<h2>Shapes</h2>
${schemas.join('\n')}
</main>
</body>
</html>
`;
}

/** The generated sections of the docs: `npm run docs` writes them, a test checks they are current. */
export const GENERATED_DOCS = [
  { file: fileURLToPath(new URL('../../../docs/api.md', import.meta.url)), marker: 'api', generate: apiMarkdown },
  { file: fileURLToPath(new URL('../../../docs/search.md', import.meta.url)), marker: 'search', generate: searchMarkdown },
  { file: fileURLToPath(new URL('../../../docs/hosts.md', import.meta.url)), marker: 'hosts', generate: hostsMarkdown },
  ...NETLIFY_FUNCTION_CONFIGS,
  { file: fileURLToPath(new URL('../../../docs/architecture.md', import.meta.url)), marker: 'imports', generate: () => importGraphMermaid() },
];

/** Files generated whole from the declarations: `npm run docs` writes them, a test checks they are current. */
export const GENERATED_FILES = [WRANGLER_CONFIG];
