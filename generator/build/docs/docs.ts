/**
 * The repository's documentation of the contract, generated from the declarations: docs/api.md,
 * docs/search.md, the route table of docs/hosts.md and the import graph of docs/architecture.md
 * (kept equal by tests), with the hosts' configuration that `npm run docs` writes too, each from
 * its host's build/ folder. The published API reference page is the build's (render/apiReference.ts).
 */
import { fileURLToPath } from 'node:url';
import { importGraphMermaid } from './importGraph.ts';
import { HAPPENING_PARAMETER, QUERY_PARAMETERS, SEARCH_PARAMETERS, VERSION_PARAMETER, allEndpoints, type Endpoint } from '../../contract/endpoints.ts';
import { described, fields, responseName, servedBy } from '../../contract/described.ts';
import { NETLIFY_FUNCTION_CONFIGS } from '../../hosts/netlify/build/functionConfig.ts';
import { WRANGLER_CONFIG } from '../../hosts/cloudflare/build/wranglerConfig.ts';
import { examplesMarkdown, searchMarkdown } from './searchDocs.ts';

/** A list of query parameters under its heading, each with what it does. */
const parameterList = (heading: string, parameters: Record<string, string>) =>
  ['', heading, '', ...Object.entries(parameters).map(([name, about]) => `- \`${name}\`: ${about}`)];

function apiMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const lines = [
    '| method | URL | response | served by | errors |',
    '| --- | --- | --- | --- | --- |',
    ...allEndpoints().map((e) => `| ${e.method.toUpperCase()} | \`${e.route}\` | ${cell(responseName(e))} | ${servedBy(e)}${e.extra ? ' (extra)' : ''} | ${e.errors.join(', ') || '-'} |`),
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
