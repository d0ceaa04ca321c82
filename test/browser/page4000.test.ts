/**
 * The card browser on a game-sized export: 4,000 generated cards (the bench's export). Nothing is
 * timed here; `npm run bench` reports the load time (page4000_interactive_ms).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { CardListJson } from '../../generator/contract/schemas.ts';
import { BIG_CARDS as CARDS, bigSite, readJson, tempDir } from '../helpers.ts';
import { serveStatic, type StaticSite } from '../staticServer.ts';
import { launchBrowser } from '../browser.ts';

let site: StaticSite;
let context: BrowserContext;
let page: Page;
let list: CardListJson;
let out: string;

const rendered = () => page.locator('#card-grid > li').count();
const count = () => page.locator('#card-count').textContent();

beforeAll(async () => {
  ({ out } = await bigSite());
  list = await readJson(out, 'api/v1/card_list.json');
  site = await serveStatic(out);
  context = await launchBrowser(await tempDir('sif-chromium-'));
  page = await context.newPage();
  await page.goto(site.url);
  await page.waitForSelector('body[data-ready="true"]');
}, 120_000);

afterAll(async () => {
  await context?.close();
  await site?.close();
});

describe('index.html with 4,000 cards', () => {
  it('counts every card but renders only a page of them, and more on request', async () => {
    // The generated export keeps a few rows encrypted, as real ones do.
    expect(list.stubs.length).toBeGreaterThan(CARDS * 0.99);
    expect(await count()).toBe(`${list.stubs.length} cards`);
    const first = await rendered();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(200);
    await page.click('#cards .more');
    // The button also presses itself when it scrolls into view, so one click shows one page or more.
    const after = await rendered();
    expect(after).toBeGreaterThan(first);
    expect(after % first).toBe(0);
    expect(await page.locator('#cards .more').textContent()).toBe(`Show more (${list.stubs.length - after} left)`);
  });

  it('filters and searches over every card, not only the rendered ones', async () => {
    const urCool = list.stubs.filter((c) => c.rarity === 4 && c.attribute === 3);
    await page.click('#rarity-filter button:text("UR")');
    await page.click('#attribute-filter button:text("Cool")');
    expect(await count()).toBe(`${urCool.length} of ${list.stubs.length} cards`);
    expect(await page.locator('#card-grid .ordinal').first().textContent()).toBe(`#${urCool[0].ordinal}`);
    await page.click('#rarity-filter button:text("UR")');
    await page.click('#attribute-filter button:text("Cool")');

    const last = list.stubs.at(-1)!;
    await page.fill('#search', `#${last.ordinal}`);
    expect(await page.locator('#card-grid .ordinal').allTextContents()).toEqual([`#${last.ordinal}`]);
    await page.click('#card-grid a');
    await page.waitForSelector('#view:not([aria-busy]) h1');
    const card = (await readJson(out, `api/v1/card/${last.ordinal}.json`)).cards[0];
    expect(await page.locator('#view table.stat-table tbody tr').count()).toBe(card.smile.length);
    expect(await page.locator('#view h1').textContent()).toContain(last.char_name);
    await page.goBack();
    await page.fill('#search', '');
    expect(await count()).toBe(`${list.stubs.length} cards`);
  });
});

describe('index.html with 4,000 cards: jumps to a section', () => {
  /** Waits `n` frames: time for a list to load more as it comes near the screen, and for the page to answer. */
  const frames = (p: Page, n: number) => p.evaluate((count) => new Promise<void>((resolve) => {
    const step = (left: number) => (left ? requestAnimationFrame(() => step(left - 1)) : resolve());
    step(count);
  }), n);
  /** How far a section's heading is below the top of what the reader sees (the header's bottom where it stays on screen). */
  const belowTop = (p: Page, id: string) => p.evaluate((section) => {
    const header = document.querySelector('.top')!;
    const under = getComputedStyle(header).position === 'sticky' ? header.getBoundingClientRect().bottom : 0;
    return document.querySelector(`#${section} h2`)!.getBoundingClientRect().top - under;
  }, id);
  /**
   * How far what the reader sees may move while a list above it grows and the page holds it in place: a list grown
   * without that moves it by a row (100 px or more); held, it moves by a pixel at most, the sticky header's bottom
   * landing on fractions of a pixel and the scroll kept in place moving by whole ones (seen: 27.86 then 28.36; 27.36
   * then 28.36, about once in twenty runs).
   */
  const STAYS_PX = 2;
  /** At the top: just below the header, a section's padding above its heading; not pushed down by a list that grew. */
  const expectAtTop = (y: number, what: string) => {
    expect(y, what).toBeGreaterThanOrEqual(0);
    expect(y, what).toBeLessThanOrEqual(40);
  };

  it('every nav link, clicked once, brings its section to the top and keeps it there, on a phone and a desktop; #section URLs land too', async () => {
    const p = await context.newPage();
    // What's new shows when the site has a change list: a section right below the card grid, hidden until its file loads.
    const changes = { from: null, to: { truth_version: 'next', date: null }, types: { cards: { added: [list.stubs[0].id], removed: [], changed: [], added_ordinals: [list.stubs[0].ordinal], removed_ordinals: [] } } };
    await p.route('**/api/v1/changes.json', (route) => route.fulfill({ json: changes }));
    for (const [width, height, opened] of [[1280, 900, 'new'], [360, 740, 'songs']] as const) {
      await p.setViewportSize({ width, height });
      // A link to a section opens there, the sections above it filling in as their files load.
      await p.goto('about:blank');
      await p.goto(`${site.url}#${opened}`);
      await p.waitForSelector('body[data-ready="true"]');
      await frames(p, 4);
      expectAtTop(await belowTop(p, opened), `${width} px: opened at #${opened}`);
      const links = await p.locator('.top nav a[href^="#"]:visible').evaluateAll((as) => as.map((a) => a.getAttribute('href')!.slice(1)));
      expect(links).toEqual(['cards', 'new', 'sets', 'pairs', 'accessories', 'events', 'songs', 'api', 'downloads']);
      // Each link clicked once, in turn: the jumps pass lists that grow as they come near the screen (cards, sets, accessories: over 60 each).
      const landed = await p.evaluate(async (ids) => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        const header = document.querySelector('.top')!;
        const top = (id: string) => document.querySelector(`#${id} h2`)!.getBoundingClientRect().top
          - (getComputedStyle(header).position === 'sticky' ? header.getBoundingClientRect().bottom : 0);
        const found: [string, number, number][] = [];
        for (const id of ids) {
          (document.querySelector(`.top nav a[href="#${id}"]`) as HTMLAnchorElement).click();
          // A list near the screen loads in the frame after the jump: measured after it, and again later.
          for (let i = 0; i < 2; i++) await frame();
          const first = top(id);
          for (let i = 0; i < 2; i++) await frame();
          found.push([id, first, top(id)]);
        }
        return found;
      }, [...links.slice(1), 'cards']);
      for (const [id, first, later] of landed) {
        expectAtTop(first, `${width} px: #${id}`);
        expect(Math.abs(later - first), `${width} px: #${id} stays (${first} -> ${later})`).toBeLessThanOrEqual(STAYS_PX);
      }
      expect(await p.locator('#card-grid > li').count()).toBeGreaterThan(60);
      // Scrolling up from a section past a list's end: the list loads more, and what is on screen stays where it was.
      await p.click('.top nav a[href="#events"]');
      await frames(p, 2);
      await p.mouse.move(width / 2, height / 2);
      await p.mouse.wheel(0, -(await belowTop(p, 'events')) - 300);
      await frames(p, 6);
      const seen = await belowTop(p, 'events');
      expect(seen).toBeGreaterThan(250);
      expect(await p.locator('#accessory-list > li').count()).toBeGreaterThan(60);
      await frames(p, 3);
      expect(Math.abs((await belowTop(p, 'events')) - seen)).toBeLessThanOrEqual(STAYS_PX);
    }
    // The reader scrolling down to the grid's end loads more cards, as before.
    const before = await p.locator('#card-grid > li').count();
    await p.evaluate(() => window.scrollTo(0, document.querySelector('#cards .more')!.getBoundingClientRect().top + window.scrollY - window.innerHeight));
    await p.waitForFunction((n) => document.querySelectorAll('#card-grid > li').length > n, before);
    await p.close();
  });
});
