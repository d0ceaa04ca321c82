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
import { addJson, jsonBytes, type SiteFiles } from '../render/files.ts';
import type { Rendered } from '../render/renderSite.ts';

/**
 * An objects file: the objects in order, then their offsets in UTF-16 units of the file's text
 * (what the edge slices). Built from each object's bytes (shared cards' are spliced as they
 * are); only the lengths need their text.
 */
export function objectsFile(objects: unknown[]): Buffer {
  const offsets: [number, number][] = [];
  const head = '{"objects":[';
  const parts: Buffer[] = [Buffer.from(head)];
  let at = head.length;
  objects.forEach((object, i) => {
    if (i) {
      parts.push(COMMA);
      at += 1;
    }
    const bytes = jsonBytes(object);
    parts.push(bytes);
    offsets.push([at, (at += bytes.toString('utf8').length)]);
  });
  parts.push(Buffer.from(`],"offsets":${JSON.stringify(offsets)}}`));
  return Buffer.concat(parts);
}
const COMMA = Buffer.from(',');

/** Each kind's objects in its index's row order (cards by ordinal, the others by id). */
function objectsOf(kind: Kind, { objects }: Rendered): unknown[] {
  switch (kind.name) {
    case 'card': return [...objects.card_t].sort((a, b) => a.ordinal - b.ordinal);
    case 'accessory': return objects.accessory_t;
    case 'event': return objects.event_t;
  }
}

export function deriveSearch(rendered: Rendered, files: SiteFiles): void {
  const context: IndexContext = {
    characters: new Map(rendered.objects.char_t.map((c) => [c.id, c])),
    sets: new Map(rendered.sets.map((s) => [s.id, s.display_name])),
  };
  for (const kind of KINDS) {
    const objects = objectsOf(kind, rendered);
    const bytes = objectsFile(objects);
    const name = `${kind.name}.${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;
    files.set(endpoints.searchObjects.file(name), bytes);
    addJson(files, endpoints.searchIndex.file(kind.name), buildIndex(kind, objects, context, name));
  }
}
