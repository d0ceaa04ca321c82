// The card browser: plain DOM, no framework. Every URL is relative, so the page works from any
// static host; the paths come from the build (site-config in index.html). Views are hash routes
// (#card/<ordinal>, ...), so they are deep links and the back button works without a server.
'use strict';
import { ATTRIBUTES, RARITIES, cardTile, config, el, icon, load, pagedList } from './dom.js';
import { accessoryTile, accessoryView, cardView, eventView, pairView, setView } from './views.js';
import { renderChanges } from './changes.js';

const $ = (id) => document.getElementById(id);

function showError(error) {
  const box = $('load-error');
  box.hidden = false;
  box.textContent = `Could not load ${error.message}. Serve this folder over HTTP (for example npx http-server public).`;
}

// ---- cards: filters over card_list.json, only the matches on screen are rendered ----------------

const filters = { rarity: new Set(), attribute: new Set(), text: '' };

/** What the search box matches: names, titles and "#ordinal", lower-cased once. */
const searchText = (stub) => [stub.char_name, stub.title, stub.title_en, `#${stub.ordinal}`].filter(Boolean).join(' ').toLowerCase();

function chips(containerId, options, selected, stubs, key, onChange) {
  const counts = new Map();
  for (const stub of stubs) counts.set(stub[key], (counts.get(stub[key]) ?? 0) + 1);
  $(containerId).replaceChildren(...options.filter(([value]) => counts.get(value)).map(([value, label]) => {
    const button = el('button', { type: 'button', class: 'chip', 'aria-pressed': 'false', dataset: { value } }, label, el('small', {}, String(counts.get(value))));
    button.addEventListener('click', () => {
      const on = !selected.has(value);
      if (on) selected.add(value); else selected.delete(value);
      button.setAttribute('aria-pressed', String(on));
      onChange();
    });
    return button;
  }));
}

function renderCards(list) {
  const stubs = list.stubs;
  const texts = stubs.map(searchText);
  const update = () => {
    const matches = stubs.filter((stub, i) => (!filters.rarity.size || filters.rarity.has(stub.rarity))
      && (!filters.attribute.size || filters.attribute.has(stub.attribute))
      && (!filters.text || texts[i].includes(filters.text)));
    pagedList($('card-grid'), matches, cardTile);
    $('card-count').textContent = matches.length === stubs.length ? `${stubs.length} cards` : `${matches.length} of ${stubs.length} cards`;
  };
  chips('rarity-filter', RARITIES, filters.rarity, stubs, 'rarity', update);
  chips('attribute-filter', ATTRIBUTES, filters.attribute, stubs, 'attribute', update);
  $('search').addEventListener('input', (event) => {
    filters.text = event.target.value.trim().toLowerCase();
    update();
  });
  update();
}

// ---- the other home sections -------------------------------------------------

const strip = (icons) => el('span', { class: 'strip' }, icons);

function renderSets(list) {
  return pagedList($('set-list'), list.sets, (set) => el('li', {},
    el('a', { href: `#set/${encodeURIComponent(set.id)}` },
      strip(set.preview.map((name) => icon(config.cardIcon, name, '', ''))),
      el('span', { class: 'name' }, set.display_name),
      el('code', {}, set.id))));
}

async function renderPairs(list) {
  const stubs = new Map((await load(config.cardList)).stubs.map((c) => [c.ordinal, c]));
  return pagedList($('pair-list'), list.pairs, (pair) => el('li', {},
    el('a', { href: `#pair/${pair.pair}` },
      strip(pair.ordinals.map((ordinal) => icon(config.cardIcon, stubs.get(ordinal)?.icon, stubs.get(ordinal)?.char_name ?? '', '?'))),
      el('span', { class: 'name' }, `Pair ${pair.pair}`),
      el('code', {}, pair.ordinals.map((o) => `#${o}`).join(' + ')))));
}

const renderAccessories = (list) => pagedList($('accessory-list'), list.accessories, accessoryTile);

