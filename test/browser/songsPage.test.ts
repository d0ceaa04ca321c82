/**
 * The browse page's Songs section and song view in a real browser, served by a plain static
 * host: every song with its charts, the group and difficulty filters, each chart's thresholds;
 * a chart's view drawing its notes; and a site without songs hides the section.
 */
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Request as PageRequest } from 'playwright-core';
import type { LiveJson, NotesJson, SongJson } from '../../generator/contract/schemas.ts';
import { endpoints } from '../../generator/contract/endpoints.ts';
import { packOf } from '../../generator/contract/format.ts';
import { buildInto, buildSample, copySample, packedObject, readJson, tempDir } from '../helpers.ts';
import { serveStatic, type StaticSite } from '../staticServer.ts';
import { launchBrowser } from '../browser.ts';
import { handleRequest } from '../../generator/runtime/edge/handler.ts';
import { diskBytesReader, diskReader } from '../../generator/hosts/node/runtime/diskSite.ts';
import { EXAMPLES, exampleUrl } from '../../generator/web/search/examples.js';

let out: string;
let site: StaticSite;
let context: BrowserContext;
let page: Page;
let songs: SongJson[];
const errors: string[] = [];

const songOf = async (id: number): Promise<SongJson> => (await packedObject<SongJson>(out, 'song_t', id))!;
const liveOf = async (id: number): Promise<LiveJson> => (await packedObject<LiveJson>(out, 'live_t', id))!;
const shownSongs = () => page.locator('#song-list > li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
const notesOf = async (id: number): Promise<NotesJson> => (await readJson(out, endpoints.notesPack.file(packOf(id)))).objects[id];
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

beforeAll(async () => {
  ({ out } = await buildSample());
  songs = await Promise.all((await readJson(out, 'api/v1/list/song_t.json')).result.map((s: { id: number }) => songOf(s.id)));
  site = await serveStatic(out);
  context = await launchBrowser(await tempDir('sif-chromium-'));
  page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(site.url);
  await page.waitForSelector('body[data-ready="true"]');
});

afterAll(async () => {
  await context?.close();
  await site?.close();
});

describe('index.html: Songs', () => {
  it('lists every song with every chart (difficulty, stars, attribute in word and colour), by English name where it has one', async () => {
    expect(await page.locator('#songs').isVisible()).toBe(true);
    expect(await shownSongs()).toEqual(songs.map((s) => `#song/${s.id}`));
    expect(await page.locator('#song-list > li .name').allTextContents()).toEqual(songs.map((s) => s.name_en || s.name));
    // Every tile, every chart: what fans choose a chart by.
    const shown = await page.locator('#song-list > li').evaluateAll((lis) => lis.map((li) => Array.from(li.querySelectorAll('.song-chart'), (chart) => ({
      id: Number((chart as HTMLElement).dataset.chart),
      words: [chart.querySelector('.difficulty')!.textContent, chart.querySelector('.stars')!.textContent, chart.querySelector('.chart-attribute')!.textContent],
      edge: getComputedStyle(chart).borderLeftColor,
    }))));
    const colour = await page.evaluate(() => Object.fromEntries(['smile', 'pure', 'cool'].map((name) => {
      const probe = document.body.appendChild(document.createElement('i'));
      probe.style.color = `var(--${name})`;
      const value = getComputedStyle(probe).color;
      probe.remove();
      return [name, value];
    })));
    const charts = await Promise.all(songs.map((s) => Promise.all(s.live_ids.map(liveOf))));
    const attribute = ['', 'Smile', 'Pure', 'Cool'];
    expect(shown).toEqual(charts.map((own) => own.map((c) => ({
      id: c.id,
      words: [['', 'Easy', 'Normal', 'Hard', 'Expert', 'Expert random', 'Master'][c.difficulty!], `${c.stars}★ stars`, attribute[c.attribute!]],
      edge: colour[attribute[c.attribute!].toLowerCase()],
    }))));
    expect(shown.flat().length).toBeGreaterThan(songs.length);
    expect(errors).toEqual([]);
  });

  it('filters by group and by difficulty, together', async () => {
    await page.selectOption('#song-difficulty', '6');
    const masters = songs.filter((s) => s.live_ids.some((id) => id % 10 === 6));
    expect(await shownSongs()).toEqual(masters.map((s) => `#song/${s.id}`));
    expect(await page.locator('#song-list .song-chart').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^Master/)]));
    expect((await page.locator('#song-list .song-chart').allTextContents()).every((t) => t.startsWith('Master'))).toBe(true);
    await page.selectOption('#song-group', '2');
    expect(await shownSongs()).toEqual(masters.filter((s) => s.member_category === 2).map((s) => `#song/${s.id}`));
    expect(await page.locator('#song-group option:checked').textContent()).toBe('Nova');
    await page.selectOption('#song-difficulty', '');
    await page.selectOption('#song-group', '');
    expect(await page.locator('#song-count').textContent()).toBe(`${songs.length} of ${songs.length} songs`);
  });

  it('takes the API\'s song search language: shows the charts the edge answers, keeps the query in the URL, names a malformed one\'s column', async () => {
    const edge = { read: diskReader(out) };
    const queries = [...EXAMPLES.filter((e) => e.kind === 'song').map((e) => exampleUrl(e)), 'search/song?q=group:nova stars>=6'];
    for (const url of queries) {
      const q = new URL(url, 'http://x/').searchParams.get('q')!;
      const answer = await (await handleRequest(new Request(`http://x/api/v1/search/song?q=${encodeURIComponent(q)}&page_size=100`), edge))!.json() as { result: LiveJson[] };
      await page.fill('#song-search', q);
      const shown = (await page.locator('#song-list').getAttribute('data-charts'))!.split(',').filter(Boolean).map(Number);
      expect(shown.sort((a, b) => a - b), q).toEqual(answer.result.map((l) => l.id).sort((a, b) => a - b));
      expect(new URL(page.url()).searchParams.get('song_q')).toBe(q);
    }
    expect((await page.locator('#song-list').getAttribute('data-charts'))!.length).toBeGreaterThan(0);
    await page.fill('#song-search', 'stars>>3');
    expect(await page.locator('#song-search-error').textContent()).toMatch(/column 7/);
    await page.fill('#song-search', '');
    expect(await page.locator('#song-search-error').isHidden()).toBe(true);
  });

  it('a song view tables each chart\'s stars, attribute and score and combo thresholds, and links its JSON', async () => {
    const song = songs.find((s) => s.id === 3)!;
    await page.locator('#song-list a[href="#song/3"]').click();
    await page.waitForSelector('#view:not([aria-busy]) h1');
    expect(await page.locator('#view h1').textContent()).toBe(song.name_en);
    const rows = await page.locator('table.chart-thresholds tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (cell) => cell.textContent)));
    const charts = await Promise.all(song.live_ids.map(liveOf));
    expect(rows.map((r) => [...r.slice(1, 3), ...r.slice(5, 13)])).toEqual(charts.map((c) => [
      String(c.stars), 'Cool', ...['c', 'b', 'a', 's'].map((r) => String(c[`${r}_rank_score` as keyof LiveJson])), ...['c', 'b', 'a', 's'].map((r) => String(c[`${r}_rank_combo` as keyof LiveJson])),
    ]));
    expect(rows.at(-1)![13]).toContain('swing');
    const links = await page.locator('#view .json-links a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    // Generic objects at their route, which the edge answers from their packs (this static server has no edge).
    const disk = { read: diskReader(out), readBytes: diskBytesReader(out) };
    for (const link of links) expect(((await handleRequest(new Request(link), disk)) ?? await fetch(link)).status, link).toBe(200);
    expect(links).toHaveLength(song.live_ids.length + 1);
  });
});

