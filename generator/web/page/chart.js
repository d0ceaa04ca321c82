// Inline SVG drawings (no chart library): a card's stat chart (smile, pure and cool by level, with
// the non-idolized level cap marked, and every value also in a table as its text alternative), and
// a song chart's notes (its beatmap, `beatmap` below, described in words by its view: songs.js).
'use strict';
import { el, table } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const SIZE = { width: 640, height: 280, left: 52, right: 16, top: 16, bottom: 34 };
export const STATS = [['smile', 'Smile'], ['pure', 'Pure'], ['cool', 'Cool']];

export function svg(tag, attrs = {}, ...children) {
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

// ---- a chart's notes (its beatmap) ---------------------------------------------
// Lanes across as the player sees them (lane 9 on the left, lane 1 on the right: docs/page.md),
// time down, in columns of BEAT.seconds each, which the page lays side by side as its width allows
// (style.css .beatmap: two on a phone, seven on a desktop), so nothing scrolls sideways and a long
// chart reads down its columns. Light whatever the chart: a column is one SVG of about ten elements
// (a path per kind of mark, one for the holds' bars), so 1,000 notes are some 200 nodes, not 1,000.

/** A column's geometry in SVG units: lane width, lanes, seconds a column, units a second, header, a mark's radius. */
export const BEAT = { lane: 20, lanes: 9, seconds: 6, scale: 80, head: 34, radius: 7 };
const BEAT_WIDTH = BEAT.lane * BEAT.lanes;
/** Where a column's first instant is drawn: below its header, a mark's radius down so a note there shows whole. */
const BEAT_TOP = BEAT.head + BEAT.radius;
const BEAT_HEIGHT = BEAT_TOP + BEAT.seconds * BEAT.scale + BEAT.radius;

/** The effects of holds (a bar from timing_sec to timing_sec + effect_value), stars and swings: contract/format.ts. */
const HOLDS = [3, 13];
const STARS = [4];
const SWINGS = [11, 12, 13];

/** The kinds of mark, by shape (never colour alone): each subpath a mark, from its centre (`M x y`) by relative steps. */
const MARKS = (() => {
  const r = BEAT.radius;
  const star = Array.from({ length: 10 }, (_, i) => {
    const angle = ((-90 + 36 * i) * Math.PI) / 180;
    const length = i % 2 ? r * 0.5 : r + 1.5; // a star's points reach past a circle's edge, so it looks as large
    return [length * Math.cos(angle), length * Math.sin(angle)];
  });
  return [
    ['normal', 'note', `m0 ${-r}a${r} ${r} 0 1 0 0 ${2 * r}a${r} ${r} 0 1 0 0 ${-2 * r}z`],
    ['star', 'star note', `m0 ${round(star[0][1])}${star.slice(1).map(([x, y], i) => `l${round(x - star[i][0])} ${round(y - star[i][1])}`).join('')}z`],
    ['swing', 'swing note', `m0 ${-r - 1}l${r + 1} ${r + 1}l${-r - 1} ${r + 1}l${-r - 1} ${-r - 1}z`],
  ];
})();
const SHAPES = Object.fromEntries(MARKS.map(([kind, , shape]) => [kind, shape]));
const markOf = (note) => (STARS.includes(note.effect) ? 'star' : SWINGS.includes(note.effect) ? 'swing' : 'normal');

/** m:ss */
export const clock = (seconds) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

/** The lane's centre: lane 9 (the player's left) first. */
const laneX = (lane) => round((BEAT.lanes - lane + 0.5) * BEAT.lane);

/** One column: the seconds [from, from + BEAT.seconds), with its notes and the parts of holds that fall in it. */
function beatColumn(from, notes, holds) {
  const y = (t) => round(BEAT_TOP + (t - from) * BEAT.scale);
  const to = from + BEAT.seconds;
  const paths = { normal: '', star: '', swing: '' };
  const counts = { normal: 0, star: 0, swing: 0 };
  for (const note of notes) {
    const kind = markOf(note);
    paths[kind] += `M${laneX(note.position)} ${y(note.timing_sec)}${SHAPES[kind]}`;
    counts[kind]++;
  }
  let bars = '';
  let ends = '';
  for (const { position, start, end } of holds) {
    if (end <= from || start >= to) continue;
    bars += `M${laneX(position)} ${y(Math.max(start, from))}V${y(Math.min(end, to))}`;
    if (end <= to) ends += `M${round(laneX(position) - BEAT.radius)} ${y(end)}h${2 * BEAT.radius}`;
  }
  const seconds = Array.from({ length: BEAT.seconds + 1 }, (_, i) => `M0 ${y(from + i)}h${BEAT_WIDTH}`).join('');
  const lanes = Array.from({ length: BEAT.lanes }, (_, i) => `M${laneX(i + 1)} ${BEAT_TOP}V${y(to)}`).join('');
  const path = (cls, d, attrs = {}) => (d ? svg('path', { class: cls, d, ...attrs }) : null);
  return svg('svg', { class: 'beat-column', viewBox: `0 0 ${BEAT_WIDTH} ${BEAT_HEIGHT}`, 'aria-hidden': 'true', focusable: 'false', 'data-from': from },
    svg('text', { class: 'beat-time', x: 1, y: 12 }, `${clock(from)}–${clock(to)}`),
    svg('text', { class: 'beat-lanes', x: Array.from({ length: BEAT.lanes }, (_, i) => laneX(BEAT.lanes - i)).join(' '), y: 28 }, Array.from({ length: BEAT.lanes }, (_, i) => BEAT.lanes - i).join('')),
    svg('path', { class: 'beat-seconds', d: seconds }),
    svg('path', { class: 'beat-guides', d: lanes }),
    ...[path('holds', bars), path('hold-ends', ends)].filter(Boolean),
    ...MARKS.map(([kind]) => path(`marks marks-${kind}`, paths[kind], { 'data-count': counts[kind] })).filter(Boolean));
}

/**
 * A chart's notes drawn (an element with role img, named by `label`, described by the element
 * `describedBy` names): one mark per note at its lane and time, shaped by its kind (circle, star,
 * diamond for a swing), each hold a bar in its lane from its timing to timing + effect_value.
 * `data-notes` is the number of notes drawn; the geometry is on the element for programs.
 */
export function beatmap(notes, { label, describedBy }) {
  const holds = notes.filter((n) => HOLDS.includes(n.effect)).map((n) => ({ position: n.position, start: n.timing_sec, end: n.timing_sec + n.effect_value }));
  const last = Math.max(0, ...notes.map((n) => n.timing_sec), ...holds.map((h) => h.end));
  const columns = Math.max(1, Math.ceil(last / BEAT.seconds));
  const byColumn = Array.from({ length: columns }, () => []);
  for (const note of notes) byColumn[Math.min(columns - 1, Math.floor(note.timing_sec / BEAT.seconds))].push(note);
  return el('div', {
    class: 'beatmap', role: 'img', 'aria-label': label, 'aria-describedby': describedBy,
    dataset: { notes: notes.length, seconds: BEAT.seconds, scale: BEAT.scale, top: BEAT_TOP, laneWidth: BEAT.lane },
  }, byColumn.map((own, i) => beatColumn(i * BEAT.seconds, own, holds)));
}

/** The legend: each mark's shape beside its name, drawn as the chart draws it. */
export function beatLegend() {
  const r = BEAT.radius + 2;
  const icon = (...children) => svg('svg', { class: 'beat-key', viewBox: `${-r} ${-r} ${2 * r} ${2 * r}`, 'aria-hidden': 'true', focusable: 'false' }, ...children);
  return el('ul', { class: 'legend beat-legend' },
    MARKS.map(([kind, name, shape]) => el('li', {}, icon(svg('path', { class: `marks marks-${kind}`, d: `M0 0${shape}` })), name)),
    el('li', {}, icon(svg('path', { class: 'holds', d: `M0 ${-r}V${r}` })), 'hold: a bar as long as it is held'));
}
