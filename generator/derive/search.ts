/**
 * The search stage (after render): for each searchable kind, its index (one column per
 * searchable value, generator/search/kinds.js) and its objects file (every object in the
 * index's row order, with where each one's JSON text lies), both built from the objects the
 * render stage published. A search reads the index to evaluate the query, then slices the
 * page of results out of the objects file without parsing any object. The objects file is
 * named by a hash of its content (the index names it), so an edge may keep it in memory:
 * a name never stands for other content.
 */
import { createHash } from 'node:crypto';
import { endpoints } from '../contract/endpoints.ts';
import { KINDS, buildIndex, type IndexContext, type Kind } from '../search/kinds.js';
import { addJson, jsonText, type SiteFiles } from '../render/files.ts';
import type { Rendered } from '../render/site.ts';

/** The text of an objects file: objects in order, then their offsets (UTF-16 units of the text). */
export function objectsText(objects: unknown[]): string {
  const offsets: [number, number][] = [];
  let text = '{"objects":[';
  objects.forEach((object, i) => {
    if (i) text += ',';
    const start = text.length;
    text += jsonText(object);
    offsets.push([start, text.length]);
  });
  return `${text}],"offsets":${JSON.stringify(offsets)}}`;
}

/** Each kind's objects in its index's row order (cards by ordinal, the others by id). */
function objectsOf(kind: Kind, { objects }: Rendered): unknown[] {
  switch (kind.name) {
    case 'card': return [...objects.card_t].sort((a, b) => a.ordinal - b.ordinal);
    case 'accessory': return objects.accessory_t;
    case 'event': return objects.event_t;
  }
}

export function publishSearch(rendered: Rendered, files: SiteFiles): void {
  const context: IndexContext = {
    characters: new Map(rendered.objects.char_t.map((c) => [c.id, c])),
    sets: new Map(rendered.sets.map((s) => [s.id, s.display_name])),
  };
  for (const kind of KINDS) {
    const objects = objectsOf(kind, rendered);
    const text = Buffer.from(objectsText(objects));
    const name = `${kind.name}.${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    files.set(endpoints.searchObjects.file(name), text);
    addJson(files, endpoints.searchIndex.file(kind.name), buildIndex(kind, objects, context, name));
  }
}
