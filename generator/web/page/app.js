// The card browser: plain DOM, no framework. Every URL is relative, so the page works from any
// static host; the paths come from the build (site-config in index.html). Views are hash routes
// (#card/<ordinal>, #song/<id>, #chart/<live_setting_id>, ...), so they are deep links and the
// back button works without a server.
'use strict';
import { ATTRIBUTES, RARITIES, cardTile, config, day, el, icon, load, pagedList, siteTime, siteZone, stubIcon, zoneText } from './dom.js';
import { accessoryTile, accessoryView, cardView, eventView, pairGroups, pairView, setView } from './views.js';
import { renderChanges } from './changes.js';
import { renderDownloads } from './downloads.js';
import { chartView, renderSongs, songView } from './songs.js';
import { QueryError, absentFields, kindOf, orderNames, search, suggest } from '../search/query.js';
import { indexColumns } from '../search/kinds.js';
import { CENTERS, EFFECTS, TRIGGERS, entryOf } from '../search/words.js';
import { EXAMPLES } from '../search/examples.js';

const $ = (id) => document.getElementById(id);

function showError(error) {
  const box = $('load-error');
  box.hidden = false;
  box.textContent = `Could not load ${error.message}. Serve this folder over HTTP (for example npx http-server public).`;
}

// ---- cards: the search language over the card search index ---------------------------------
// The box takes the query language the API's search/card takes, evaluated by the same module
// (search/query.js) on the same index, so the page lists what the API answers. The query and
// order live in the page's URL (?q=&order=&dir=&seed=, the API's own parameters): a shareable
// link. Rarity and attribute chips are shortcuts that write their terms into the query.

const SEARCH_PARAMS = ['q', 'order', 'dir', 'seed'];
const CHIP_WORDS = { rarity: new Map(RARITIES.map(([id, name]) => [id, name.toLowerCase()])), attr: new Map(ATTRIBUTES.map(([id, name]) => [id, name.toLowerCase()])) };

/** The chip term of a field in a query: `rarity:ur` or `(rarity:ur or rarity:sr)`, as chips write it. */
const chipTerm = (field) => new RegExp(`(^|\\s)(\\(${field}:[a-z]+(?: or ${field}:[a-z]+)*\\)|${field}:[a-z]+)(?=\\s|$)`, 'i');

/** The values the chips of `field` have written into `query`. */
function chipValues(query, field) {
  const term = chipTerm(field).exec(query)?.[2] ?? '';
  return new Set([...term.matchAll(new RegExp(`${field}:([a-z]+)`, 'gi'))].map((m) => m[1].toLowerCase()));
}

/** `query` with the chip term of `field` replaced by one for `values` (none: removed). */
function withChips(query, field, values) {
  const rest = query.replace(chipTerm(field), ' ').replace(/\s+/g, ' ').trim();
  const terms = [...values].map((v) => `${field}:${v}`);
  const term = terms.length > 1 ? `(${terms.join(' or ')})` : terms[0] ?? '';
  return [rest, term].filter(Boolean).join(' ');
}

/** The search as the URL gives it (defaults for what it lacks). */
function searchFromUrl() {
  const params = new URLSearchParams(location.search);
  return Object.fromEntries(SEARCH_PARAMS.map((name) => [name, params.get(name) ?? '']));
}

/** The page's URL with the search in it (empty values left out), the view's hash kept. */
function writeUrl(state) {
  const params = new URLSearchParams(location.search);
  for (const name of SEARCH_PARAMS) {
    if (state[name]) params.set(name, state[name]); else params.delete(name);
  }
  const search = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
}

function chips(containerId, field, options, stubs, key, onToggle) {
  const counts = new Map();
  for (const stub of stubs) counts.set(stub[key], (counts.get(stub[key]) ?? 0) + 1);
  $(containerId).replaceChildren(...options.filter(([value]) => counts.get(value)).map(([value, label]) => {
    const word = CHIP_WORDS[field].get(value);
    const button = el('button', { type: 'button', class: 'chip', 'aria-pressed': 'false', dataset: { value: word } }, label, el('small', {}, String(counts.get(value))));
    button.addEventListener('click', () => onToggle(field, word));
    return button;
  }));
}

function orderOptions(select, names) {
  select.replaceChildren(...names.map((name) => el('option', { value: name }, name)));
}

// Pickers (character, group, skill) write one `field:value` term into the query, as the chips
// do, so the URL stays the query and a link shares what was picked.

/** A picker's term in a query: `field:word` or `field:"some words"`. */
const pickedTerm = (field) => new RegExp(`(^|\\s)${field}:("[^"]*"|[^\\s()"]+)(?=\\s|$)`, 'i');
const pickedValue = (query, field) => pickedTerm(field).exec(query)?.[2].replace(/^"|"$/g, '').toLowerCase() ?? '';

