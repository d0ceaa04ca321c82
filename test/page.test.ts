/**
 * public/index.html in a real browser (Chromium via playwright-core), served by a plain static host:
 * the system's Chromium where one is installed, else the one @sparticuz/chromium ships in npm.
 */
import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import npmChromium from '@sparticuz/chromium';
import type { CardListJson, SetListJson } from '../generator/contract/schemas.ts';
import { buildSample, readJson, tempDir } from './helpers.ts';
import { serveStatic, type StaticSite } from './staticServer.ts';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** The system Chromium, else npm's (unpacked into the temporary folder on first use). */
const chromiumPath = async () => (fs.existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : npmChromium.executablePath());
const SCREENSHOT = '/tmp/sif-index-page.png';

let out: string;
let site: StaticSite;
let context: BrowserContext;
let page: Page;
let list: CardListJson;
const failedRequests: string[] = [];
const pageErrors: string[] = [];

const visibleTiles = () => page.locator('#card-grid > li:not([hidden])').count();

beforeAll(async () => {
  ({ out } = await buildSample());
  list = await readJson(out, 'api/v1/card_list.json');
  site = await serveStatic(out);
  context = await chromium.launchPersistentContext(await tempDir('sif-chromium-'), {
    executablePath: await chromiumPath(),
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('response', (response) => { if (response.status() >= 400) failedRequests.push(`${response.status()} ${response.url()}`); });
  await page.goto(site.url);
  await page.waitForSelector('body[data-ready="true"]');
});

afterAll(async () => {
  await context?.close();
  await site?.close();
});

describe('index.html: the card browser', () => {
  it('lists every card of card_list.json, with a JSON link, name, rarity and attribute', async () => {
    expect(await page.locator('#card-grid > li').count()).toBe(list.stubs.length);
    const first = list.stubs[0];
    const tile = page.locator('#card-grid > li').first();
    expect(await tile.locator('a').getAttribute('href')).toBe(`api/v1/card/${first.ordinal}.json`);
    expect(await tile.locator('.name').textContent()).toBe(first.char_name);
    expect(await tile.locator('.rarity').textContent()).toBe('N');
    expect(await tile.locator('.attribute').textContent()).toBe('Smile');
    expect(await page.locator('#card-count').textContent()).toBe(`${list.stubs.length} cards`);
  });

  it('renders every published icon (as WebP) and a placeholder where none is published', async () => {
    const icons = await page.locator('#card-grid img').evaluateAll(async (imgs: HTMLImageElement[]) => {
      for (const img of imgs) img.loading = 'eager'; // lazy icons below the fold load too
      await Promise.all(imgs.map((img) => img.decode().catch(() => undefined)));
      return imgs.map((img) => ({ width: img.naturalWidth, src: img.currentSrc }));
    });
    expect(icons.length).toBe(list.stubs.filter((c) => c.icon !== null).length);
    for (const icon of icons) {
      expect(icon.width, icon.src).toBeGreaterThan(0);
      expect(icon.src).toMatch(/\/images\/card\/icon\/\d+t?\.webp$/);
    }
    // Ordinal 9 has no picture in the sample.
    expect(await page.locator('#card-grid .placeholder').count()).toBe(list.stubs.filter((c) => c.icon === null).length);
    expect(list.stubs.find((c) => c.ordinal === 9)!.icon).toBeNull();
  });

  it('filters by rarity and attribute, and searches by name', async () => {
    const ur = list.stubs.filter((c) => c.rarity === 4);
    await page.click('#rarity-filter button:text("UR")');
    expect(await visibleTiles()).toBe(ur.length);
    expect(await page.locator('#card-count').textContent()).toBe(`${ur.length} of ${list.stubs.length} cards`);

    await page.click('#attribute-filter button:text("Smile")');
    expect(await visibleTiles()).toBe(ur.filter((c) => c.attribute === 1).length);

    await page.click('#rarity-filter button:text("UR")');
    await page.click('#attribute-filter button:text("Smile")');
    expect(await visibleTiles()).toBe(list.stubs.length);

    await page.fill('#search', 'hoshino');
    const hoshino = list.stubs.filter((c) => c.char_name.toLowerCase().includes('hoshino'));
    expect(hoshino.length).toBeGreaterThan(1);
    expect(await visibleTiles()).toBe(hoshino.length);
    await page.fill('#search', '');
    expect(await visibleTiles()).toBe(list.stubs.length);
  });

  it('links only to files that exist on the static host: cards, sets, pairs, accessories, lists and info', async () => {
    const links = await page.locator('main a[href]').evaluateAll((as: HTMLAnchorElement[]) => as.map((a) => a.href));
    const apiLinks = links.filter((href) => href.includes('/api/v1/'));
    for (const section of ['card/', 'set/', 'pair/', 'accessory/', 'list/', 'info.json', 'card_list.json', 'card/set_list.json']) {
      expect(apiLinks.some((href) => href.includes(`/api/v1/${section}`)), section).toBe(true);
    }
    for (const href of apiLinks) {
      const response = await fetch(href);
      expect(response.status, href).toBe(200);
      expect(await response.json(), href).toBeTypeOf('object');
    }
  });

  it('shows set previews and pair icons, with no failed request and no script error', async () => {
    const setList = await readJson<SetListJson>(out, 'api/v1/card/set_list.json');
    const previewIcons = setList.sets.reduce((n, s) => n + s.preview.length, 0);
    expect(await page.locator('#set-list img').count()).toBe(previewIcons);
    expect(await page.locator('#pair-list li').count()).toBeGreaterThan(0);
    expect(failedRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('looks like a page (screenshot for a person to judge)', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect((await fs.stat(SCREENSHOT)).size).toBeGreaterThan(10_000);
    // At desktop width the cards form a grid: the first tiles share a row, side by side.
    const boxes = await page.locator('#card-grid > li').evaluateAll((tiles) =>
      tiles.slice(0, 2).map((tile) => tile.getBoundingClientRect()).map((r) => ({ top: r.top, left: r.left, width: r.width })));
    expect(boxes[1].top).toBe(boxes[0].top);
    expect(boxes[1].left).toBeGreaterThanOrEqual(boxes[0].left + boxes[0].width);
  });
});