describe('a chart\'s view: its notes drawn', () => {
  /** The drawing on the view shown, read back from its SVG: each mark's lane and time by kind, each hold bar's piece, its name. */
  const drawing = () => page.evaluate(() => {
    const map = document.querySelector('#view .beatmap') as HTMLElement;
    const [scale, top, laneWidth] = [map.dataset.scale, map.dataset.top, map.dataset.laneWidth].map(Number);
    const lane = (x: string) => 9 - Math.floor(Number(x) / laneWidth);
    const marks: Record<string, [number, number][]> = { normal: [], star: [], swing: [] };
    const shapes: Record<string, string> = {};
    const bars: [number, number, number][] = [];
    for (const column of Array.from(map.querySelectorAll('svg'))) {
      const from = Number(column.dataset.from);
      const time = (y: string) => from + (Number(y) - top) / scale;
      for (const kind of Object.keys(marks)) {
        const d = column.querySelector(`.marks-${kind}`)?.getAttribute('d') ?? '';
        for (const [, x, y] of d.matchAll(/M([\d.]+) ([\d.]+)/g)) marks[kind].push([lane(x), time(y)]);
        shapes[kind] ??= d.split('M')[1]?.replace(/^[\d.]+ [\d.]+/, '');
      }
      for (const [, x, y0, y1] of (column.querySelector('.holds')?.getAttribute('d') ?? '').matchAll(/M([\d.]+) ([\d.]+)V([\d.]+)/g)) bars.push([lane(x), time(y0), time(y1)]);
    }
    const described = document.getElementById(map.getAttribute('aria-describedby')!);
    return { role: map.getAttribute('role'), label: map.getAttribute('aria-label'), description: described?.textContent, notes: Number(map.dataset.notes), marks, shapes, bars, seconds: Number(map.dataset.seconds) };
  });
  /** [lane, time, ...] rows in time order (lane order at one time), so the drawing and the file compare as lists. */
  const inOrder = <T extends number[]>(rows: T[]) => [...rows].sort((a, b) => (Math.abs(a[1] - b[1]) > 0.005 ? a[1] - b[1] : a[0] - b[0]));
  const expectClose = (actual: number[][], expected: number[][], what: string) => {
    expect(actual.length, what).toBe(expected.length);
    actual.forEach((row, i) => row.forEach((value, j) => expect(Math.abs(value - expected[i][j]), `${what} ${i}: ${row} against ${expected[i]}`).toBeLessThan(0.005)));
  };
  const sentence = (c: LiveJson) => {
    const words = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const whole = Math.round(c.duration_sec!);
    return `${words(c.note_count!, 'note')} over ${Math.floor(whole / 60)} min ${whole % 60} s (${c.nps} per second), ${words(c.star_notes!, 'star')}, `
      + `${words(c.hold_notes!, 'hold')}, ${words(c.swing_notes!, 'swing')}; notes by lane from the left (lane 9) to the right (lane 1): ${[...c.lane_counts!].reverse().join(', ')}.`;
  };

  it('the charts table says each chart\'s notes in words; only a chart with notes has a Chart link', async () => {
    // The song view of the test before: song 3, whose Easy chart alone has notes.
    const song = songs.find((s) => s.id === 3)!;
    const charts = await Promise.all(song.live_ids.map(liveOf));
    const rows = await page.locator('table.chart-thresholds tbody tr').evaluateAll((trs) => trs.map((tr) => ({
      notes: tr.children[4].textContent, links: Array.from(tr.querySelectorAll('a'), (a) => [a.getAttribute('href'), a.textContent]),
    })));
    expect(rows).toEqual(charts.map((c) => (c.notes_url === null ? { notes: 'no notes', links: [] }
      : { notes: `${c.note_count} notes, ${c.nps} per second`, links: [[`#chart/${c.id}`, 'Chart of Easy']] })));
    expect(charts.filter((c) => c.notes_url !== null)).toHaveLength(1);
    // A chart without notes, opened by its URL all the same: it says so, and draws nothing.
    await page.evaluate(() => { location.hash = '#chart/32'; });
    await page.waitForFunction(() => location.hash === '#chart/32' && document.querySelector('#view:not([aria-busy]) h1') !== null);
    expect(await page.locator('#view .panel p').first().textContent()).toBe('This chart has no notes on this site (the export has no readable note file for it).');
    expect(await page.locator('#view .beatmap').count()).toBe(0);
    await page.goBack();
    await page.waitForFunction(() => location.hash === '#song/3' && document.querySelector('#view:not([aria-busy]) .chart-thresholds') !== null);
  });

  it('draws one mark per note in its lane at its time, stars and swings by shape, holds as long as they are held; the statistics beside it in words', async () => {
    const chart = await liveOf(31);
    const { notes } = await notesOf(31);
    await page.locator('table.chart-thresholds a[href="#chart/31"]').click();
    await page.waitForSelector('#view:not([aria-busy]) .beatmap');
    expect(new URL(page.url()).hash).toBe('#chart/31');
    expect(await page.locator('#view h1').textContent()).toBe('Nova Light: Easy chart');
    const drawn = await drawing();
    expect(drawn.notes).toBe(notes.length);
    expect(drawn.role).toBe('img');
    expect(drawn.label).toMatch(/^The notes of Nova Light, Easy: lanes 9 to 1 from left to right, time from top to bottom/);
    expect(drawn.description).toBe(sentence(chart));
    expect(drawn.description).toMatch(/^113 notes over 1 min 35 s \(1\.18 per second\), 10 stars, 15 holds, 30 swings; /);
    // Every note once, by kind: stars (effect 4) and swings (11, 12, 13) each a shape of their own.
    const kind = (effect: number) => (effect === 4 ? 'star' : [11, 12, 13].includes(effect) ? 'swing' : 'normal');
    for (const k of ['normal', 'star', 'swing']) {
      expectClose(inOrder(drawn.marks[k]), inOrder(notes.filter((n) => kind(n.effect) === k).map((n) => [n.position, n.timing_sec])), `${k} marks`);
    }
    expect(drawn.marks.star).toHaveLength(chart.star_notes!);
    expect(drawn.marks.swing).toHaveLength(chart.swing_notes!);
    expect(new Set(Object.values(drawn.shapes)).size).toBe(3);
    // Holds (3, and swing holds 13): a bar in the note's lane from timing_sec to timing_sec + effect_value, in pieces where it crosses into the next column.
    const bars: number[][] = [];
    for (const [lane, start, end] of inOrder(drawn.bars)) {
      const last = [...bars].reverse().find((b) => b[0] === lane);
      if (last && Math.abs(last[2] - start) < 0.005 && Math.abs(start / drawn.seconds - Math.round(start / drawn.seconds)) < 0.001) last[2] = end;
      else bars.push([lane, start, end]);
    }
    const holds = notes.filter((n) => [3, 13].includes(n.effect));
    expect(holds.length).toBeGreaterThan(1);
    expectClose(inOrder(bars), inOrder(holds.map((n) => [n.position, n.timing_sec, n.timing_sec + n.effect_value])), 'hold bars');
    expect(await page.locator('#view .beat-legend li').allTextContents()).toEqual(['note', 'star note', 'swing note', 'hold: a bar as long as it is held']);
    expect(errors).toEqual([]);
  });

  it('is a link: the back button returns to the song, forward to the chart; axe finds nothing serious and nothing scrolls sideways at 360 px', async () => {
    await page.goBack();
    await page.waitForFunction(() => location.hash === '#song/3' && document.querySelector('#view:not([aria-busy]) .chart-thresholds') !== null);
    await page.goForward();
    await page.waitForFunction(() => location.hash === '#chart/31' && document.querySelector('#view:not([aria-busy]) .beatmap') !== null);
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      // Columns side by side as the width allows, each tall and narrow: the drawing grows down, never sideways.
      const box = await page.locator('#view .beatmap').boundingBox();
      expect(box!.width).toBeLessThanOrEqual(360);
      expect(box!.height).toBeGreaterThan(2 * box!.width);
      await page.addScriptTag({ path: AXE });
      const violations = await page.evaluate(async () => (await (window as any).axe.run('#view', { resultTypes: ['violations'] })).violations
        .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
        .map((v: any) => `${v.id}: ${v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')).join(', ')}`));
      expect(violations).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('stays light: the largest sample chart, and 1,200 notes over 2.5 minutes, in a few hundred elements', async () => {
    const charts = (await Promise.all(songs.flatMap((s) => s.live_ids).map(liveOf))).filter((c) => c.note_count !== null);
    const largest = charts.reduce((a, c) => (c.note_count! > a.note_count! ? c : a));
    await page.evaluate((hash) => { location.hash = hash; }, `#chart/${largest.id}`);
    await page.waitForFunction((id) => document.querySelector(`#view:not([aria-busy]) .beatmap`) !== null && location.hash === `#chart/${id}`, largest.id);
    expect(await page.locator('#view .beatmap').getAttribute('data-notes')).toBe(String(largest.note_count));
    const drawnMs = await page.evaluate(() => performance.getEntriesByName('chart-drawn').at(-1)!.duration);
    // A long chart, drawn by the page's own module into the view and laid out: marks, elements, and the time it took.
    const long = await page.evaluate(`(async () => {
      const { beatmap } = await import(new URL('site/chart.js', document.baseURI).href);
      const effects = [1, 1, 1, 1, 1, 2, 3, 4, 11, 13];
      const notes = Array.from({ length: 1200 }, (_, i) => ({ timing_sec: 1 + i * 0.125, notes_attribute: 1, notes_level: 1, effect: effects[i % 10],
        effect_value: [3, 13].includes(effects[i % 10]) ? 0.5 + (i % 7) * 0.25 : 2, position: 1 + ((i * 7) % 9) }));
      const started = performance.now();
      const node = beatmap(notes, { label: 'a long chart', describedBy: 'chart-stats' });
      document.querySelector('#view').append(node);
      node.getBoundingClientRect();
      const ms = performance.now() - started;
      const marks = Array.from(node.querySelectorAll('.marks'), (p) => p.getAttribute('d').split('M').length - 1).reduce((a, b) => a + b, 0);
      const elements = node.querySelectorAll('*').length;
      node.remove();
      return { ms, marks, elements };
    })()`) as { ms: number; marks: number; elements: number };
    expect(long.marks).toBe(1200);
    expect(long.elements).toBeLessThan(300);
    console.log(`chart view: ${largest.note_count} notes (chart ${largest.id}) drawn in ${drawnMs.toFixed(1)} ms; 1,200 notes drawn and laid out in ${long.ms.toFixed(1)} ms, ${long.elements} elements`);
    expect(errors).toEqual([]);
  });
});

describe('a site without a live database', () => {
  it('hides the Songs section and its link, and asks for no song file', async () => {
    const input = await copySample();
    rmSync(path.join(input, 'live.sql'));
    const built = await buildInto(input);
    const other = await serveStatic(built.out);
    // The songs' page, loading the other site: a page less to start.
    const p = page;
    const asked: string[] = [];
    const onRequest = (r: PageRequest) => { if (/api\/v1\/.*(song|live_t)/.test(r.url())) asked.push(new URL(r.url()).pathname); };
    p.on('request', onRequest);
    try {
      await p.goto(other.url);
      await p.waitForSelector('body[data-ready="true"]');
      expect(await p.locator('#songs').isHidden()).toBe(true);
      expect(await p.locator('#songs-link').isHidden()).toBe(true);
      expect(asked).toEqual([]);
      expect(await p.locator('#events').isVisible()).toBe(true);
    } finally {
      p.off('request', onRequest);
      await other.close();
    }
  });
});