/** `query` with the picker's term of `field` replaced by one for `value` (empty: removed). */
function withPicked(query, field, value) {
  const rest = query.replace(pickedTerm(field), ' ').replace(/\s+/g, ' ').trim();
  return [rest, value ? `${field}:${/[\s()]/.test(value) ? `"${value}"` : value}` : ''].filter(Boolean).join(' ');
}

/** The picker's choices: [value the term says, label], sorted by label, each once. */
function pickerChoices(list, index) {
  const unique = (pairs) => [...new Map(pairs.filter(([value]) => value)).entries()].sort((a, b) => a[1].localeCompare(b[1]));
  return {
    char: unique(list.stubs.map((s) => [s.char_name.toLowerCase(), s.char_name])),
    // Group tag names as the index holds them (normalized): the last is the English or romanized one.
    group: unique((index.dictionaries.group_names ?? []).map((names) => [names.at(-1), names.at(-1)])),
    skill: unique(EFFECTS.map((e) => [e.words[0], e.words[0]])),
  };
}

/** The word tables of the code fields, so a tile says "trigger: notes", not "trigger 3". */
const CODE_WORDS = { skill: EFFECTS, trigger: TRIGGERS, center: CENTERS };

/** A value of the list's order field for a tile ("Smile 5120", "released 2016-04-01"), null for orders the tile already shows. */
function orderValue(field, value) {
  if (value === null || value === undefined || ['ordinal', 'random', 'rarity', 'attribute'].includes(field)) return null;
  if (field === 'released') return `released ${day(value)}`;
  const table = CODE_WORDS[field];
  return table ? `${field}: ${entryOf(table, value)?.words[0] ?? value}` : `${field} ${value}`;
}

