/** The human API reference page the site publishes (api.html), from the declarations. */
import { QUERY_PARAMETERS, SEARCH_PARAMETERS, allEndpoints } from '../../contract/endpoints.ts';
import { components } from '../../contract/schemas.ts';
import { described, fields, responseName, servedBy } from '../../contract/described.ts';
import { EXAMPLES, exampleUrl } from '../../web/search/examples.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const anchor = (name: string) => `schema-${name}`;
/** A type expression with links to the schemas it names. */
const linked = (type: string) => escapeHtml(type).replace(/\b[A-Z]\w*\b/g, (name) => (components[name] ? `<a href="#${anchor(name)}">${name}</a>` : name));

/** public/api.html: every endpoint, query and search parameter, the search examples linked, and every described shape. */
export function apiReferenceHtml(): string {
  const rows = allEndpoints().map((e) => `<tr><td>${e.method.toUpperCase()}</td><td><code>${escapeHtml(e.route)}</code></td>`
    + `<td>${escapeHtml(e.summary)}</td><td>${linked(responseName(e))}</td><td>${servedBy(e)}${e.extra ? ' (extra)' : ''}</td><td>${e.errors.join(', ') || '-'}</td></tr>`);
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
