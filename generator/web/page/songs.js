// The Songs section and the song view (#song/<id>): every song with its charts, from list/song_t
// and list/live_t, filtered by group, difficulty and a query in the API's song search language
// (search/query.js on search_index/song, whose rows are charts; the query lives in the page's
// URL as song_q); a song's view shows each chart's rank thresholds and how it is played. Codes
// are the game's; DIFFICULTIES (the search words) names them. A chart's view (#chart/<id>) draws
// its notes (chart.js beatmap) from the notes packs, and says its statistics in words.
'use strict';
import { attributeName, config, el, facts, fill, load, pagedList, table } from './dom.js';
import { BEAT, beatLegend, beatmap, clock } from './chart.js';
import { jsonLinks, object, regionsText, section } from './views.js';
import { num } from './words.js';
import { DIFFICULTIES } from '../search/words.js';
import { QueryError, search } from '../search/query.js';

const $ = (id) => document.getElementById(id);

/** "Master", "Expert random", or the code where the game added one we have no word for. */
export const difficultyName = (code) => DIFFICULTIES.find((d) => d.code === code)?.about.replace(/ \(.*\)$/, '') ?? (code === null ? '?' : `difficulty ${code}`);
const nameOf = (item) => item.name_en || item.name;
const groupOf = (song) => song.group_name_en || song.group_name || (song.member_category === null ? 'no group' : `group ${song.member_category}`);
const minutes = (seconds) => (seconds === null ? null : clock(seconds));
const chartLabel = (chart) => `${difficultyName(chart.difficulty)} ${chart.stars ?? '?'}★`;

/** `<select>` options from [value, label] pairs, after an "all" option. */
const fillSelect = (select, pairs) => select.replaceChildren(el('option', { value: '' }, 'all'), ...pairs.map(([value, label]) => el('option', { value: String(value) }, label)));

/**
 * One chart on a song's tile: difficulty, stars and attribute, which fans choose a chart by; the
 * attribute is a word as well as the colour of the chart's edge (never the colour alone).
 */
const chartItem = (chart) => el('li', { class: `song-chart attr-${chart.attribute} difficulty-${chart.difficulty}`, dataset: { chart: chart.id } },
  el('span', { class: 'difficulty' }, difficultyName(chart.difficulty)), ' ',
  el('span', { class: 'stars' }, chart.stars === null ? '?' : String(chart.stars), el('span', { 'aria-hidden': 'true' }, '★'), el('span', { class: 'sr-only' }, ' stars')), ' ',
  el('span', { class: 'chart-attribute' }, attributeName.get(chart.attribute) ?? (chart.attribute === null ? 'no attribute' : `attribute ${chart.attribute}`)));

/** A song's tile: name, group and length, and every chart shown (all of them unless a filter chooses some). */
function songTile([song, charts]) {
  return el('li', {},
    el('a', { href: `#song/${song.id}` },
      el('span', { class: 'name' }, nameOf(song)),
      el('span', { class: 'title' }, [groupOf(song), minutes(song.length)].filter(Boolean).join(' · ')),
      charts.length ? el('ul', { class: 'song-charts' }, charts.map(chartItem)) : null));
}

/** The ids of the charts `query` matches on the song index, null (with the error shown) when it is malformed. */
function matchingCharts(index, query) {
  const error = $('song-search-error');
  try {
    const rows = search(index, { q: query, order: 'id', dir: 'asc', seed: 0 });
    error.hidden = true;
    $('song-search').removeAttribute('aria-invalid');
    return new Set(rows.map((row) => index.columns.id[row]));
  } catch (problem) {
    if (!(problem instanceof QueryError)) throw problem;
    error.textContent = problem.message;
    error.hidden = false;
    $('song-search').setAttribute('aria-invalid', 'true');
    return null;
  }
}

/** The query in the page's URL (song_q), the rest of the URL kept. */
function writeQuery(query) {
  const params = new URLSearchParams(location.search);
  if (query) params.set('song_q', query); else params.delete('song_q');
  const search = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
}

/** Fills the Songs section; false (the section hides) when the site publishes no songs. */
export async function renderSongs(songs) {
  const [lives, index] = await Promise.all([load(config.liveList), load(fill(config.searchIndex, 'song'))]);
  const charts = new Map();
  for (const live of lives.result) charts.set(live.song_id, [...(charts.get(live.song_id) ?? []), live]);
  const groups = new Map(songs.result.map((s) => [s.member_category, groupOf(s)]));
  fillSelect($('song-group'), [...groups].filter(([code]) => code !== null).sort((a, b) => a[0] - b[0]));
  const difficulties = [...new Set(lives.result.map((l) => l.difficulty))].filter((d) => d !== null).sort((a, b) => a - b);
  fillSelect($('song-difficulty'), difficulties.map((d) => [d, difficultyName(d)]));
  const box = $('song-search');
  box.value = new URLSearchParams(location.search).get('song_q') ?? '';
  const show = () => {
    const [group, difficulty, query] = [$('song-group').value, $('song-difficulty').value, box.value];
    writeQuery(query);
    const matching = matchingCharts(index, query);
    if (!matching) return;
    // Chart terms (a difficulty, a query) keep the songs with a chart that meets them, showing those charts.
    const byChart = difficulty !== '' || query.trim() !== '';
    const shown = songs.result
      .filter((s) => group === '' || String(s.member_category) === group)
      .map((s) => [s, (charts.get(s.id) ?? []).filter((c) => (difficulty === '' || String(c.difficulty) === difficulty) && matching.has(c.id))])
      .filter(([, own]) => !byChart || own.length);
    $('song-count').textContent = `${shown.length} of ${songs.result.length} songs`;
    pagedList($('song-list'), shown, songTile);
    // Every chart shown, beyond the tiles on screen, for programs that read the page.
    $('song-list').dataset.charts = shown.flatMap(([, own]) => own.map((c) => c.id)).join(',');
  };
  for (const id of ['song-group', 'song-difficulty']) $(id).addEventListener('change', show);
  box.addEventListener('input', show);
  show();
  return songs.result.length > 0;
}

