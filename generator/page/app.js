// The card browser: plain DOM, no framework. Every URL is relative, so the page works
// from any static host; the paths come from the build (site-config in index.html).
'use strict';

const config = JSON.parse(document.getElementById('site-config').textContent);
const RARITIES = [[1, 'N'], [2, 'R'], [3, 'SR'], [5, 'SSR'], [4, 'UR']];
const ATTRIBUTES = [[1, 'Smile'], [2, 'Pure'], [3, 'Cool'], [5, 'All']];
const rarityName = new Map(RARITIES);
const attributeName = new Map(ATTRIBUTES);

const fill = (template, value) => template.replace('{}', encodeURIComponent(String(value)));

/** A DOM element with attributes and children (strings become text, never HTML). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

/** An icon as <picture> (WebP, PNG fallback), or a lettered placeholder when none is published. */
function icon(templates, name, alt, placeholder) {
  if (name === null || name === undefined) return el('span', { class: 'icon placeholder', role: 'img', 'aria-label': `${alt} (no picture)` }, placeholder);
  return el('picture', { class: 'icon' },
    el('source', { type: 'image/webp', srcset: fill(templates.webp, name) }),
    el('img', { src: fill(templates.png, name), alt, width: 64, height: 64, loading: 'lazy', decoding: 'async' }));
}

async function load(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

function showError(error) {
  const box = document.getElementById('load-error');
  box.hidden = false;
  box.textContent = `Could not load ${error.message}. Serve this folder over HTTP (for example npx http-server public).`;
}

// ---- cards ----------------------------------------------------------------

const filters = { rarity: new Set(), attribute: new Set(), text: '' };

function cardTile(card) {
  const name = card.char_name;
  const title = card.title_en || card.title;
  const tile = el('li', {
    class: `card attr-${card.attribute}`,
    dataset: { rarity: card.rarity, attribute: card.attribute, search: [name, card.title, card.title_en, `#${card.ordinal}`].filter(Boolean).join(' ').toLowerCase() },
  },
  el('a', { href: fill(config.card, card.ordinal), title: `${name}: card #${card.ordinal} as JSON` },
    icon(config.cardIcon, card.icon, name, rarityName.get(card.rarity) ?? '?'),
    el('span', { class: 'meta' },
      el('span', { class: 'name' }, name),
      title ? el('span', { class: 'title' }, title) : null,
      el('span', { class: 'tags' },
        el('span', { class: `badge rarity r${card.rarity}` }, rarityName.get(card.rarity) ?? `rarity ${card.rarity}`),
        el('span', { class: `badge attribute a${card.attribute}` }, attributeName.get(card.attribute) ?? `attribute ${card.attribute}`),
        el('span', { class: 'ordinal' }, `#${card.ordinal}`)))));
  return tile;
}

function applyFilters(tiles, total) {
  let shown = 0;
  for (const tile of tiles) {
    const { rarity, attribute, search } = tile.dataset;
    const visible = (!filters.rarity.size || filters.rarity.has(Number(rarity)))
      && (!filters.attribute.size || filters.attribute.has(Number(attribute)))
      && (!filters.text || search.includes(filters.text));
    tile.hidden = !visible;
    if (visible) shown++;
  }
  document.getElementById('card-count').textContent = shown === total ? `${total} cards` : `${shown} of ${total} cards`;
}

function chips(containerId, options, selected, counts, onChange) {
  const container = document.getElementById(containerId);
  for (const [value, label] of options) {
    if (!counts.get(value)) continue;
    const button = el('button', { type: 'button', class: 'chip', 'aria-pressed': 'false', dataset: { value } }, label, el('small', {}, String(counts.get(value))));
    button.addEventListener('click', () => {
      const on = !selected.has(value);
      if (on) selected.add(value); else selected.delete(value);
      button.setAttribute('aria-pressed', String(on));
      onChange();
    });
    container.append(button);
  }
}

function countBy(items, key) {
  const counts = new Map();
  for (const item of items) counts.set(item[key], (counts.get(item[key]) ?? 0) + 1);
  return counts;
}

function renderCards(list) {
  const grid = document.getElementById('card-grid');
  const tiles = list.stubs.map(cardTile);
  grid.replaceChildren(...tiles);
  const update = () => applyFilters(tiles, list.stubs.length);
  chips('rarity-filter', RARITIES, filters.rarity, countBy(list.stubs, 'rarity'), update);
  chips('attribute-filter', ATTRIBUTES, filters.attribute, countBy(list.stubs, 'attribute'), update);
  document.getElementById('search').addEventListener('input', (event) => {
    filters.text = event.target.value.trim().toLowerCase();
    update();
  });
  update();
  return new Map(list.stubs.map((c) => [c.ordinal, c]));
}

// ---- sets, pairs, accessories, files ---------------------------------------

function renderSets(list) {
  document.getElementById('set-list').replaceChildren(...list.sets.map((set) =>
    el('li', {},
      el('a', { href: fill(config.set, set.id) },
        el('span', { class: 'strip' }, ...set.preview.map((name) => icon(config.cardIcon, name, '', ''))),
        el('span', { class: 'name' }, set.display_name),
        el('code', {}, set.id)))));
}

function renderPairs(list, cardsByOrdinal) {
  document.getElementById('pair-list').replaceChildren(...list.pairs.map((pair) =>
    el('li', {},
      el('a', { href: fill(config.pair, pair.pair) },
        el('span', { class: 'strip' }, ...pair.ordinals.map((ordinal) => {
          const card = cardsByOrdinal.get(ordinal);
          return icon(config.cardIcon, card ? card.icon : null, card ? card.char_name : '', '?');
        })),
        el('span', { class: 'name' }, `Pair ${pair.pair}`),
        el('code', {}, pair.ordinals.map((o) => `#${o}`).join(' + '))))));
}

function renderAccessories(list) {
  document.getElementById('accessory-list').replaceChildren(...list.accessories.map((a) =>
    el('li', {},
      el('a', { href: fill(config.accessory, a.id) },
        icon(config.accessoryIcon, a.icon, a.name_en || a.name, '◆'),
        el('span', { class: 'meta' },
          el('span', { class: 'name' }, a.name_en || a.name),
          el('span', { class: 'title' }, [a.is_material ? 'material' : null, a.is_limited && a.unit_ordinal ? `card #${a.unit_ordinal}` : null].filter(Boolean).join(' · ') || `rarity ${a.rarity}`))))));
}

function renderFiles() {
  document.getElementById('api-files').replaceChildren(...config.files.map((file) => el('li', {}, el('a', { href: file }, file))));
}

/** Optional sections (pairs, accessories) disappear when the export has none. */
async function section(id, path, render) {
  try {
    render(await load(path));
  } catch (error) {
    document.getElementById(id).hidden = true;
    console.warn(error);
  }
}

async function main() {
  renderFiles();
  load(config.info).then((info) => {
    document.getElementById('version').textContent = `Data version ${info.truth_version}, API v${info.api_major}.${info.api_revision}.`;
  }).catch(showError);
  let cardsByOrdinal = new Map();
  try {
    cardsByOrdinal = renderCards(await load(config.cardList));
  } catch (error) {
    showError(error);
  }
  await Promise.all([
    section('sets', config.setList, renderSets),
    section('pairs', config.pairList, (list) => renderPairs(list, cardsByOrdinal)),
    section('accessories', config.accessoryList, renderAccessories),
  ]);
  document.body.dataset.ready = 'true';
}

main();
