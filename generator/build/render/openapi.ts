/** openapi.json (OpenAPI 3.1), derived from the endpoint declarations and their schemas. */
import { API_MAJOR, API_REVISION } from '../../contract/format.ts';
import { HAPPENING_PARAMETER, QUERY_PARAMETERS, SEARCH_PARAMETERS, VERSION_PARAMETER, allEndpoints, contentTypeOf, type Endpoint, type QueryParameter } from '../../contract/endpoints.ts';
import { components } from '../../contract/schemas.ts';

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed request (id, time, query value, body or path)',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request body too large',
};

const QUERY_DESCRIPTIONS: Record<QueryParameter, string> = {
  ...QUERY_PARAMETERS,
  ...SEARCH_PARAMETERS,
  ...VERSION_PARAMETER,
  ...HAPPENING_PARAMETER,
};

const ERROR = { $ref: '#/components/schemas/Error' };
const json = (schema: object) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Parameter names of a route template, in order. */
const templateNames = (route: string) => [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

function operation(endpoint: Endpoint) {
  const path = endpoint.parameters.map((p) => ({ name: p.name, in: 'path', required: true, description: p.description, schema: { type: 'string' } }));
  const query = endpoint.query.map((name) => ({ name, in: 'query', required: false, description: QUERY_DESCRIPTIONS[name], schema: { type: 'string' } }));
  const hosts = { static: 'A static file.', edge: 'Answered by the edge function.', 'static+edge': 'A static file; lists, non-canonical ids and query parameters are answered by the edge function.' };
  return {
    summary: endpoint.summary,
    description: `${hosts[endpoint.host]}${endpoint.extra ? ' Beyond the original services.' : ''}`,
    ...(path.length || query.length ? { parameters: [...path, ...query] } : {}),
    ...(endpoint.requestBody ? { requestBody: { required: true, content: json(ref(endpoint.requestBody)) } } : {}),
    responses: {
      200: { description: 'OK', content: { [contentTypeOf(endpoint).split(';')[0]]: { schema: ref(endpoint.response) } } },
      ...Object.fromEntries(endpoint.errors.map((status) => [status, { description: STATUS_TEXT[status], content: json(ERROR) }])),
    },
  };
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of allEndpoints()) {
    const declared = endpoint.parameters.map((p) => p.name).join();
    if (declared !== templateNames(endpoint.route).join()) throw new Error(`${endpoint.route}: parameters do not match the template`);
    (paths[endpoint.route] ??= {})[endpoint.method] = operation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'SIF static data API',
      version: `${API_MAJOR}.${API_REVISION}`,
      description: 'Master data of Love Live! School Idol Festival as static JSON files, shaped as the original card and object APIs (sif.kirara.ca, starlight.kirara.ca). Every JSON response carries Access-Control-Allow-Origin: *; unknown /api/ paths answer a JSON 404.',
    },
    paths,
    components: { schemas: components },
  };
}
