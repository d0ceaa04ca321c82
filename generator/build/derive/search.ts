/**
 * The search stage (after render): for each searchable kind, its index (one column per
 * searchable value, generator/web/search/kinds.js), built from the objects the render stage
 * published. A search reads the index to evaluate the query, then reads the page of results
 * from the objects' own files and packs, as comma lists do.
 */
import { endpoints } from '../../contract/endpoints.ts';
import { kindOfSearch } from '../../contract/kinds.ts';
import { KINDS, buildIndex, type IndexContext, type Kind } from '../../web/search/kinds.js';
import { addJson } from '../render/files.ts';
import type { SiteFiles } from '../siteFiles.ts';
import type { Rendered } from '../render/renderSite.ts';
/** Each kind's objects in its index's row order: its kind's objects (contract/kinds.ts), cards by ordinal, the others by id. */
function objectsOf(kind: Kind, { objects }: Rendered): unknown[] {
  const type = kindOfSearch(kind.name).objectType!;
  return type === 'card_t' ? [...objects.card_t].sort((a, b) => a.ordinal - b.ordinal) : objects[type];
}

export function deriveSearch(rendered: Rendered, files: SiteFiles): void {
  const context: IndexContext = {
    characters: new Map(rendered.objects.char_t.map((c) => [c.id, c])),
    sets: new Map(rendered.sets.map((s) => [s.id, s.display_name])),
    songs: new Map(rendered.objects.song_t.map((s) => [s.id, s])),
    offsetMinutes: rendered.timezoneOffset,
  };
  // A kind is searched only where the site publishes its objects (songs: an export with a live database).
  for (const kind of KINDS.filter((k) => rendered.objectTypes.includes(kindOfSearch(k.name).objectType!))) {
    addJson(files, endpoints.searchIndex.file(kind.name), buildIndex(kind, objectsOf(kind, rendered), context));
  }
}
