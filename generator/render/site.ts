/** Renders every static response of the site from the model. */
import type { Model } from '../model/buildModel.ts';
import type { SiteFiles } from './files.ts';
import { renderCardEndpoints } from './cardEndpoints.ts';

export function renderSite(model: Model): SiteFiles {
  const files: SiteFiles = new Map();
  renderCardEndpoints(model, files);
  return files;
}
