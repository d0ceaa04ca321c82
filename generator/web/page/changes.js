// "What's new": the latest change list (api/v1/changes.json) as a summary: how many objects of
// each kind were added, changed and removed, the newest added cards as tiles, and the full list
// (each object linked to its view, each changed field before -> after) one click away.
// The file is absent until a second build of a site has seen an update; then the section stays hidden.
'use strict';
import { cardTile, config, day, el, fill, shortValue } from './dom.js';

/**
 * Per type, in the change lists' order: its heading and where an id leads (a view, else the
 * object's route), as the build gives them from its table of kinds (config.changeTypes).
 */
const TYPES = Object.fromEntries(config.changeTypes.map(([type, label, href]) => [type, [label, (id) => fill(href, id)]]));
/** Added cards shown as tiles in the summary (the newest: highest ordinals). */
const NEWEST_TILES = 6;

const version = (side) => (side ? `${side.truth_version}${side.date === null || side.date === undefined ? '' : ` (${day(side.date)})`}` : 'nothing');

/** Cards are linked and labelled by ordinal (their view's key), everything else by id. */
const keysOf = (type, change, kind) => (type === 'cards' ? change[`${kind}_ordinals`] ?? [] : change[kind] ?? []);

function entries(type, change, stubs) {
  const [, href] = TYPES[type];
  const label = (key) => (type === 'cards' ? `#${key}${stubs.get(key) ? ` ${stubs.get(key).char_name}` : ''}` : String(key));
  const fields = (c) => c.fields.map((f) => `${f.field} ${shortValue(f.from)} → ${shortValue(f.to)}`).join('; ');
  return [
    ...keysOf(type, change, 'added').map((key) => el('li', { class: 'added' }, 'added ', el('a', { href: href(key) }, label(key)))),
    ...(change.changed ?? []).map((c) => {
      const key = type === 'cards' ? c.ordinal : c.id;
      return el('li', { class: 'changed' }, 'changed ', el('a', { href: href(key) }, label(key)), `: ${fields(c)}`);
    }),
    // A removed object has no file any more: named, not linked.
    ...keysOf(type, change, 'removed').map((key) => el('li', { class: 'removed' }, `removed ${type === 'cards' ? `#${key}` : key}`)),
  ];
}

/** "12 added, 3 changed" for one type, null when it did not change. */
function counts(type, change) {
  const parts = [['added', keysOf(type, change, 'added').length], ['changed', change.changed?.length ?? 0], ['removed', keysOf(type, change, 'removed').length]]
    .filter(([, n]) => n).map(([what, n]) => `${n} ${what}`);
  return parts.length ? parts.join(', ') : null;
}

/** The section's content: the versions, counts per kind, the newest cards, and the full list behind a click. */
export function renderChanges(list, stubs) {
  const types = Object.keys(TYPES).filter((type) => list.types[type]);
  const summary = types.map((type) => [type, counts(type, list.types[type])]).filter(([, text]) => text);
  const head = el('p', { class: 'change-versions' }, `From ${version(list.from)} to ${version(list.to)}.`);
  if (!summary.length) return [head, el('p', {}, 'This update changed no published object.')];
  const added = [...keysOf('cards', list.types.cards ?? {}, 'added')].sort((a, b) => b - a);
  const newest = added.map((o) => stubs.get(o)).filter(Boolean).slice(0, NEWEST_TILES);
  const groups = types.map((type) => [type, entries(type, list.types[type], stubs)])
    .filter(([, items]) => items.length)
    .map(([type, items]) => el('div', { class: 'change-group', dataset: { type } }, el('h4', {}, `${TYPES[type][0]} (${items.length})`), el('ul', { class: 'changes' }, items)));
  return [
    head,
    el('ul', { class: 'change-counts' }, summary.map(([type, text]) => el('li', { dataset: { type } }, el('strong', {}, TYPES[type][0]), `: ${text}`))),
    newest.length ? el('h3', {}, `Newest cards (${newest.length} of ${added.length} added)`) : null,
    newest.length ? el('ul', { class: 'cards newest' }, newest.map((stub) => cardTile(stub))) : null,
    el('details', { class: 'change-details' }, el('summary', {}, 'The full list'), ...groups),
  ].filter(Boolean);
}
