/**
 * Validators of the JSON responses a site publishes, built from its own openapi.json (the
 * contract and change-list tests). The document is added once and each response schema compiled
 * where it stands in it, so each component is compiled once for all endpoints instead of into
 * each. Components as functions of their own, no optimizing pass over the generated code:
 * measured on the 4,000-card site, each saves more compile time than it adds to the validating.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { allEndpoints, type Endpoint } from '../generator/contract/endpoints.ts';

const OPENAPI = 'openapi.json';

function validators(openapi: any): Map<Endpoint, ValidateFunction> {
  const ajv = new Ajv2020({ strict: false, allErrors: false, inlineRefs: false, code: { optimize: false } });
  ajv.addSchema(openapi, OPENAPI);
  const pointer = (...keys: string[]) => keys.map((key) => key.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  // JSON files only: the bulk downloads of other formats are checked by test/build/bulk.test.ts.
  return new Map(allEndpoints().filter((e) => e.file && (e.format ?? 'json') === 'json').map((endpoint) => {
    const keys = ['paths', endpoint.route, endpoint.method, 'responses', '200', 'content', 'application/json', 'schema'];
    ajv.validateSchema(keys.reduce((node, key) => node[key], openapi), true);
    return [endpoint, ajv.getSchema(`${OPENAPI}#/${pointer(...keys)}`)!];
  }));
}

/** Validators by the text of the openapi.json they were built from: sites publishing the same document share them (compiling costs more than validating a site). */
const validatorsOf = new Map<string, Map<Endpoint, ValidateFunction>>();

/** The validator of each static JSON endpoint's response, from the text of a site's openapi.json. */
export function responseValidators(openapiText: string): Map<Endpoint, ValidateFunction> {
  if (!validatorsOf.has(openapiText)) validatorsOf.set(openapiText, validators(JSON.parse(openapiText)));
  return validatorsOf.get(openapiText)!;
}