const renderEvents = (list) => pagedList($('event-list'), list.result, (event) => el('li', {},
  el('a', { href: `#event/${event.id}` }, el('span', { class: 'name' }, event.name_en || event.name), el('code', {}, `event ${event.id}`))));

function renderChangeList(list) {
  $('new-content').replaceChildren(...renderChanges(list));
  $('new').hidden = false;
  $('new-link').hidden = false;
  return true;
}

function renderFiles() {
  $('api-files').replaceChildren(...config.files.map((file) => el('li', {}, el('a', { href: file }, file))));
}

/** Optional sections disappear when the export lacks their file or the file lists nothing. */
async function optional(id, path, render) {
  try {
    if (!(await render(await load(path)))) $(id).hidden = true;
  } catch (error) {
    $(id).hidden = true;
    if (error.status !== 404) console.warn(error);
  }
}

// ---- routes ----------------------------------------------------------------

const ROUTES = [
  [/^card\/(\d+)$/, cardView, 'card'],
  [/^set\/([^/]+)$/, setView, 'set'],
  [/^pair\/(\d+)$/, pairView, 'pair'],
  [/^accessory\/(\d+)$/, accessoryView, 'accessory'],
  [/^event\/(\d+)$/, eventView, 'event'],
];

let homeScroll = 0;
let routeCount = 0;

async function showView(route, render, kind) {
  const view = $('view');
  const mine = ++routeCount;
  if (!$('home').hidden) homeScroll = window.scrollY;
  $('home').hidden = true;
  view.hidden = false;
  view.setAttribute('aria-busy', 'true');
  view.replaceChildren(el('p', { class: 'loading' }, 'Loading…'));
  let content;
  try {
    content = await render(route);
  } catch (error) {
    content = [el('h1', { tabindex: '-1' }, error.status === 404 ? `No such ${kind}` : 'Could not load this view'), el('p', { class: 'notice' }, error.message)];
  }
  if (mine !== routeCount) return; // a later navigation won
  view.replaceChildren(el('p', { class: 'back' }, el('a', { href: '#cards' }, '← All cards')), ...content.flat().filter(Boolean));
  view.removeAttribute('aria-busy');
  window.scrollTo(0, 0);
  view.querySelector('h1')?.focus({ preventScroll: true });
  document.title = `${view.querySelector('h1')?.textContent ?? 'View'} · SIF static data API`;
  document.body.dataset.view = kind;
}

function showHome(hash) {
  routeCount++;
  const wasHidden = $('home').hidden;
  $('view').hidden = true;
  $('view').replaceChildren();
  $('home').hidden = false;
  document.title = 'SIF static data API: card browser';
  delete document.body.dataset.view;
  const target = hash && document.getElementById(hash);
  if (target && !target.hidden) target.scrollIntoView();
  else if (wasHidden) window.scrollTo(0, homeScroll);
}

/** The hash decoded; a malformed escape (`#%E0`) is taken as written instead of stopping the page. */
function decodedHash() {
  const raw = location.hash.slice(1);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function route() {
  const hash = decodedHash();
  for (const [pattern, render, kind] of ROUTES) {
    const match = pattern.exec(hash);
    if (match) return showView(match[1], render, kind);
  }
  return showHome(hash);
}

async function main() {
  renderFiles();
  window.addEventListener('hashchange', route);
  const viewShown = route();
  load(config.info).then((info) => {
    $('version').textContent = `Data version ${info.truth_version}, API v${info.api_major}.${info.api_revision}.`;
  }).catch(showError);
  try {
    renderCards(await load(config.cardList));
    performance.mark('cards-interactive');
  } catch (error) {
    showError(error);
  }
  await Promise.all([
    viewShown,
    optional('new', config.changes, renderChangeList),
    optional('sets', config.setList, renderSets),
    optional('pairs', config.pairList, renderPairs),
    optional('accessories', config.accessoryList, renderAccessories),
    optional('events', config.eventList, renderEvents),
  ]);
  document.body.dataset.ready = 'true';
}

main();
