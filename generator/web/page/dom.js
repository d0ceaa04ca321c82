// DOM and data helpers shared by the page's views. Text from the data only ever becomes text
// nodes or attribute values, never HTML.
'use strict';
import { hostUrl } from './imageHost.js';

export const config = JSON.parse(document.getElementById('site-config').textContent);

/** Rarity ids and names in game order (format.ts RARITIES, through the build's config). */
export const RARITIES = config.rarities;
export const ATTRIBUTES = [[1, 'Smile'], [2, 'Pure'], [3, 'Cool'], [5, 'All']];
export const rarityName = new Map(RARITIES);
export const attributeName = new Map(ATTRIBUTES);

/** A path template from the build with its `{}` filled in. */
export const fill = (template, value) => template.replace('{}', encodeURIComponent(String(value)));

/** A DOM element with attributes and children (strings become text, never HTML). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

const placeholder = (alt, text) => el('span', { class: 'icon placeholder', role: 'img', 'aria-label': `${alt} (no picture)` }, text);

/** True for a URL on this site (whose pictures have a WebP beside each PNG), false for an image host's. */
const ownPicture = (url) => new URL(url, document.baseURI).origin === location.origin;

/** A picture by URL (this site's: PNG with the WebP beside it; an image host's: as it is), or a lettered placeholder when there is none. */
export function pictureAt(png, alt, text = '?') {
  if (!png) return placeholder(alt, text);
  return el('picture', { class: 'icon' },
    ownPicture(png) && /\.png$/.test(png) ? el('source', { type: 'image/webp', srcset: png.replace(/\.png$/, '.webp') }) : null,
    el('img', { src: png, alt, width: 64, height: 64, loading: 'lazy', decoding: 'async' }));
}

/** An icon by its published name (card_list `icon`, set previews, accessory_list `icon`). */
export const icon = (templates, name, alt, text) => pictureAt(name === null || name === undefined ? null : fill(templates.png, name), alt, text);

/**
 * A card stub's icon: the site's own (its `icon` name), else the image host's when the build names
 * one (the idolized picture for a card that is always idolized, the only one it has), else a placeholder.
 */
export function stubIcon(stub, alt, text) {
  if (stub?.icon || !config.imageHost || !stub) return icon(config.cardIcon, stub?.icon, alt, text);
  return pictureAt(hostUrl(config.imageHost, { id: stub.id, ordinal: stub.ordinal, kind: 'icon', idolized: Boolean(stub.is_pre_transformed) }), alt, text);
}

/** A URL inside a response (relative to that response's file) as a URL relative to the page. */
export const fromFile = (file, url) => (url ? new URL(url, new URL(file, document.baseURI)).href : null);

const cache = new Map();

/** A published file, fetched once per page load: parsed as JSON, or read as `body` says ('arrayBuffer': its bytes). */
export function load(path, body = 'json') {
  const key = `${body} ${path}`;
  if (!cache.has(key)) {
    cache.set(key, fetch(path).then((response) => {
      if (!response.ok) throw Object.assign(new Error(`${path}: HTTP ${response.status}`), { status: response.status });
      return response[body]();
    }));
  }
  return cache.get(key);
}

