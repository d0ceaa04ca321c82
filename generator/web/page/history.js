// A card's history on its view: api/v1/history/card/<ordinal>.json, one line per data version
// in which the card changed (newest first): when, which version, and what changed, each field
// as its value before -> after. The file holds JSON Patches from nothing, oldest first, so
// replaying them gives the card as each version published it; the build's patches only add,
// remove and replace object members and replace array elements (changes/history.ts), which
// is all `applyPatch` here does.
'use strict';
import { config, day, el, fill, load, shortValue } from './dom.js';

/** A JSON Pointer's tokens (RFC 6901). */
const tokensOf = (path) => path.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

/** `document` with the patch applied (a copy: the input is left as it was). */
function applyPatch(document, patch) {
  let doc = structuredClone(document);
  for (const op of patch) {
    const tokens = tokensOf(op.path);
    if (!tokens.length) {
      doc = op.op === 'remove' ? null : structuredClone(op.value);
      continue;
    }
    const last = tokens.pop();
    const parent = tokens.reduce((node, token) => node?.[token], doc);
    if (parent === null || typeof parent !== 'object') continue;
    if (op.op === 'remove') delete parent[last];
    else parent[last] = structuredClone(op.value);
  }
  return doc;
}

/** A patch path as a field: its object members joined by dots (array elements are their array's field). */
const fieldOf = (path) => tokensOf(path).filter((t) => !/^\d+$/.test(t)).join('.');
const valueOf = (doc, field) => (field ? field.split('.') : []).reduce((node, token) => (node === null || node === undefined ? undefined : node[token]), doc);

/** Each field the patch touches, once, as [field, before, after]. */
function fieldChanges(before, after, patch) {
  const fields = [...new Set(patch.map((op) => fieldOf(op.path)))];
  return fields.map((field) => [field || '(whole card)', valueOf(before, field), valueOf(after, field)]);
}

/** One history line's "what": added, removed, or each changed field before -> after. */
function describe(entry, before, after) {
  if (entry.change !== 'changed') return entry.change;
  return ['changed', el('ul', { class: 'field-changes' }, fieldChanges(before, after, entry.patch).map(([field, from, to]) =>
    el('li', {}, el('code', {}, field), ': ', el('span', { class: 'before' }, shortValue(from)), ' → ', el('span', { class: 'after' }, shortValue(to)))))];
}

/** The card's history section, or null when the site publishes none for it. */
export async function historySection(ordinal) {
  const file = fill(config.cardHistory, ordinal);
  const history = await load(file).catch(() => null);
  if (!history?.versions?.length) return null;
  let doc = null;
  const lines = history.versions.map((entry) => {
    const before = doc;
    doc = entry.patch ? applyPatch(doc, entry.patch) : null;
    return el('li', { class: `history-entry ${entry.change}`, dataset: { version: entry.truth_version } },
      el('time', {}, day(entry.date)), ' ', el('code', {}, entry.truth_version), ': ', describe(entry, before, doc));
  });
  return el('section', { class: 'panel card-history' }, el('h2', {}, 'History'),
    el('ul', { class: 'changes' }, lines.reverse()), el('p', {}, el('a', { href: file }, 'History as JSON Patch ', el('code', {}, file))));
}
