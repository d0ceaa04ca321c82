/** Renders every static response of the site from the model. */
import type { Model } from '../model/buildModel.ts';
import type { SiteFiles } from './files.ts';
import { renderCardEndpoints } from './cardEndpoints.ts';
import { renderSets } from './sets.ts';
import { renderPairs } from './pairs.ts';
import { renderAccessories } from './accessories.ts';
import { renderPage } from './page.ts';
import { renderObjects } from './objects.ts';
import { renderHappening } from './happening.ts';
import { renderTranslations } from './translations.ts';
import { renderNotFound } from './notFound.ts';
import { renderContract } from './contract.ts';
import { renderHostRules } from './hostRules.ts';

/** `files` may be a map that publishes each file as it is added (publish/staging.ts). */
export function renderSite(model: Model, files: SiteFiles = new Map()): SiteFiles {
  renderCardEndpoints(model, files);
  renderSets(model, files);
  renderPairs(model, files);
  renderAccessories(model, files);
  renderObjects(model, files);
  renderHappening(model, files);
  renderTranslations(model, files);
  renderNotFound(files);
  renderContract(files);
  renderHostRules(files);
  renderPage(files); // keep last: the page links the index files rendered above
  return files;
}
