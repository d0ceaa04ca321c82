// The stat chart: smile, pure and cool by level as an inline SVG (no chart library), with the
// non-idolized level cap marked, and every value also in a table as its text alternative.
'use strict';
import { el, table } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const SIZE = { width: 640, height: 280, left: 52, right: 16, top: 16, bottom: 34 };
export const STATS = [['smile', 'Smile'], ['pure', 'Pure'], ['cool', 'Cool']];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

const round = (n) => Math.round(n * 10) / 10;

/** Maps level (1-based) and value to SVG coordinates. */
function scales(levels, max) {
  const w = SIZE.width - SIZE.left - SIZE.right;
  const h = SIZE.height - SIZE.top - SIZE.bottom;
  return {
    x: (level) => round(SIZE.left + (levels > 1 ? ((level - 1) / (levels - 1)) * w : w / 2)),
    y: (value) => round(SIZE.top + h * (1 - value / max)),
  };
}

function axes(levels, max, cap, { x, y }) {
  const bottom = SIZE.height - SIZE.bottom;
  const label = (text, attrs) => svg('text', attrs, text);
  const marks = [svg('line', { class: 'axis', x1: SIZE.left, y1: bottom, x2: SIZE.width - SIZE.right, y2: bottom }),
    svg('line', { class: 'axis', x1: SIZE.left, y1: SIZE.top, x2: SIZE.left, y2: bottom }),
    label(String(max), { x: SIZE.left - 6, y: y(max) + 4, 'text-anchor': 'end' }),
    label('0', { x: SIZE.left - 6, y: bottom + 4, 'text-anchor': 'end' }),
    label('Lv 1', { x: x(1), y: bottom + 18, 'text-anchor': 'start' }),
    label(`Lv ${levels}`, { x: x(levels), y: bottom + 18, 'text-anchor': 'end' })];
  if (cap) {
    marks.push(svg('line', { class: 'cap', x1: x(cap), y1: SIZE.top, x2: x(cap), y2: bottom }),
      label(`Lv ${cap}: cap before idolizing`, { class: 'cap-label', x: x(cap) - 4, y: SIZE.top + 12, 'text-anchor': 'end' }));
  }
  return marks;
}

/** The level at which the non-idolized card stops, when the card levels further once idolized. */
const idolizeCap = (card, levels) => (card.normal_max_level < levels && !card.is_pre_transformed ? card.normal_max_level : null);

export function statChart(card) {
  const levels = card.smile.length;
  const max = Math.max(1, ...STATS.flatMap(([key]) => card[key]));
  const cap = idolizeCap(card, levels);
  const scale = scales(levels, max);
  const at = (level) => STATS.map(([key, name]) => `${name} ${card[key][level - 1]}`).join(', ');
  const summary = `Level 1: ${at(1)}.${cap ? ` Level ${cap} (cap before idolizing): ${at(cap)}.` : ''} Level ${levels}: ${at(levels)}.`;
  const chart = svg('svg', { class: 'chart', viewBox: `0 0 ${SIZE.width} ${SIZE.height}`, role: 'img', 'aria-labelledby': 'chart-title chart-desc', 'data-max': max, 'data-levels': levels },
    svg('title', { id: 'chart-title' }, 'Smile, Pure and Cool by level'),
    svg('desc', { id: 'chart-desc' }, summary),
    ...axes(levels, max, cap, scale),
    ...STATS.map(([key]) => svg('polyline', {
      class: `series stat-${key}`, 'data-stat': key, fill: 'none',
      points: card[key].map((value, i) => `${scale.x(i + 1)},${scale.y(value)}`).join(' '),
    })));
  const legend = el('ul', { class: 'legend' }, STATS.map(([key, name]) => el('li', { class: `stat-${key}` }, name)),
    cap ? el('li', { class: 'cap' }, `dashed line: level ${cap}, the cap before idolizing`) : null);
  const rows = card.smile.map((_, i) => [String(i + 1), ...STATS.map(([key]) => String(card[key][i])), String(card.stamina[i])]);
  return el('figure', { class: 'stats' }, chart, legend,
    el('figcaption', {}, summary),
    el('details', {}, el('summary', {}, 'Stats at every level'),
      table('Stats by level', ['Level', 'Smile', 'Pure', 'Cool', 'Stamina'], rows, { class: 'stat-table' })));
}
