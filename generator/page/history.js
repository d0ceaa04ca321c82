// A card's history on its view: api/v1/history/card/<ordinal>.json, one line per data version
// in which the card changed (newest first): when, which version, and what (the fields its
// JSON Patch touches, with the new value where it is a single number or text).
'use strict';
import { config, day, el, fill, load } from './dom.js';

/** A patch path as a field name: JSON Pointer tokens joined by dots, array indexes dropped. */
const fieldOf = (path) => path.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~')).filter((t) => !/^\d+$/.test(t)).join('.');

const shown = (value) => (typeof value === 'number' || (typeof value === 'string' && value.length <= 40) ? ` → ${JSON.stringify(value)}` : '');

/** What one entry changed: "added", "removed", or the fields with their new scalar values. */
function describe(entry) {
  if (entry.change !== 'changed') return entry.change;
  const fields = new Map();
  for (const op of entry.patch) {
    const field = fieldOf(op.path) || '(whole card)';
    // A field touched element by element is named once; a single replaced value is shown.
    fields.set(field, fields.has(field) || op.op !== 'replace' ? '' : shown(op.value));
  }
  return `changed ${[...fields].map(([field, value]) => `${field}${value}`).join(', ')}`;
}

/** The card's history section, or null when the site publishes none for it. */
export async function historySection(ordinal) {
  const file = fill(config.cardHistory, ordinal);
  const history = await load(file).catch(() => null);
  if (!history?.versions?.length) return null;
  const items = [...history.versions].reverse().map((entry) => el('li', { class: `history-entry ${entry.change}`, dataset: { version: entry.truth_version } },
    el('time', {}, day(entry.date)), ' ', el('code', {}, entry.truth_version), ': ', describe(entry)));
  return el('section', { class: 'panel card-history' }, el('h2', {}, 'History'),
    el('ul', { class: 'changes' }, items), el('p', {}, el('a', { href: file }, 'History as JSON Patch ', el('code', {}, file))));
}