const ranks = (chart, what) => ['c', 'b', 'a', 's'].map((rank) => num(chart[`${rank}_rank_${what}`]));
const playText = (play) => `${play.kind} live ${play.live_difficulty_id}${play.capital_value === null ? '' : `: ${play.capital_value} ${play.capital_type === 1 ? 'LP' : `of cost type ${play.capital_type}`}`}`;
/** The regions holding a chart, on an archive site ("JP, WW"), for the charts table. */
const heldIn = (chart) => Object.entries(chart.regions ?? {}).filter(([, r]) => r.present).map(([code]) => code.toUpperCase()).join(', ') || 'none';
const flags = (chart) => [chart.swing_flag ? 'swing' : null, chart.ac_flag ? 'arcade' : null, chart.lane_count === null ? null : `${chart.lane_count} lanes`].filter(Boolean).join(', ');

// ---- a chart's notes: statistics in words ------------------------------------------

/** "1 star", "30 holds". */
const count = (n, word) => `${num(n)} ${word}${n === 1 ? '' : 's'}`;
/** "2 min 3 s", "52 s". */
const span = (seconds) => {
  const whole = Math.round(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min${whole % 60 ? ` ${whole % 60} s` : ''}`;
};
/** "120 notes, 1.08 per second" for the charts table; null for a chart without notes. */
const notesBrief = (chart) => (chart.note_count === null ? null : `${count(chart.note_count, 'note')}${chart.nps === null ? '' : `, ${num(chart.nps)} per second`}`);

/**
 * The chart's statistics (live_t's) in one sentence, lanes in the drawing's order: "712 notes over 2
 * min 3 s (5.8 per second), 48 stars, 30 holds, 0 swings; notes by lane from the left (lane 9) to the
 * right (lane 1): ...".
 */
function notesSentence(chart) {
  const lanes = [...chart.lane_counts].reverse().map(num).join(', ');
  return `${count(chart.note_count, 'note')} over ${span(chart.duration_sec)}${chart.nps === null ? '' : ` (${num(chart.nps)} per second)`}, `
    + `${count(chart.star_notes, 'star')}, ${count(chart.hold_notes, 'hold')}, ${count(chart.swing_notes, 'swing')}; `
    + `notes by lane from the left (lane 9) to the right (lane 1): ${lanes}.`;
}

// ---- a chart's notes: from the notes pack ------------------------------------------
// The notes route (live_t notes_url) is answered by the edge; a plain static host has only the
// packs, which every host serves, as the page reads every generic object (views.js object). A pack
// holds 128 charts' notes (megabytes at the game's size): the chart's own bytes are sliced out at
// the pack's offsets (format.ts, render/packs.ts), so only its notes are parsed.

/** The notes packs: laid out as every kind's (contract/endpoints.ts packEndpoint), beside live_t's. */
const { notesPack } = config;
const OFFSETS = new TextEncoder().encode(',"offsets":');
const utf8 = new TextDecoder();

/** The object of `id` sliced out of a pack's bytes at its offsets (they come last), null when the pack has none. */
function sliced(bytes, id) {
  let at = bytes.length - OFFSETS.length;
  while (at >= 0 && OFFSETS.some((byte, i) => bytes[at + i] !== byte)) at--;
  if (at < 0) throw new Error('a notes pack without offsets');
  const offsets = JSON.parse(utf8.decode(bytes.subarray(at + OFFSETS.length, bytes.lastIndexOf(0x7d))));
  return Object.hasOwn(offsets, id) ? JSON.parse(utf8.decode(bytes.subarray(...offsets[id]))) : null;
}

const notesPackOf = (chart) => fill(notesPack, Math.floor(chart.id / config.packSize));
/** The notes route of a chart, as the page names files: its notes_url is relative to the chart's route. */
const notesRoute = (chart) => new URL(chart.notes_url, new URL(fill(config.object.live_t, chart.id), 'http://site/')).pathname.slice(1);

/** A chart's notes object ({live_setting_id, notes}): from its pack, else from the notes route (an edge's) where the site has no pack. */
async function chartNotes(chart) {
  try {
    return sliced(new Uint8Array(await load(notesPackOf(chart), 'arrayBuffer')), chart.id);
  } catch (error) {
    if (error.status !== 404) throw error;
    return load(notesRoute(chart));
  }
}

export async function songView(id) {
  const song = await object('song_t', id);
  if (!song) throw Object.assign(new Error(`song ${id} is not published`), { status: 404 });
  const lives = (await Promise.all(song.live_ids.map((live) => object('live_t', live)))).filter(Boolean);
  // An archive site's charts say which regions hold each (a chart can come to a region after its song).
  const regional = lives.some((c) => c.regions);
  // A chart with notes: their number and rate in words, and a link to its drawing.
  const drawing = (c) => (c.notes_url === null ? '—' : el('a', { href: `#chart/${c.id}`, class: 'chart-link' }, 'Chart', el('span', { class: 'sr-only' }, ` of ${difficultyName(c.difficulty)}`)));
  const rows = lives.map((c) => [difficultyName(c.difficulty), num(c.stars), attributeName.get(c.attribute) ?? num(c.attribute), drawing(c), el('span', { class: 'notes-brief' }, notesBrief(c) ?? 'no notes'),
    ...ranks(c, 'score'), ...ranks(c, 'combo'), flags(c), c.plays.map(playText).join('; '), ...(regional ? [heldIn(c)] : [])]);
  return [
    el('header', { class: 'view-head' }, el('div', {}, el('h1', { tabindex: '-1' }, nameOf(song)), el('p', { class: 'names' }, [song.name_en ? song.name : '', song.name_kana].filter(Boolean).join(' · ')))),
    section('About', facts([['Group', groupOf(song)], ['Length', minutes(song.length)], ['Charts', String(lives.length)], ['Regions', regionsText(song.regions)]])),
    section('Charts', table('Charts with the score and combo each rank needs', [
      'Difficulty', 'Stars', 'Attribute', 'Chart', 'Notes', 'Score C', 'Score B', 'Score A', 'Score S', 'Combo C', 'Combo B', 'Combo A', 'Combo S', 'Flags', 'Played as',
      ...(regional ? ['Regions'] : []),
    ], rows, { class: 'chart-thresholds' })),
    section('JSON', jsonLinks([['Song', fill(config.object.song_t, song.id)], ...lives.map((c) => [`${chartLabel(c)} chart`, fill(config.object.live_t, c.id)])])),
  ];
}

/** A chart's notes drawn, with its statistics in words beside the drawing; or why there is no drawing. */
async function drawnNotes(chart, label) {
  if (chart.notes_url === null) return el('p', {}, 'This chart has no notes on this site (the export has no readable note file for it).');
  let file;
  try {
    file = await chartNotes(chart);
  } catch (error) {
    return el('p', { class: 'notice' }, `Could not load this chart's notes: ${error.message}`);
  }
  if (!file) return el('p', { class: 'notice' }, `Its notes pack has no notes for chart ${chart.id}.`);
  const started = performance.now();
  const figure = el('figure', { class: `beatmap-figure attr-${chart.attribute}` },
    el('p', { class: 'chart-stats', id: 'chart-stats' }, notesSentence(chart)),
    beatLegend(),
    beatmap(file.notes, { label, describedBy: 'chart-stats' }));
  performance.measure('chart-drawn', { start: started });
  return figure;
}

/**
 * A chart's view (#chart/<live_setting_id>): its notes drawn (chart.js beatmap) from the notes pack,
 * with its statistics in words beside the drawing, and a link back to its song.
 */
export async function chartView(id) {
  const chart = await object('live_t', id);
  if (!chart) throw Object.assign(new Error(`chart ${id} is not published`), { status: 404 });
  const name = nameOf((await object('song_t', chart.song_id)) ?? chart);
  const difficulty = difficultyName(chart.difficulty);
  const attribute = attributeName.get(chart.attribute) ?? (chart.attribute === null ? null : `attribute ${chart.attribute}`);
  const label = `The notes of ${name}, ${difficulty}: lanes 9 to 1 from left to right, time from top to bottom, in columns of ${BEAT.seconds} seconds`;
  const notes = chart.notes_url !== null;
  return [
    el('header', { class: 'view-head' }, el('div', {},
      el('h1', { tabindex: '-1' }, `${name}: ${difficulty} chart`),
      el('p', { class: 'names' }, [`${chart.stars === null ? '?' : chart.stars} stars`, attribute, `chart ${chart.id}`].filter(Boolean).join(' · ')),
      el('p', { class: 'song-link' }, el('a', { href: `#song/${chart.song_id}` }, `All charts of ${name}`)))),
    section('Notes', await drawnNotes(chart, label)),
    section('JSON', jsonLinks([['Chart', fill(config.object.live_t, chart.id)], notes && ['Notes', notesRoute(chart)],
      notes && ['Notes pack (any host)', notesPackOf(chart)], ['Song', fill(config.object.song_t, chart.song_id)]])),
  ];
}
