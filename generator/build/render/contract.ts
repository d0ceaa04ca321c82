/** The contract itself: api/v1/openapi.json and the human API reference page, both from the declarations. */
import { endpoints } from '../../contract/endpoints.ts';
import { openApiDocument } from './openapi.ts';
import { apiReferenceHtml } from './apiReference.ts';
import { emit, shareJson } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';

const API_REFERENCE_PAGE = 'api.html';

/**
 * Both documents, made once per process: they follow from the declarations alone, the same for
 * every site (a process that builds many, the tests, made them again for each: 6 ms of the
 * sample's 68 in a profile).
 */
let contract: { openapi: ReturnType<typeof openApiDocument>; page: Buffer } | undefined;

export function renderContract(files: SiteFiles): void {
  contract ??= { openapi: shareJson(openApiDocument()), page: Buffer.from(apiReferenceHtml()) };
  emit(files, endpoints.openapi, [], contract.openapi);
  files.set(API_REFERENCE_PAGE, contract.page);
}