function renderCards(list, index) {
  const stubs = new Map(list.stubs.map((stub) => [stub.ordinal, stub]));
  const ordinals = index.columns.ordinal;
  const columns = indexColumns(index);
  const kind = kindOf('card');
  const state = searchFromUrl();
  state.order = state.order.toLowerCase() || kind.identity;
  state.dir = state.dir.toLowerCase() === 'desc' ? 'desc' : 'asc';
  const box = $('search');
  // What a person typed while the data loaded wins over the URL's query, and is searched now.
  if (box.value.trim()) state.q = box.value;
  else box.value = state.q;
  const pickers = [$('pick-char'), $('pick-group'), $('pick-skill')];
  const choices = pickerChoices(list, index);
  for (const picker of pickers) picker.append(...choices[picker.dataset.field].map(([value, label]) => el('option', { value }, label)));
  orderOptions($('order'), orderNames(kind));
  $('order').value = state.order;
  $('dir').value = state.dir;
  const update = () => {
    for (const field of Object.keys(CHIP_WORDS)) {
      const on = chipValues(state.q, field);
      for (const button of $(`${field === 'attr' ? 'attribute' : field}-filter`).children) button.setAttribute('aria-pressed', String(on.has(button.dataset.value)));
    }
    for (const picker of pickers) {
      const value = pickedValue(state.q, picker.dataset.field);
      picker.value = [...picker.options].some((o) => o.value === value) ? value : '';
    }
    writeUrl(state);
    let rows;
    try {
      rows = search(index, { q: state.q, order: state.order, dir: state.dir === 'desc' ? 'desc' : 'asc', seed: Number(state.seed) || 0 });
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      $('search-error').textContent = error.message;
      $('search-error').hidden = false;
      box.setAttribute('aria-invalid', 'true');
      return;
    }
    $('search-error').hidden = true;
    box.removeAttribute('aria-invalid');
    const field = kind.fields.find((f) => f.name === state.order);
    const matches = rows.filter((row) => stubs.has(ordinals[row]))
      .map((row) => ({ ...stubs.get(ordinals[row]), shown: field ? orderValue(field.name, columns[field.column][row]) : null }));
    pagedList($('card-grid'), matches, (stub) => cardTile(stub, stub.shown));
    const suggestion = matches.length ? null : suggest(index, state.q);
    $('search-suggestion').hidden = suggestion === null;
    $('suggestion-link').textContent = suggestion ?? '';
    $('suggestion-link').dataset.query = suggestion ?? '';
    // region: and only: on a site built from one export, whose cards have no regions: say why they match nothing.
    const absent = absentFields(index, state.q);
    $('search-note').hidden = !absent.length;
    $('search-note').textContent = absent.length ? `This site is built from one export: its cards have no regions, so ${absent.map((f) => `${f}:`).join(' and ')} ${absent.length > 1 ? 'match' : 'matches'} no card.` : '';
    const count = $('card-count');
    count.textContent = matches.length === list.stubs.length ? `${list.stubs.length} cards` : `${matches.length} of ${list.stubs.length} cards`;
    count.dataset.total = String(matches.length);
    // Every match in order, beyond the tiles on screen, for programs that read the page.
    $('card-grid').dataset.ordinals = matches.map((stub) => stub.ordinal).join(',');
    const api = new URLSearchParams(Object.entries(state).filter(([, v]) => v));
    $('search-api').href = `${config.searchApi}?${api}`;
  };
  const toggle = (field, word) => {
    const values = chipValues(state.q, field);
    if (values.has(word)) values.delete(word); else values.add(word);
    box.value = state.q = withChips(state.q, field, values);
    update();
  };
  for (const picker of pickers) {
    picker.addEventListener('change', () => {
      box.value = state.q = withPicked(state.q, picker.dataset.field, picker.value);
      update();
    });
  }
  $('suggestion-link').addEventListener('click', (event) => {
    event.preventDefault();
    box.value = state.q = event.currentTarget.dataset.query;
    update();
    box.focus();
  });
  chips('rarity-filter', 'rarity', RARITIES, list.stubs, 'rarity', toggle);
  chips('attribute-filter', 'attr', ATTRIBUTES, list.stubs, 'attribute', toggle);
  box.addEventListener('input', () => {
    state.q = box.value;
    update();
  });
  $('order').addEventListener('change', (event) => {
    state.order = event.target.value;
    // A random order is drawn once and kept in the URL, so the link shows the same order.
    state.seed = state.order === 'random' ? String(Math.floor(Math.random() * 2 ** 31)) : '';
    update();
  });
  $('dir').addEventListener('change', (event) => {
    state.dir = event.target.value;
    update();
  });
  // The documented examples this site can answer (not region: and only: on a site of one export).
  $('search-examples').replaceChildren(...EXAMPLES.filter((e) => e.kind === 'card' && !absentFields(index, e.q).length).map((example) => {
    const params = new URLSearchParams({ q: example.q, ...(example.order ? { order: example.order } : {}), ...(example.dir ? { dir: example.dir } : {}) });
    return el('li', {}, el('a', { href: `?${params}#cards` }, el('code', {}, example.q)), ` ${example.means}`);
  }));
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

/** One tile per two cards, however many pair ids the game gives them: it opens the first. */
async function renderPairs(list) {
  const stubs = new Map((await load(config.cardList)).stubs.map((c) => [c.ordinal, c]));
  return pagedList($('pair-list'), pairGroups(list.pairs), ([pair, ...others]) => el('li', {},
    el('a', { href: `#pair/${pair.pair}` },
      strip(pair.ordinals.map((ordinal) => stubIcon(stubs.get(ordinal), stubs.get(ordinal)?.char_name ?? '', '?'))),
      el('span', { class: 'name' }, pair.ordinals.map((o) => stubs.get(o)?.char_name ?? `#${o}`).join(' + ')),
      el('code', {}, pair.ordinals.map((o) => `#${o}`).join(' + '), others.length ? ` · pairs ${[pair, ...others].map((p) => p.pair).join(', ')}` : ''))));
}

const renderAccessories = (list) => pagedList($('accessory-list'), list.accessories, accessoryTile);

const renderEvents = (list) => pagedList($('event-list'), list.result, (event) => el('li', {},
  el('a', { href: `#event/${event.id}` }, el('span', { class: 'name' }, event.name_en || event.name), el('code', {}, `event ${event.id}`))));

async function renderChangeList(list) {
  const [stubs] = await Promise.all([load(config.cardList).then((l) => new Map(l.stubs.map((c) => [c.ordinal, c]))), siteTime]);
  $('new-content').replaceChildren(...renderChanges(list, stubs));
  $('new').hidden = false;
  $('new-link').hidden = false;
  return true;
}

function hideSongs() {
  $('songs').hidden = true;
  $('songs-link').hidden = true;
}

function renderFiles() {
  $('api-files').replaceChildren(...config.files.map((file) => el('li', {}, el('a', { href: file }, file))));
  $('downloads-index').href = config.bulkIndex;
}

/** Optional sections disappear when the export lacks their file or the file lists nothing; so do their nav links. */
async function optional(id, path, render) {
  try {
    if (!(await render(await load(path)))) $(id).hidden = true;
  } catch (error) {
    $(id).hidden = true;
    if (error.status !== 404) console.warn(error);
  }
  fitSections();
}

// ---- jumps to a section ------------------------------------------------------
// A jump (a nav link, any #<section> link, a URL with one, on load too) brings the section's
// heading to the top, just below the header where the header stays on screen (scroll-padding-top),
// and holds it there while the page changes size around it (sections filling in as their files
// load or hiding when empty; a list growing above it), until the reader scrolls, types or clicks:
// then the reader leads, and lists that grow keep what is on screen in place (dom.js pagedList).

/** The id of the element a jump holds at the top, or null. */
let held = null;

function placeHeld() {
  const target = held === null ? null : document.getElementById(held);
  if (target && !$('home').hidden && target.getClientRects().length) target.scrollIntoView({ block: 'start' });
}

function hold(id) {
  held = id;
  placeHeld();
}

/** The header's height where it stays on screen (a wide screen's; a phone's scrolls away): what a jump lands below. */
function fitHeader() {
  const header = document.querySelector('.top');
  const height = getComputedStyle(header).position === 'sticky' ? header.getBoundingClientRect().height : 0;
  document.documentElement.style.scrollPaddingTop = `${height}px`;
  document.documentElement.style.setProperty('--top-height', `${height}px`);
}

/** Nav links only to sections shown; the last section shown at least a screen tall, so its heading can reach the top. */
function fitSections() {
  for (const link of document.querySelectorAll('.top nav a[href^="#"]')) {
    const section = document.getElementById(link.getAttribute('href').slice(1));
    if (section) link.hidden = section.hidden;
  }
  const shown = [...$('home').children].filter((node) => node.tagName === 'SECTION' && !node.hidden);
  for (const section of shown) section.classList.toggle('last', section === shown.at(-1));
}

function watchJumps() {
  fitHeader();
  fitSections();
  const release = () => { held = null; };
  for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown']) window.addEventListener(type, release, { capture: true, passive: true });
  // A link to the section already in the URL changes no hash: it jumps (and holds) all the same.
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href^="#"]') : null;
    if (link && link.getAttribute('href') === location.hash && $('home').contains(document.getElementById(decodedHash()))) hold(decodedHash());
  });
  new ResizeObserver(() => { fitHeader(); placeHeld(); }).observe(document.querySelector('.top'));
  new ResizeObserver(placeHeld).observe($('home'));
}