/** A value in a few characters (What's new, history): lists joined, anything longer than `max` cut. */
export function shortValue(value, max = 80) {
  if (value === null || value === undefined) return '—';
  const text = Array.isArray(value) && value.every((v) => typeof v !== 'object') ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// ---- dates: the game's calendar ------------------------------------------------
// The game showed its dates on its region's clock (JST for JP, WW and KR; CST for CN and TW), so
// the page shows each date as that calendar day, whoever reads it and wherever: the site's offset
// from info.json's `timezone` (the export's meta.json timezone or region), else UTC.

/** Minutes east of UTC of each region's clock (generator/build/input/curated.ts REGION_TIMEZONES; test/browser/page.test.ts checks they agree). */
export const REGION_OFFSETS = { jp: 540, ww: 540, kr: 540, cn: 480, tw: 480 };
const ZONE_NAMES = new Map([[540, 'JST'], [480, 'CST'], [0, 'UTC']]);

/** Minutes east of UTC for "+09:00", null for anything else. */
export function offsetMinutes(text) {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(typeof text === 'string' ? text : '');
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : null;
}

/** "UTC+9", "UTC+5:30", "UTC". */
const utcName = (minutes) => (minutes === 0 ? 'UTC'
  : `UTC${minutes < 0 ? '-' : '+'}${Math.floor(Math.abs(minutes) / 60)}${Math.abs(minutes) % 60 ? `:${String(Math.abs(minutes) % 60).padStart(2, '0')}` : ''}`);

/** A zone's short name: "JST", "CST", else its offset ("UTC+5:30"). */
export const zoneName = (minutes) => ZONE_NAMES.get(minutes) ?? utcName(minutes);

/** The zone in words, once on the page: "JST (UTC+9)". */
export const zoneText = (minutes) => (ZONE_NAMES.has(minutes) && minutes !== 0 ? `${zoneName(minutes)} (${utcName(minutes)})` : utcName(minutes));

/** The site's clock; `siteTime` settles once info.json has said it (UTC when it says nothing or fails to load). */
export const siteZone = { offset: 0 };
export const siteTime = load(config.info).then((info) => { siteZone.offset = offsetMinutes(info.timezone) ?? 0; }, () => {});

/** Unix seconds as the calendar date of a clock `offset` minutes east of UTC (the site's unless given): every visitor reads the day the game showed. */
export const day = (seconds, offset = siteZone.offset) => (seconds === null || seconds === undefined ? 'unknown' : new Date((seconds + offset * 60) * 1000).toISOString().slice(0, 10));

export const badges = (item) => [
  el('span', { class: `badge rarity r${item.rarity}` }, rarityName.get(item.rarity) ?? `rarity ${item.rarity}`),
  el('span', { class: `badge attribute a${item.attribute}` }, attributeName.get(item.attribute) ?? `attribute ${item.attribute}`),
];

/**
 * A card tile from a card_list stub: icon, name, title, badges, and `shown` (the value the list
 * is ordered by) when given; it opens the card's view.
 */
export function cardTile(stub, shown = null) {
  const title = stub.title_en || stub.title;
  return el('li', { class: `card attr-${stub.attribute}` },
    el('a', { href: `#card/${stub.ordinal}` },
      stubIcon(stub, stub.char_name, rarityName.get(stub.rarity) ?? '?'),
      el('span', { class: 'meta' },
        el('span', { class: 'name' }, stub.char_name),
        title ? el('span', { class: 'title' }, title) : null,
        el('span', { class: 'tags' }, badges(stub), el('span', { class: 'ordinal' }, `#${stub.ordinal}`)),
        shown ? el('span', { class: 'order-value' }, shown) : null)));
}

/** The top of what the reader sees: below the header where it stays on screen (the page's scroll-padding-top, app.js). */
export const visibleTop = () => parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;

/**
 * Fills `list` with the first items and puts a "Show more" button after it, also pressed when it
 * comes near the screen, so a long list costs only what is on screen. Calling it again on the same
 * list replaces the items and the button. Returns the number of items.
 *
 * Loading more never moves what the reader sees: when the button comes near from above (the reader
 * is below the list: scrolling up, or jumped past it to a later section), the page scrolls by what
 * the new items add, so the content below stays where it was (the browser's own scroll anchoring,
 * which some browsers lack and Chromium applies unevenly, is off: style.css). From below (the reader
 * scrolling down to the list's end) the items take the button's place, as a click on it does.
 */
export function pagedList(list, items, tile, pageSize = 60) {
  list.pagedStop?.();
  let shown = 0;
  const more = el('button', { type: 'button', class: 'more' });
  const after = list.closest('section') ?? list.parentElement;
  const observer = new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) showMore(true); }, { rootMargin: '400px' });
  function showMore(near = false) {
    // Above what the reader sees: what follows the list keeps its place on screen.
    const above = near && more.getBoundingClientRect().bottom <= visibleTop();
    const before = above ? after.getBoundingClientRect().bottom : 0;
    const next = items.slice(shown, shown + pageSize);
    shown += next.length;
    list.append(...next.map(tile));
    more.textContent = `Show more (${items.length - shown} left)`;
    more.hidden = shown >= items.length;
    if (more.hidden) observer.disconnect();
    if (above) window.scrollBy(0, after.getBoundingClientRect().bottom - before);
  }
  more.addEventListener('click', () => showMore());
  list.replaceChildren();
  list.after(more);
  list.pagedStop = () => { observer.disconnect(); more.remove(); };
  showMore();
  if (!more.hidden) observer.observe(more);
  return items.length;
}

/** A definition list from [term, value] pairs, leaving out pairs without a value. */
export const facts = (pairs) => el('dl', { class: 'facts' },
  pairs.filter(([, value]) => value !== null && value !== undefined && value !== '')
    .flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]));

/**
 * A table with a caption, header row and body rows (cells are text or nodes), in a box that
 * scrolls sideways on a narrow screen: a named region in the tab order, so a keyboard scrolls it too.
 */
export const table = (caption, head, rows, attrs = {}) => el('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption },
  el('table', attrs,
    el('caption', {}, caption),
    el('thead', {}, el('tr', {}, head.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map((row) => el('tr', {}, row.map((cell, i) => el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row' } : {}, cell)))))));
