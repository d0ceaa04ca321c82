/** Renders every static response of the site from the model. */
import type { SiteFiles } from '../siteFiles.ts';
import type { RenderContext } from './context.ts';
import { renderCardEndpoints } from './cardEndpoints.ts';
import { renderSets, type RenderedSet } from './sets.ts';
import { renderPairs, type RenderedPair } from './pairs.ts';
import { renderAccessories } from './accessories.ts';
import { renderPage } from './page.ts';
import { objectTypesOf, renderObjects, type RenderedObjects } from './objects.ts';
import type { ObjectType } from '../../contract/endpoints.ts';
import type { PackedKindName } from '../../contract/kinds.ts';
import { renderHappening } from './happening.ts';
import { renderTranslations } from './translations.ts';
import { renderNotFound } from './notFound.ts';
import { renderContract } from './contract.ts';
import { renderHostRules } from '../../hosts/all/build/hostRules.ts';
import { renderNotes } from './songs.ts';
import type { NotesJson } from '../../contract/schemas.ts';

/** The published objects the derive stages build on (search index, ...), so none reads files back. */
export interface Rendered {
  objects: RenderedObjects;
  /** The generic types the site publishes (an optional kind's only with its database: contract/kinds.ts). */
  objectTypes: ObjectType[];
  /** set_list.json's entries, each with its set file's cards. */
  sets: RenderedSet[];
  /** pair_list.json's entries, each with its pair file's cards. */
  pairs: RenderedPair[];
  /**
   * The objects of each kind that lives in packs only (contract/kinds.ts `packedOnly`), in id order:
   * the charts' notes (what api/v1/notes/<id>.json answers), none without a live database or note files.
   */
  packed: { notes: NotesJson[] } & Record<PackedKindName, readonly object[]>;
  /** Minutes east of UTC of the export's calendar (info.json's timezone): the days a date search names. */
  timezoneOffset: number;
}

/**
 * Adds every JSON file and page of the site to `files` (see render/context.ts: only
 * published pictures are linked) and returns the published objects. `files` may be a map
 * that publishes each file as it is added (publish/staging.ts).
 */
export function renderSite(context: RenderContext, files: SiteFiles): Rendered {
  renderCardEndpoints(context, files);
  const sets = renderSets(context, files);
  const pairs = renderPairs(context, files);
  renderAccessories(context, files);
  const objects = renderObjects(context, files);
  const packed = { notes: renderNotes(context.model, files) };
  renderHappening(context, files);
  renderTranslations(context, files);
  renderNotFound(files);
  renderContract(files);
  renderHostRules(files);
  renderPage(files, context.images.host); // keep last: the page links the index files rendered above
  return { objects, objectTypes: objectTypesOf(context.model), sets, pairs, packed, timezoneOffset: context.model.timezoneOffset };
}