// ---- routes ----------------------------------------------------------------

const ROUTES = [
  [/^card\/(\d+)$/, cardView, 'card'],
  [/^set\/([^/]+)$/, setView, 'set'],
  [/^pair\/(\d+)$/, pairView, 'pair'],
  [/^accessory\/(\d+)$/, accessoryView, 'accessory'],
  [/^event\/(\d+)$/, eventView, 'event'],
  [/^song\/(\d+)$/, songView, 'song'],
  [/^chart\/(\d+)$/, chartView, 'chart'],
];

let homeScroll = 0;
let routeCount = 0;

async function showView(route, render, kind) {
  const view = $('view');
  const mine = ++routeCount;
  held = null;
  if (!$('home').hidden) homeScroll = window.scrollY;
  $('home').hidden = true;
  view.hidden = false;
  view.setAttribute('aria-busy', 'true');
  view.replaceChildren(el('p', { class: 'loading' }, 'Loading…'));
  let content;
  try {
    await siteTime; // dates on the site's clock
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
  // A section hidden until its file loads (What's new) is held too: it comes to the top when it shows.
  if (target && $('home').contains(target)) {
    if (wasHidden && !target.getClientRects().length) window.scrollTo(0, homeScroll);
    hold(hash);
  } else {
    held = null;
    if (wasHidden) window.scrollTo(0, homeScroll);
  }
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
  watchJumps();
  window.addEventListener('hashchange', route);
  const viewShown = route();
  Promise.all([load(config.info), siteTime]).then(([info]) => {
    // Once for the whole page: whose calendar its dates are.
    const zone = typeof info.timezone === 'string' ? `Dates in ${zoneText(siteZone.offset)}, as the game showed them.` : 'Dates in UTC.';
    $('version').textContent = `Data version ${info.truth_version}, API v${info.api_major}.${info.api_revision}. ${zone}`;
  }).catch(showError);
  try {
    const [list, index] = await Promise.all([load(config.cardList), load(config.searchIndex.replace('{}', 'card')), siteTime]);
    renderCards(list, index);
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
    config.songList ? optional('songs', config.songList, renderSongs) : hideSongs(),
    optional('downloads', config.bulkIndex, (index) => renderDownloads(index, $('downloads-content'))),
  ]);
  fitSections();
  placeHeld();
  document.body.dataset.ready = 'true';
}

main();
