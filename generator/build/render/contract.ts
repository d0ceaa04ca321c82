/** The contract itself: api/v1/openapi.json and the human API reference page, both from the declarations. */
import { endpoints } from '../../contract/endpoints.ts';
import { openApiDocument } from './openapi.ts';
import { apiReferenceHtml } from './apiReference.ts';
import { emit } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';

const API_REFERENCE_PAGE = 'api.html';

export function renderContract(files: SiteFiles): void {
  emit(files, endpoints.openapi, [], openApiDocument());
  files.set(API_REFERENCE_PAGE, Buffer.from(apiReferenceHtml()));
}
