/**
 * The browse page's Songs section and song view in a real browser, served by a plain static
 * host: every song with its charts, the group and difficulty filters, each chart's thresholds;
 * and a site without songs hides the section.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Request as PageRequest } from 'playwright-core';
import type { LiveJson, SongJson } from '../generator/contract/schemas.ts';
import { buildInto, buildSample, copySample, packedObject, readJson, tempDir } from './helpers.ts';
import { serveStatic, type StaticSite } from './staticServer.ts';
import { launchBrowser } from './browser.ts';
import { handleRequest } from '../generator/runtime/edge/handler.ts';
import { diskBytesReader, diskReader } from '../generator/runtime/server/diskSite.ts';
import { EXAMPLES, exampleUrl } from '../generator/runtime/search/examples.js';

let out: string;
let site: StaticSite;
let context: BrowserContext;
let page: Page;
let songs: SongJson[];
const errors: string[] = [];

const songOf = async (id: number): Promise<SongJson> => (await packedObject<SongJson>(out, 'song_t', id))!;
const liveOf = async (id: number): Promise<LiveJson> => (await packedObject<LiveJson>(out, 'live_t', id))!;
const shownSongs = () => page.locator('#song-list > li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));

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
    expect(rows.map((r) => r.slice(1, 11))).toEqual(charts.map((c) => [
      String(c.stars), 'Cool', ...['c', 'b', 'a', 's'].map((r) => String(c[`${r}_rank_score` as keyof LiveJson])), ...['c', 'b', 'a', 's'].map((r) => String(c[`${r}_rank_combo` as keyof LiveJson])),
    ]));
    expect(rows.at(-1)![11]).toContain('swing');
    const links = await page.locator('#view .json-links a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    // Generic objects at their route, which the edge answers from their packs (this static server has no edge).
    const disk = { read: diskReader(out), readBytes: diskBytesReader(out) };
    for (const link of links) expect(((await handleRequest(new Request(link), disk)) ?? await fetch(link)).status, link).toBe(200);
    expect(links).toHaveLength(song.live_ids.length + 1);
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
