/**
 * The card browser on a game-sized export: 4,000 generated cards (the bench's export). Nothing is
 * timed here; `npm run bench` reports the load time (page4000_interactive_ms).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { CardListJson } from '../generator/contract/schemas.ts';
import { BIG_CARDS as CARDS, bigSite, readJson, tempDir } from './helpers.ts';
import { serveStatic, type StaticSite } from './staticServer.ts';
import { launchBrowser } from './browser.ts';

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
