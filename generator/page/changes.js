// "What's new": the latest change list (api/v1/changes.json), each object linked to its view.
// The file is absent until a second build of a site has seen an update; then the section stays hidden.
'use strict';
import { config, day, el, fill } from './dom.js';

/** Per type: its heading and where an id leads (a view, else the object's JSON file). */
const TYPES = {
  cards: ['Cards', (ordinal) => `#card/${ordinal}`],
  skills: ['Skills', (id) => fill(config.object.skill_t, id)],
  center_skills: ['Center skills', (id) => fill(config.object.leader_skill_t, id)],
  accessories: ['Accessories', (id) => `#accessory/${id}`],
  characters: ['Characters', (id) => fill(config.object.char_t, id)],
  events: ['Events', (id) => `#event/${id}`],
  sets: ['Sets', (id) => `#set/${encodeURIComponent(id)}`],
  pairs: ['Pairs', (id) => `#pair/${id}`],
  songs: ['Songs', (id) => `#song/${id}`],
  charts: ['Charts', (id) => fill(config.object.live_t, id)],
};

const version = (side) => (side ? `${side.truth_version}${side.date === null || side.date === undefined ? '' : ` (${day(side.date)})`}` : 'nothing');

/** Cards are linked and labelled by ordinal (their view's key), everything else by id. */
const keysOf = (type, change, kind) => (type === 'cards' ? change[`${kind}_ordinals`] ?? [] : change[kind] ?? []);

function entries(type, change) {
  const [, href] = TYPES[type];
  const label = (key) => (type === 'cards' ? `#${key}` : String(key));
  return [
    ...keysOf(type, change, 'added').map((key) => el('li', { class: 'added' }, 'added ', el('a', { href: href(key) }, label(key)))),
    ...(change.changed ?? []).map((c) => {
      const key = type === 'cards' ? c.ordinal : c.id;
      return el('li', { class: 'changed' }, 'changed ', el('a', { href: href(key) }, label(key)), `: ${c.fields.map((f) => f.field).join(', ')}`);
    }),
    // A removed object has no file any more: named, not linked.
    ...keysOf(type, change, 'removed').map((key) => el('li', { class: 'removed' }, `removed ${label(key)}`)),
  ];
}

/** The section's content: the versions, then per type what was added, changed and removed. */
export function renderChanges(list) {
  const groups = Object.keys(TYPES).filter((type) => list.types[type])
    .map((type) => [type, entries(type, list.types[type])])
    .filter(([, items]) => items.length)
    .map(([type, items]) => el('div', { class: 'change-group', dataset: { type } }, el('h3', {}, `${TYPES[type][0]} (${items.length})`), el('ul', { class: 'changes' }, items)));
  return [el('p', { class: 'change-versions' }, `From ${version(list.from)} to ${version(list.to)}.`),
    ...(groups.length ? groups : [el('p', {}, 'This update changed no published object.')])];
}
