/** Renders every static response of the site from the model. */
import type { SiteFiles } from '../publish/siteFiles.ts';
import type { RenderContext } from './context.ts';
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

/**
 * Adds every JSON file and page of the site to `files` (see render/context.ts: only
 * published pictures are linked). `files` may be a map that publishes each file as it is
 * added (publish/staging.ts).
 */
export function renderSite(context: RenderContext, files: SiteFiles = new Map()): SiteFiles {
  renderCardEndpoints(context, files);
  renderSets(context, files);
  renderPairs(context, files);
  renderAccessories(context, files);
  renderObjects(context, files);
  renderHappening(context, files);
  renderTranslations(context, files);
  renderNotFound(files);
  renderContract(files);
  renderHostRules(files);
  renderPage(files); // keep last: the page links the index files rendered above
  return files;
}
