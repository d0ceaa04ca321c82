/**
 * public/index.html in a real browser (Chromium via playwright-core, test/browser.ts), served by a
 * plain static host: the card list, the views behind its hash routes, What's new, and text from
 * the data that must stay text.
 */
import path from 'node:path';
import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { BulkIndexJson, CardListJson, SetListJson } from '../../generator/contract/schemas.ts';
import { buildSample, copyTree, packedObject, readJson, tempDir } from '../helpers.ts';
import { serveStatic, type StaticSite } from '../staticServer.ts';
import { launchBrowser } from '../browser.ts';
import { handleRequest } from '../../generator/runtime/edge/handler.ts';
import { diskBytesReader, diskReader } from '../../generator/hosts/node/runtime/diskSite.ts';
import { objectEndpoint } from '../../generator/contract/endpoints.ts';
import { packOf } from '../../generator/contract/format.ts';
import { EXAMPLES } from '../../generator/web/search/examples.js';
import { patchBetween } from '../../generator/build/changes/history.ts';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { REGION_TIMEZONES } from '../../generator/build/input/curated.ts';
import { parseOffset } from '../../generator/build/input/time.ts';

const SCREENSHOT = '/tmp/sif-index-page.png';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PHONE_SCREENSHOT = '/tmp/sif-card-phone.png';
const CHANGES = 'api/v1/changes.json';

let out: string;
let site: StaticSite;
let context: BrowserContext;
let page: Page;
let list: CardListJson;
const failedRequests: string[] = [];
const pageErrors: string[] = [];

type Card = any;
const card = async (ordinal: number): Promise<Card> => (await readJson(out, `api/v1/card/${ordinal}.json`)).cards[0];
const tiles = (p: Page, list = '#card-grid') => p.locator(`${list} > li`);
/** Unix seconds as the calendar day in Japan (the sample is a JP export: the page shows its dates in JST). */
const jstDay = (seconds: number) => new Date((seconds + 9 * 3600) * 1000).toISOString().slice(0, 10);
const texts = (p: Page, selector: string) => p.locator(selector).allTextContents();

/** A page of its own that records failed requests and script errors. */
async function newPage(into = { failed: failedRequests, errors: pageErrors }) {
  const p = await context.newPage();
  p.on('pageerror', (error) => into.errors.push(error.message));
  p.on('response', (response) => { if (response.status() >= 400) into.failed.push(`${response.status()} ${new URL(response.url()).pathname}`); });
  return p;
}

/** Opens `hash` on `base` as a fresh load (a deep link) and waits for the page and its view. */
async function open(p: Page, base: string, hash = '') {
  await p.goto(`${base}${hash}`);
  await p.waitForSelector('body[data-ready="true"]');
  if (hash) await p.waitForSelector('#view:not([aria-busy]) h1');
}

/** Changes the hash of a page already loaded, as a link within the page does: the page stays (a goto, even to another hash, loads the page anew). */
async function changeHash(p: Page, hash: string) {
  await p.evaluate((to) => new Promise<void>((resolve) => {
    if (location.hash === to) return resolve();
    // Registered after the page's own listener: by then the old view is gone and the new one busy.
    window.addEventListener('hashchange', () => resolve(), { once: true });
    location.hash = to;
  }), hash);
}

/** Shows the view of `hash` on a page already loaded (changeHash), and waits for the view. */
async function show(p: Page, hash: string) {
  await changeHash(p, hash);
  await p.waitForSelector('#view:not([aria-busy]) h1');
}

beforeAll(async () => {
  ({ out } = await buildSample());
  list = await readJson(out, 'api/v1/card_list.json');
  site = await serveStatic(out);
  context = await launchBrowser(await tempDir('sif-chromium-'));
  page = await newPage();
  await open(page, site.url);
});

afterAll(async () => {
  await context?.close();
  await site?.close();
});

describe('index.html: the card list', () => {
  it('lists the cards of card_list.json, each tile opening its card view', async () => {
    expect(await tiles(page).count()).toBe(Math.min(list.stubs.length, 60));
    const first = list.stubs[0];
    const tile = tiles(page).first();
    expect(await tile.locator('a').getAttribute('href')).toBe(`#card/${first.ordinal}`);
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

  it('filters by rarity and attribute, and searches by name and #ordinal', async () => {
    const ur = list.stubs.filter((c) => c.rarity === 4);
    await page.click('#rarity-filter button:text("UR")');
    expect(await tiles(page).count()).toBe(ur.length);
    expect(await page.locator('#card-count').textContent()).toBe(`${ur.length} of ${list.stubs.length} cards`);

    await page.click('#attribute-filter button:text("Smile")');
    expect(await tiles(page).count()).toBe(ur.filter((c) => c.attribute === 1).length);

    await page.click('#rarity-filter button:text("UR")');
    await page.click('#attribute-filter button:text("Smile")');
    expect(await tiles(page).count()).toBe(list.stubs.length);

    await page.fill('#search', 'hoshino');
    const hoshino = list.stubs.filter((c) => c.char_name.toLowerCase().includes('hoshino'));
    expect(hoshino.length).toBeGreaterThan(1);
    expect(await tiles(page).count()).toBe(hoshino.length);
    await page.fill('#search', '#22');
    expect(await texts(page, '#card-grid .ordinal')).toEqual(['#22']);
    await page.fill('#search', '');
    expect(await tiles(page).count()).toBe(list.stubs.length);
  });

  it('shows set previews, pairs, accessories and events, each linking to its view', async () => {
    const setList = await readJson<SetListJson>(out, 'api/v1/card/set_list.json');
    expect(await page.locator('#set-list img').count()).toBe(setList.sets.reduce((n, s) => n + s.preview.length, 0));
    expect(await page.locator('#set-list a').first().getAttribute('href')).toBe(`#set/${setList.sets[0].id}`);
    expect(await page.locator('#pair-list a').first().getAttribute('href')).toMatch(/^#pair\/\d+$/);
    // Pair tiles name both cards' characters.
    const pairs = (await readJson(out, 'api/v1/pair_list.json')).pairs;
    const charOf = (o: number) => list.stubs.find((s) => s.ordinal === o)!.char_name;
    expect(await page.locator('#pair-list .name').first().textContent()).toBe(pairs[0].ordinals.map(charOf).join(' + '));
    expect(await page.locator('#accessory-list a').first().getAttribute('href')).toMatch(/^#accessory\/\d+$/);
    const events = (await readJson(out, 'api/v1/list/event_t.json')).result;
    expect(await page.locator('#event-list a').count()).toBe(events.length);
  });

  it('links in its nav only to the sections it shows: none to an empty one', async () => {
    const errors = { failed: [] as string[], errors: [] as string[] };
    const fresh = await newPage(errors);
    // A site without sets and accessories (an older export): their lists are empty.
    await fresh.route('**/api/v1/card/set_list.json', (route) => route.fulfill({ json: { sets: [] } }));
    await fresh.route('**/api/v1/accessory_list.json', (route) => route.fulfill({ json: { accessories: [] } }));
    await open(fresh, site.url);
    expect(await fresh.locator('.top nav a[href^="#"]:visible').evaluateAll((as) => as.map((a) => a.getAttribute('href'))))
      .toEqual(['#cards', '#pairs', '#events', '#songs', '#api', '#downloads']);
    expect(await fresh.locator('#sets').isHidden()).toBe(true);
    expect(await fresh.locator('#accessories').isHidden()).toBe(true);
    expect(errors.errors).toEqual([]);
    await fresh.close();
  });

  it("hides What's new when the site has no changes.json, and fails no other request", async () => {
    expect(await page.locator('#new').isHidden()).toBe(true);
    expect(await page.locator('#new-link').isHidden()).toBe(true);
    expect(failedRequests.filter((r) => !r.endsWith(CHANGES))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('links only to files that exist on the static host', async () => {
    const links = await page.locator('#api-files a[href]').evaluateAll((as: HTMLAnchorElement[]) => as.map((a) => a.href));
    for (const file of ['info.json', 'card_list.json', 'card/set_list.json', 'list/event_t.json']) {
      expect(links.some((href) => href.endsWith(`/api/v1/${file}`)), file).toBe(true);
    }
    for (const href of links) expect((await fetch(href)).status, href).toBe(200);
  });

  it('lists every bulk download with its size and SHA-256, each link saving those bytes', async () => {
    const index = await readJson<BulkIndexJson>(out, 'api/v1/bulk/index.json');
    // Every row's values in one call, not a call to the browser per value (one element where a locator needs one).
    const rows = await page.locator('#download-table tbody tr').evaluateAll((trs) => trs.map((tr) => {
      const cells = tr.querySelectorAll('th, td');
      const only = (cell: Element, selector: string) => {
        const found = cell.querySelectorAll(selector);
        return found.length === 1 ? found[0] : null;
      };
      return {
        name: cells[0].textContent, sha256: cells[4].textContent, size: cells[3].textContent, title: only(cells[3], 'span')?.getAttribute('title'),
        href: (only(cells[0], 'a') as HTMLAnchorElement | null)?.href, sumHref: (only(cells[4], 'a') as HTMLAnchorElement | null)?.href,
      };
    }));
    expect(rows.length).toBe(index.files.length);
    for (const [i, file] of index.files.entries()) {
      const { name, sha256, size, title, href, sumHref } = rows[i];
      expect(name).toBe(file.name);
      expect(sha256).toBe(file.sha256);
      expect(title).toBe(`${file.bytes.toLocaleString('en')} bytes`);
      const [, amount, unit] = /^([\d.]+) (bytes|KiB|MiB|GiB)$/.exec(size!)!;
      const scale = 1024 ** ['bytes', 'KiB', 'MiB', 'GiB'].indexOf(unit);
      expect(Math.abs(Number(amount) * scale - file.bytes), file.name).toBeLessThanOrEqual(0.05 * scale);
      expect(href, file.name).toMatch(new RegExp(`${file.path}$`));
      expect(await (await fetch(sumHref!)).text()).toBe(`${file.sha256}  ${file.name}\n`);
    }
    // A click saves the file joined from its parts: this plain static host has no file at the file's own URL. One
    // download a page (a browser asks before a page saves several): the first on the list's page, the second on a page of its own.
    const fresh = await newPage();
    await open(fresh, site.url);
    for (const [name, p] of [['cards.jsonl', page], ['sif.sqlite', fresh]] as const) {
      const [file, row] = [index.files.find((f) => f.name === name)!, index.files.findIndex((f) => f.name === name)];
      const [download] = await Promise.all([p.waitForEvent('download'), p.locator('#download-table tbody tr').nth(row).locator('a').first().click()]);
      const bytes = await fs.readFile((await download.path())!);
      expect([download.suggestedFilename(), bytes.length, createHash('sha256').update(bytes).digest('hex')]).toEqual([name, file.bytes, file.sha256]);
    }
    await fresh.close();
  });

  it('looks like a page at desktop width (screenshot for a person to judge)', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect((await fs.stat(SCREENSHOT)).size).toBeGreaterThan(10_000);
    // The cards form a grid: the first tiles share a row, side by side.
    const boxes = await tiles(page).evaluateAll((li) => li.slice(0, 2).map((t) => t.getBoundingClientRect()).map((r) => ({ top: r.top, left: r.left, width: r.width })));
    expect(boxes[1].top).toBe(boxes[0].top);
    expect(boxes[1].left).toBeGreaterThanOrEqual(boxes[0].left + boxes[0].width);
  });
});

describe('card view (#card/<ordinal>)', () => {
  let subject: Card;
  let view: Page;

  beforeAll(async () => {
    // A card with a note-triggered score skill, a center skill with an extra effect, a pair and an estimated release date.
    const pairs = (await readJson(out, 'api/v1/pair_list.json')).pairs;
    for (const stub of list.stubs) {
      const c = await card(stub.ordinal);
      if (c.skill?.trigger_type === 3 && c.skill.effect_type === 11 && c.center_skill?.extra_effect
        && c.extra_data.release_date_is_dirty && c.extra_data.release_date !== null && pairs.some((p: any) => p.ordinals.includes(c.ordinal))) {
        subject = c;
        break;
      }
    }
    expect(subject).toBeDefined();
    view = await newPage();
    await open(view, site.url, `#card/${subject.ordinal}`);
  });

  it('opens by URL with both icons, title, names, rarity, attribute, character, year, sub-unit and release date', async () => {
    expect(await view.locator('#home').isHidden()).toBe(true);
    expect(await view.locator('#view h1').textContent()).toContain(subject.char_name);
    expect(await view.locator('.view-head img').count()).toBe(2);
    expect(await view.locator('.names').first().textContent()).toContain(subject.original_char_name);
    const character = await packedObject(out, 'char_t', subject.type_id);
    const facts = Object.fromEntries(await view.locator('.facts dt').evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling!.textContent])));
    expect(facts.Character).toContain(character.name_en);
    expect(facts.Year).toBe(character.tags.find((t: any) => t.id === subject.year).name_en);
    expect(facts['Sub-unit']).toBe(character.tags.find((t: any) => t.id === subject.sub_affiliation).name_en);
    expect(facts.Released).toBe(`${jstDay(subject.extra_data.release_date)} (estimated)`);
  });

  it('says "unknown (after <date>)" for a card after the last one with a known date', async () => {
    const dated = list.stubs.filter((s: any) => s.release_date !== null);
    const undated = list.stubs.find((s: any) => s.release_date === null && dated.some((d: any) => d.ordinal < s.ordinal))!;
    expect(undated).toBeDefined();
    const lastBefore = dated.filter((d: any) => d.ordinal < undated.ordinal).at(-1)!;
    // On the card view's page, which shows the subject again for the tests below.
    await show(view, `#card/${undated.ordinal}`);
    const released = await view.locator('.facts dt', { hasText: 'Released' }).evaluate((dt) => dt.nextElementSibling!.textContent);
    expect(released).toBe(`unknown (after ${jstDay(lastBefore.release_date!)})`);
    await show(view, `#card/${subject.ordinal}`);
  });

  it('shows the max stats first, right under its name: idolized and not, at each level cap', async () => {
    expect(await view.locator('#view .panel').first().evaluate((e) => e.classList.contains('max-stats'))).toBe(true);
    const rows = await view.locator('.max-stat-table tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent)));
    const at = (level: number) => ['smile', 'pure', 'cool', 'stamina'].map((stat) => String(subject[stat][level - 1]));
    expect(rows).toEqual([
      [`Idolized, level ${subject.transformed_max_level}`, ...at(subject.transformed_max_level)],
      [`Not idolized, level ${subject.normal_max_level}`, ...at(subject.normal_max_level)],
    ]);
  });

  it('says the skill in words and lists every skill level with the values of the JSON', async () => {
    const s = subject.skill;
    expect(await view.locator('.skill-text').textContent())
      .toBe(`Level 1: every ${s.trigger_val[0]} notes, ${s.probability[0]}% chance: score +${s.effect_val[0]}`);
    const rows = await view.locator('table.skill-levels tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => Number(c.textContent))));
    expect(rows).toEqual(s.probability.map((_: number, i: number) => [i + 1, s.probability[i], s.trigger_val[i], s.effect_val[i], s.effect_dur[i]]));
  });

  it('says the center skill in words, with its extra effect for the named members', async () => {
    const c = subject.center_skill;
    const attr = ['', 'Smile', 'Pure', 'Cool'];
    expect(await view.locator('.center-text').textContent())
      .toBe(`${attr[c.effect_type]} +${c.percent}% for the whole team, and ${attr[c.extra_effect]} +${c.extra_percent}% more for ${c.extra_apply_type_name_en} members`);
  });

  it('charts smile, pure and cool from level 1 to the cap, marks the cap before idolizing, and tables every level', async () => {
    const chart = await view.locator('svg.chart').evaluate((svg) => ({
      max: Number(svg.getAttribute('data-max')),
      capLabel: svg.querySelector('.cap-label')?.textContent,
      desc: svg.querySelector('desc')?.textContent,
      series: Object.fromEntries(Array.from(svg.querySelectorAll('polyline')).map((line) => [line.dataset.stat,
        line.getAttribute('points')!.split(' ').map((point: string) => point.split(',').map(Number))])),
    }));
    expect(chart.capLabel).toContain(`Lv ${subject.normal_max_level}`);
    expect(chart.desc).toContain(`Level ${subject.smile.length}: Smile ${subject.smile.at(-1)}`);
    const max = Math.max(...subject.smile, ...subject.pure, ...subject.cool);
    expect(chart.max).toBe(max);
    for (const stat of ['smile', 'pure', 'cool']) {
      const points = chart.series[stat];
      expect(points.length).toBe(subject[stat].length);
      // Higher values sit higher (smaller y); equal values at the same height; x grows with the level.
      const ys = points.map(([, y]: number[]) => y);
      for (let i = 1; i < points.length; i++) {
        expect(points[i][0]).toBeGreaterThan(points[i - 1][0]);
        expect(Math.sign(ys[i - 1] - ys[i])).toBe(Math.sign(subject[stat][i] - subject[stat][i - 1]));
      }
    }
    const rows = await view.locator('table.stat-table tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => Number(c.textContent))));
    expect(rows).toEqual(subject.smile.map((_: number, i: number) => [i + 1, subject.smile[i], subject.pure[i], subject.cool[i], subject.stamina[i]]));
  });

  it("links its sets, its pair with the partner's icon, and its JSON files, which exist", async () => {
    const setLinks = await view.locator('#view section:has(h2:text-is("Sets")) a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(setLinks).toEqual(subject.sets.map((id: string) => `#set/${id}`));
    const pair = (await readJson(out, 'api/v1/pair_list.json')).pairs.find((p: any) => p.ordinals.includes(subject.ordinal));
    const partner = pair.ordinals.find((o: number) => o !== subject.ordinal);
    expect(await view.locator(`#view section:has(h2:text-is("Pair")) a[href="#pair/${pair.pair}"]`).count()).toBe(1);
    expect(await view.locator(`#view section:has(h2:text-is("Pair")) a[href="#card/${partner}"] img`).count()).toBe(1);
    const json = await view.locator('.json-links a').evaluateAll((as: HTMLAnchorElement[]) => as.map((a) => a.href));
    expect(json.length).toBe(5);
    // Files where a plain static host serves them; generic objects at their route, which the edge answers (from their packs).
    const disk = { read: diskReader(out), readBytes: diskBytesReader(out) };
    for (const href of json) {
      const edge = await handleRequest(new Request(href), disk);
      expect((edge ?? await fetch(href)).status, href).toBe(200);
    }
  });

  it('shows the accessories that belong to a card and the events that reward it', async () => {
    const accessories = (await readJson(out, 'api/v1/accessory_list.json')).accessories.filter((a: any) => a.unit_ordinal !== null);
    const withEvents = (await Promise.all(list.stubs.map((s) => card(s.ordinal)))).find((c) => c.events.length);
    // The card view's page, the tests above done with it.
    await show(view, `#card/${accessories[0].unit_ordinal}`);
    expect(await view.locator(`#view .accessories a[href="#accessory/${accessories[0].id}"]`).count()).toBe(1);
    await show(view, `#card/${withEvents.ordinal}`);
    expect(await view.locator('#view section:has(h2:text-is("Events")) a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))))
      .toEqual(withEvents.events.map((e: any) => `#event/${e.id}`));
  });

  it('opens from a tile with the keyboard, and the back button returns to the list', async () => {
    // On the card list's page, which the tests below find on the list again.
    const p = page;
    await p.focus(`#card-grid a[href="#card/${subject.ordinal}"]`);
    await p.keyboard.press('Enter');
    await p.waitForSelector('#view:not([aria-busy]) h1');
    expect(await p.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await p.goBack();
    await p.waitForSelector('#home:not([hidden])');
    expect(await p.locator('#view').isHidden()).toBe(true);
    await p.goForward();
    await p.waitForSelector('#view:not([aria-busy]) .skill-text');
    await p.goBack();
    await p.waitForSelector('#home:not([hidden])');
  });

  it('is readable on a phone, in dark mode (screenshot for a person to judge)', async () => {
    // The card view's page, its other tests done: the view laid out again at a phone's width, in dark mode.
    const p = view;
    await p.setViewportSize({ width: 390, height: 844 });
    await p.emulateMedia({ colorScheme: 'dark' });
    await show(p, `#card/${subject.ordinal}`);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await p.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(23, 21, 31)');
    await p.screenshot({ path: PHONE_SCREENSHOT, fullPage: true });
    expect((await fs.stat(PHONE_SCREENSHOT)).size).toBeGreaterThan(10_000);
    await p.close();
  });
});

describe('index.html: the search box takes the API\'s query language', () => {
  /** What the edge answers for a search (every match, in its order), as ordinals. */
  async function edgeOrdinals(params: Record<string, string>): Promise<number[]> {
    const url = `https://sif.test/api/v1/search/card?${new URLSearchParams({ ...params, page_size: '100' })}`;
    const response = (await handleRequest(new Request(url), { read: diskReader(out) }))!;
    return (await response.json()).result.map((c: Card) => c.ordinal);
  }
  const shown = async (p: Page) => (await texts(p, '#card-grid .ordinal')).map((t) => Number(t.slice(1)));
  /** One page for the tests that open a link (each a load of its own), made by the first of them: a page less to start. */
  let linkPage: Page | undefined;
  const pageForLinks = async () => (linkPage ??= await newPage());
  afterAll(async () => {
    await linkPage?.close();
  });

  it('lists what the edge answers, in its order, for every documented example', async () => {
    const examples = EXAMPLES.filter((e) => e.kind === 'card' && e.order !== 'random');
    // Each change renders the list anew: the order and direction are chosen only where they change.
    let [shownOrder, shownDir] = [await page.inputValue('#order'), await page.inputValue('#dir')];
    for (const { q, order = 'ordinal', dir = 'asc' } of examples) {
      if (order !== shownOrder) shownOrder = (await page.selectOption('#order', order))[0];
      if (dir !== shownDir) shownDir = (await page.selectOption('#dir', dir))[0];
      await page.fill('#search', q);
      expect(await shown(page), q).toEqual(await edgeOrdinals({ q, order, dir }));
      expect(new URL(page.url()).searchParams.get('q')).toBe(q);
    }
    expect((await edgeOrdinals({ q: examples[0].q })).length).toBeGreaterThan(0);
  });

  it('keeps the query and order in the URL: the link opens the same search', async () => {
    const params = { q: '-rarity:n attr:smile or attr:cool', order: 'smile', dir: 'desc' };
    const p = await pageForLinks();
    await open(p, `${site.url}?${new URLSearchParams(params)}`);
    expect(await p.inputValue('#search')).toBe(params.q);
    expect(await p.inputValue('#order')).toBe('smile');
    expect(await p.inputValue('#dir')).toBe('desc');
    const expected = await edgeOrdinals(params);
    expect(await shown(p)).toEqual(expected);
    expect(await p.locator('#card-count').textContent()).toBe(`${expected.length} of ${list.stubs.length} cards`);
    expect(await p.getAttribute('#card-grid', 'data-ordinals')).toBe(expected.join(','));
    expect(await p.getAttribute('#search-api', 'href')).toBe(`api/v1/search/card?${new URLSearchParams(params)}`);
  });

  it('opens a ?q= link on its results: on a phone, the box and the first tiles are on the first screen', async () => {
    const p = await pageForLinks();
    await p.setViewportSize({ width: 360, height: 740 });
    await open(p, `${site.url}?${new URLSearchParams({ q: 'rarity:ur' })}`);
    expect(await shown(p)).toEqual(await edgeOrdinals({ q: 'rarity:ur' }));
    const bottom = async (selector: string) => p.locator(selector).first().evaluate((e) => e.getBoundingClientRect().bottom);
    expect(await p.evaluate(() => window.scrollY)).toBe(0);
    expect(await bottom('#search')).toBeLessThan(740);
    expect(await p.locator('#card-grid > li').first().evaluate((e) => e.getBoundingClientRect().top)).toBeLessThan(740);
  });

  it('keeps what is typed before the data has loaded, and searches it once it has', async () => {
    const p = await newPage();
    let release = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    await p.route('**/search_index/card.json', async (route) => { await held; await route.continue(); });
    await p.goto(`${site.url}?${new URLSearchParams({ q: 'rarity:n' })}`);
    await p.fill('#search', 'hoshino');
    release();
    await p.waitForSelector('body[data-ready="true"]');
    expect(await p.inputValue('#search')).toBe('hoshino');
    expect(await shown(p)).toEqual(await edgeOrdinals({ q: 'hoshino' }));
    expect(new URL(p.url()).searchParams.get('q')).toBe('hoshino');
    await p.close();
  });

  it('offers a query that finds something, in one click, when nothing matches', async () => {
    const name = list.stubs.map((s) => s.char_name.split(' ')[1].toLowerCase()).find((w) => w.length >= 5)!;
    await page.fill('#search', name.slice(0, -1));
    expect(await tiles(page).count()).toBe(0);
    expect(await page.locator('#suggestion-link').textContent()).toBe(name);
    await page.click('#suggestion-link');
    expect(await page.inputValue('#search')).toBe(name);
    expect(await shown(page)).toEqual(await edgeOrdinals({ q: name }));
    expect(await page.locator('#search-suggestion').isHidden()).toBe(true);
    await page.fill('#search', '');
  });

  it('shows on each tile the value the list is ordered by', async () => {
    await page.selectOption('#order', 'smile');
    await page.selectOption('#dir', 'desc');
    const expected = await edgeOrdinals({ order: 'smile', dir: 'desc' });
    const values = await texts(page, '#card-grid .order-value');
    expect(values.slice(0, 3)).toEqual(await Promise.all(expected.slice(0, 3).map(async (o) => `smile ${(await card(o)).smile.at(-1)}`)));
    await page.selectOption('#order', 'ordinal');
    await page.selectOption('#dir', 'asc');
    expect(await page.locator('#card-grid .order-value').count()).toBe(0);
  });

  it('has pickers for character, group and skill that write their terms into the query', async () => {
    const name = list.stubs[0].char_name;
    await page.selectOption('#pick-char', name.toLowerCase());
    expect(await page.inputValue('#search')).toBe(`char:"${name.toLowerCase()}"`);
    expect(await shown(page)).toEqual(await edgeOrdinals({ q: `char:"${name.toLowerCase()}"` }));
    await page.selectOption('#pick-skill', 'score');
    expect(await page.inputValue('#search')).toBe(`char:"${name.toLowerCase()}" skill:score`);
    expect(new URL(page.url()).searchParams.get('q')).toBe(`char:"${name.toLowerCase()}" skill:score`);
    const group = await page.locator('#pick-group option').nth(1).getAttribute('value');
    await page.selectOption('#pick-group', group!);
    expect(await page.inputValue('#search')).toContain(`group:${group}`);
    await page.selectOption('#pick-char', '');
    await page.selectOption('#pick-skill', '');
    await page.selectOption('#pick-group', '');
    expect(await page.inputValue('#search')).toBe('');
    await page.fill('#search', 'skill:heal');
    expect(await page.inputValue('#pick-skill')).toBe('heal');
    await page.fill('#search', '');
  });

  it('says why region: and only: match nothing on a site of one export, and lists no region example in its help', async () => {
    expect(await page.locator('#search-note').isHidden()).toBe(true);
    await page.fill('#search', 'rarity:ur -region:ww');
    expect(await shown(page)).toEqual(await edgeOrdinals({ q: 'rarity:ur -region:ww' }));
    expect(await page.locator('#search-note').textContent()).toBe('This site is built from one export: its cards have no regions, so region: matches no card.');
    await page.fill('#search', 'only:jp or region:jp');
    expect(await page.locator('#search-note').textContent()).toMatch(/so only: and region: match no card\.$/);
    expect(await page.locator('#search-error').isHidden()).toBe(true);
    await page.fill('#search', 'rarity:ur');
    expect(await page.locator('#search-note').isHidden()).toBe(true);
    const listed = await texts(page, '#search-examples code');
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((q) => /region:|only:/.test(q))).toEqual([]);
    expect(EXAMPLES.some((e) => e.kind === 'card' && /region:/.test(e.q))).toBe(true);
    await page.fill('#search', '');
  });

  it('names the column and what was expected when a query is malformed', async () => {
    await page.fill('#search', 'rarity:ur (attr:smile');
    expect(await page.locator('#search-error').textContent()).toBe('query column 22: expected ")" to close the "(" at column 11, found the end of the query');
    expect(await page.getAttribute('#search', 'aria-invalid')).toBe('true');
    await page.fill('#search', 'rarity:ur');
    expect(await page.locator('#search-error').isHidden()).toBe(true);
  });

  it('has chips that write their terms into the query', async () => {
    await page.fill('#search', 'hoshino');
    await page.click('#rarity-filter button:text("UR")');
    await page.click('#rarity-filter button:text("SR")');
    expect(await page.inputValue('#search')).toBe('hoshino (rarity:ur or rarity:sr)');
    expect(await shown(page)).toEqual(await edgeOrdinals({ q: 'hoshino (rarity:ur or rarity:sr)' }));
    await page.click('#rarity-filter button:text("UR")');
    expect(await page.inputValue('#search')).toBe('hoshino rarity:sr');
    await page.fill('#search', '');
    await page.selectOption('#order', 'ordinal');
    await page.selectOption('#dir', 'asc');
    expect(await tiles(page).count()).toBe(list.stubs.length);
  });
});

describe('skill words: only confirmed codes get words', () => {
  beforeAll(async () => {
    // The page's own modules, loaded the way the page loads them (the same instances as the page's).
    await page.addScriptTag({ type: 'module', content: "import * as words from './site/words.js'; import * as dom from './site/dom.js'; window.words = words; window.dom = dom;" });
    await page.waitForFunction(() => (window as any).words && (window as any).dom);
  });

  it('dates on the game\'s clock: the site\'s (info.json\'s timezone), a region\'s on its own', async () => {
    expect((await readJson(out, 'api/v1/info.json')).timezone).toBe('+09:00');
    const said = await page.evaluate(() => {
      const { day, zoneText, siteZone, REGION_OFFSETS, offsetMinutes } = (window as any).dom;
      // jp-2019-01-30 at midnight in Japan: 15:00 the day before in UTC.
      const midnight = Date.UTC(2019, 0, 29, 15) / 1000;
      return { site: [day(midnight), day(midnight - 1), zoneText(siteZone.offset)], cst: day(midnight - 1800, 480), utc: day(midnight, 0), offsets: REGION_OFFSETS,
        zones: [zoneText(480), zoneText(330), zoneText(-210), zoneText(0)], parsed: [offsetMinutes('-03:30'), offsetMinutes('nine')] };
    });
    expect(said).toEqual({ site: ['2019-01-30', '2019-01-29', 'JST (UTC+9)'], cst: '2019-01-29', utc: '2019-01-29', offsets: expect.any(Object),
      zones: ['CST (UTC+8)', 'UTC+5:30', 'UTC-3:30', 'UTC'], parsed: [-210, null] });
    // The page's table of the regions' clocks is the build's.
    expect(said.offsets).toEqual(Object.fromEntries(Object.entries(REGION_TIMEZONES).map(([region, zone]) => [region, parseOffset(zone, 'test')])));
  });

  it('words each confirmed trigger and effect, and shows unknown codes as numbers', async () => {
    const said = await page.evaluate(() => {
      const { skillText } = (window as any).words;
      const skill = (trigger_type: number, effect_type: number) => ({
        trigger_type, effect_type, probability: [36], trigger_val: [20], effect_val: [200], effect_dur: [4.5], translated_trigger_target: 'Stella',
      });
      return [[3, 11], [1, 9], [4, 4], [5, 5], [6, 2000], [12, 2201], [100, 2100], [7, 11], [3, 77]].map(([t, e]) => skillText(skill(t, e), 0));
    });
    expect(said).toEqual([
      'every 20 notes, 36% chance: score +200',
      'every 20 seconds, 36% chance: restores 200 stamina',
      'every 20 combo, 36% chance: greats become perfects for 4.5 seconds',
      'every 20 points of score, 36% chance: greats and goods become perfects for 4.5 seconds',
      "every 20 perfects, 36% chance: other skills' activation chance +200% for 4.5 seconds",
      'every 20 perfect star notes, 36% chance: each perfect scores +200 for 4.5 seconds',
      'once Stella have all activated their skills, 36% chance: repeats the last skill activated by another member',
      'trigger type 7 (value 20), 36% chance: score +200',
      'every 20 notes, 36% chance: effect type 77 (value 200, duration 4.5 s)',
    ]);
  });

  it('words center skills by their effect codes, an unknown code as its number', async () => {
    const said = await page.evaluate(() => {
      const { centerSkillText } = (window as any).words;
      const center = (effect_type: number, extra_effect = 0) => ({
        effect_type, percent: 9, extra_effect, extra_percent: 3, extra_apply_type: 4, extra_apply_type_name: 'ステラ', extra_apply_type_name_en: 'Stella',
      });
      return [center(2), center(132), center(3, 3), center(450)].map(centerSkillText);
    });
    expect(said).toEqual([
      'Pure +9% for the whole team',
      'Pure +9% of Cool for the whole team',
      'Cool +9% for the whole team, and Cool +3% more for Stella members',
      'effect type 450 (9%) for the whole team',
    ]);
  });
});

describe('set, pair, accessory and event views', () => {
  /** The card list's page, its tests done: each view shown by its hash. */
  let p: Page;
  beforeAll(() => {
    p = page;
  });

  it('a set view shows its name and its cards', async () => {
    const setList = await readJson<SetListJson>(out, 'api/v1/card/set_list.json');
    const set = setList.sets[0];
    const cards = (await readJson(out, `api/v1/set/${set.id}.json`)).cards;
    await show(p, `#set/${set.id}`);
    expect(await p.locator('#view h1').textContent()).toBe(set.display_name);
    expect(await p.locator('#view .cards a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(cards.map((c: any) => `#card/${c.ordinal}`));
    const pair = (await readJson(out, 'api/v1/pair_list.json')).pairs[0];
    await show(p, `#pair/${pair.pair}`);
    expect(await p.locator('#view .cards a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(pair.ordinals.map((o: number) => `#card/${o}`));
  });

  it('an accessory view tables its levels and names its card; an event view lists its reward cards', async () => {
    const accessory = (await readJson(out, 'api/v1/accessory_list.json')).accessories.find((a: any) => a.unit_ordinal !== null);
    const full = (await readJson(out, `api/v1/accessory/${accessory.id}.json`)).accessories[0];
    await show(p, `#accessory/${accessory.id}`);
    expect(await p.locator('#view h1').textContent()).toBe(full.name_en);
    expect(await p.locator('table.accessory-levels tbody tr').count()).toBe(full.smile.length);
    expect(await p.locator(`#view .cards a[href="#card/${accessory.unit_ordinal}"]`).count()).toBe(1);
    const event = await packedObject(out, 'event_t', 1);
    await show(p, '#event/1');
    expect(await p.locator('#view h1').textContent()).toBe(event.name_en);
    expect(await p.locator('#view .cards a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(event.reward_ordinals.map((o: number) => `#card/${o}`));
    await show(p, '#card/999999');
    expect(await p.locator('#view h1').textContent()).toBe('No such card');
  });

  it('a card view shows the pictures of the states the card has: one for a card that is always idolized', async () => {
    const promo = list.stubs.find((s) => s.is_pre_transformed && s.icon !== null)!;
    await show(p, `#card/${promo.ordinal}`);
    expect(await p.locator('.view-head .icons img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')))).toEqual([`${promo.char_name}, idolized`]);
    await show(p, `#card/${list.stubs[0].ordinal}`);
    expect(await p.locator('.view-head .icons img').count()).toBe(2);
  });

  it('a malformed escape in the hash (#%E0%A4%A, #card/%) shows the card list, not a blank page', async () => {
    const errors: string[] = [];
    const fresh = await newPage({ failed: [], errors });
    for (const hash of ['#%E0%A4%A', '#card/%']) {
      await fresh.goto('about:blank'); // a fresh load, as a shared link opens it
      await fresh.goto(`${site.url}${hash}`);
      await fresh.waitForSelector('body[data-ready="true"]');
      expect(await fresh.locator('#home').isVisible(), hash).toBe(true);
      expect(await tiles(fresh).count(), hash).toBe(Math.min(list.stubs.length, 60));
    }
    expect(errors).toEqual([]);
    await fresh.close();
  });
});

describe("a site with a change list and hostile texts (a copy of the sample's build)", () => {
  const HOSTILE = '<img src=x onerror="window.__xss=1">';
  let copy: StaticSite;
  /** axe-core over HTTP from a host of its own: the browser keeps it, and its compiled code, from one page load to the next. */
  let axeHost: StaticSite;
  let p: Page;
  let changed: Card;
  let song: any;
  const errors = { failed: [] as string[], errors: [] as string[] };

  beforeAll(async () => {
    const dir = path.join(await tempDir(), 'public');
    copyTree(await fs.realpath(out), dir); // the site, not its link
    changed = await card(22);
    // What a card title, a set name and an event name could hold in a stranger's export.
    const edit = async (rel: string, change: (json: any) => void) => {
      const json = await readJson(dir, rel);
      change(json);
      await fs.writeJson(path.join(dir, rel), json);
    };
    await edit('api/v1/card_list.json', (json) => { json.stubs.find((s: any) => s.ordinal === 22).title_en = HOSTILE; });
    await edit('api/v1/card/22.json', (json) => { json.cards[0].title_en = HOSTILE; json.cards[0].char_name = HOSTILE; });
    await edit('api/v1/card/set_list.json', (json) => { json.sets[0].display_name = HOSTILE; });
    // The same two cards under a second pair id of another rank (unit_pair_m), as a real export lists them.
    await edit('api/v1/pair_list.json', (json) => {
      json.pairs.push(...json.pairs.map((pair: any) => ({ ...pair, pair: pair.pair + 100, members: pair.members.map((m: any) => ({ ...m, rank: 3 - m.rank })) })));
    });
    await edit(objectEndpoint.event_t.pack.file(packOf(1)), (json) => { json.objects[1].name_en = HOSTILE; });
    const empty = { added: [], removed: [], changed: [] };
    await fs.writeJson(path.join(dir, CHANGES), {
      from: { truth_version: 'abc', date: 1700000000 },
      // A JP version dated by its day: midnight in Japan, 15:00 the day before in UTC.
      to: { truth_version: 'jp-2019-01-30', date: Date.UTC(2019, 0, 29, 15) / 1000 },
      types: {
        cards: { added: [changed.id], removed: [999], added_ordinals: [22], removed_ordinals: [998],
          changed: [{ id: 1006, ordinal: 2, fields: [{ field: 'skill.probability', from: [30, 35], to: [31, 36] }] }] },
        skills: { ...empty, changed: [{ id: 2, fields: [{ field: 'name_en', from: 'a', to: 'b' }] }] },
        center_skills: empty, accessories: { ...empty, added: [1] }, characters: empty, events: { ...empty, added: [1] },
        sets: { ...empty, added: ['album-3'] }, pairs: empty,
      },
    });
    // Card 2, accessory 1 and song 3 (and its charts) as an archive site gives them: a regions member.
    const entry = (present: boolean, first_seen: string | null, released: number | null = null) => ({ present, first_seen, first_seen_version: first_seen && `x-${first_seen}`, released });
    await edit('api/v1/card/2.json', (json) => {
      json.cards[0].regions = {
        cn: entry(false, null), jp: entry(true, '2017-07-08'), kr: entry(false, '2018-01-01'), ww: entry(true, '2016-08-05', Date.UTC(2016, 7, 5) / 1000),
        // 23:30 in Taiwan (UTC+8), already the next day in Japan: a region's release reads on its own clock.
        tw: entry(true, '2018-08-11', Date.UTC(2018, 7, 10, 15, 30) / 1000),
      };
    });
    await edit('api/v1/accessory/1.json', (json) => { json.accessories[0].regions = { jp: entry(true, '2017-07-08'), ww: entry(false, null) }; });
    song = await packedObject(out, 'song_t', 3);
    await edit(objectEndpoint.song_t.pack.file(packOf(3)), (json) => { json.objects[3].regions = { jp: entry(true, '2017-07-08'), ww: entry(false, null) }; });
    for (const [i, id] of song.live_ids.entries()) {
      await edit(objectEndpoint.live_t.pack.file(packOf(id)), (json) => { json.objects[id].regions = { jp: entry(true, '2017-07-08'), ww: entry(i === 0, i === 0 ? '2019-01-01' : null) }; });
    }
    // Card 2's history over two more versions, made by the build's own patch generator.
    const v1 = await card(2);
    const v2 = { ...v1, hp_base: v1.hp_base + 1, title_en: HOSTILE, smile: v1.smile.map((x: number) => x + 1) };
    const at = (truth_version: string, date: number) => ({ truth_version, date });
    await fs.outputJson(path.join(dir, 'api/v1/history/card/2.json'), { type: 'card', id: 2, versions: [
      { ...at('abc', 1700000000), change: 'added', patch: [{ op: 'add', path: '', value: v1 }] },
      { ...at('def', 1710000000), change: 'changed', patch: patchBetween(v1, v2) },
      { ...at('ghi', 1720000000), change: 'removed', patch: null },
    ] });
    copy = await serveStatic(dir);
    axeHost = await serveStatic(path.dirname(AXE));
    p = await newPage(errors);
    await open(p, copy.url);
  });

  afterAll(async () => {
    await p?.close();
    await copy?.close();
    await axeHost?.close();
  });

  it("shows What's new with each entry linked to its object's view", async () => {
    expect(await p.locator('#new').isVisible()).toBe(true);
    // Dates as the game showed them in the export's region (JST, info.json's timezone), said once on the page.
    expect(await p.locator('.change-versions').textContent()).toBe('From abc (2023-11-15) to jp-2019-01-30 (2019-01-30).');
    expect(await p.locator('#version').textContent()).toMatch(/ Dates in JST \(UTC\+9\), as the game showed them\.$/);
    // A summary first: counts per kind, the newest cards as named tiles; the full list behind one click.
    expect(await texts(p, '.change-counts li')).toEqual(['Cards: 1 added, 1 changed, 1 removed', 'Skills: 1 changed', 'Accessories: 1 added', 'Events: 1 added', 'Sets: 1 added']);
    expect(await p.locator('#new .newest > li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['#card/22']);
    expect(await p.locator('#new .newest .name').textContent()).toBe(list.stubs.find((s) => s.ordinal === 22)!.char_name);
    expect(await p.locator('.change-details .change-group').first().isVisible()).toBe(false);
    await p.click('.change-details summary');
    expect(await p.locator('.change-group').evaluateAll((groups) => groups.map((g) => (g as HTMLElement).dataset.type)))
      .toEqual(['cards', 'skills', 'accessories', 'events', 'sets']);
    const name = (ordinal: number) => list.stubs.find((s) => s.ordinal === ordinal)!.char_name;
    expect(await texts(p, '.change-group[data-type="cards"] li'))
      .toEqual([`added #22 ${name(22)}`, `changed #2 ${name(2)}: skill.probability 30, 35 → 31, 36`, 'removed #998']);
    const hrefs = await p.locator('.changes a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['#card/22', '#card/2', 'api/v1/skill_t/2', '#accessory/1', '#event/1', '#set/album-3']);
    await p.click('.changes a[href="#card/2"]');
    await p.waitForSelector('#view:not([aria-busy]) .skill-text, #view:not([aria-busy]) h1');
    expect(await p.locator('#view h1').textContent()).toContain((await card(2)).char_name);
    await p.goBack();
  });

  it('lists each pair of cards once, however many pair ids the game gives it; its view links them all', async () => {
    const pairs = (await readJson(out, 'api/v1/pair_list.json')).pairs;
    expect(await p.locator('#pair-list > li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(pairs.map((pair: any) => `#pair/${pair.pair}`));
    expect(await p.locator('#pair-list > li code').first().textContent()).toBe(`${pairs[0].ordinals.map((o: number) => `#${o}`).join(' + ')} · pairs ${pairs[0].pair}, ${pairs[0].pair + 100}`);
    await show(p, `#pair/${pairs[0].pair + 100}`);
    expect(await p.locator('#view .pair-ids a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([`#pair/${pairs[0].pair}`, `#pair/${pairs[0].pair + 100}`]);
    expect(await p.locator('#view .cards a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(pairs[0].ordinals.map((o: number) => `#card/${o}`));
    await changeHash(p, '#pairs');
  });

  it('shows text from the data as text and never runs it', async () => {
    await p.fill('#search', '#22');
    expect(await p.locator('#card-grid .title').textContent()).toBe(HOSTILE);
    expect(await p.locator('#set-list .name').first().textContent()).toBe(HOSTILE);
    await show(p, '#card/22');
    expect(await p.locator('#view h1').textContent()).toBe(`${HOSTILE}: ${HOSTILE}`);
    await show(p, '#event/1');
    expect(await p.locator('#view h1').textContent()).toBe(HOSTILE);
    expect(await p.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(await p.locator('img[src="x"]').count()).toBe(0);
    expect(errors.errors).toEqual([]);
  });

  it('says which regions hold a card, an accessory, a song and each of its charts, on an archive site', async () => {
    /** The text of the About fact named `term` on the view shown, null without one. */
    const fact = (term: string) => p.evaluate((name) => Array.from(document.querySelectorAll('#view .facts dt')).find((dt) => dt.textContent === name)?.nextElementSibling?.textContent ?? null, term);
    await show(p, '#card/2');
    expect(await fact('Regions')).toBe('JP (first seen 2017-07-08), WW (released 2016-08-05), TW (released 2018-08-10 CST); not in CN; no longer in KR (first seen 2018-01-01)');
    await show(p, '#card/3');
    expect(await fact('Released')).not.toBeNull();
    expect(await fact('Regions')).toBeNull();
    await show(p, '#accessory/1');
    expect(await fact('Regions')).toBe('JP (first seen 2017-07-08); not in WW');
    await show(p, '#song/3');
    expect(await fact('Regions')).toBe('JP (first seen 2017-07-08); not in WW');
    const table = p.locator('#view .chart-thresholds');
    expect(await table.locator('thead th').last().textContent()).toBe('Regions');
    expect(await table.locator('tbody tr td:last-child').allTextContents()).toEqual(song.live_ids.map((_: number, i: number) => (i === 0 ? 'JP, WW' : 'JP')));
    expect(errors.errors).toEqual([]);
  });

  it('for everyone: axe finds no serious or critical violation, nothing scrolls sideways at 360 px, every card opens from the keyboard', async () => {
    // The list's page, its tests above done with it: loaded anew at a phone's width.
    const a11y = p;
    await a11y.setViewportSize({ width: 360, height: 740 });
    /** Runs axe on the view shown (`name`), loading axe first unless this page load has it. */
    const check = async (name: string) => {
      if (!(await a11y.evaluate(() => 'axe' in window))) await a11y.addScriptTag({ url: `${axeHost.url}${path.basename(AXE)}` });
      const violations = await a11y.evaluate(async () => (await (window as any).axe.run(document, { resultTypes: ['violations'] })).violations
        .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
        .map((v: any) => `${v.id}: ${v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')).join(', ')}`));
      expect(violations, name).toEqual([]);
      expect(await a11y.evaluate(() => document.documentElement.scrollWidth), `${name}: sideways scroll`).toBeLessThanOrEqual(360);
    };
    /** Searches as a visitor does: the order, the direction, then the query typed. */
    const search = async (q: string, order: string, dir: string) => {
      await a11y.selectOption('#order', order);
      await a11y.selectOption('#dir', dir);
      await a11y.fill('#search', q);
    };
    // One page load: the list, its searches (the ?q= links' views, as typing shows them), then the views behind its hashes.
    await a11y.goto(copy.url);
    await a11y.waitForSelector('body[data-ready="true"]');
    await check('list');
    await search('rarity:ur', 'smile', 'desc');
    await check('search');
    await search('hoshin', 'ordinal', 'asc');
    expect(await a11y.locator('#search-suggestion').isVisible()).toBe(true);
    await check('search that finds nothing');
    await a11y.fill('#search', '');
    // Every card tile is a link in the tab order, and Enter on one opens its card (then the views behind other hashes).
    const links = await a11y.locator('#card-grid > li').evaluateAll((lis) => lis.map((li) => {
      const a = li.querySelector('a[href]') as HTMLAnchorElement | null;
      return a !== null && a.tabIndex >= 0 && a.getAttribute('href')!.startsWith('#card/');
    }));
    expect(links.length).toBeGreaterThan(0);
    expect(links.every(Boolean)).toBe(true);
    await a11y.focus('#search');
    for (let i = 0; i < 40 && !(await a11y.evaluate(() => document.activeElement?.closest('#card-grid') !== null)); i++) await a11y.keyboard.press('Tab');
    const href = await a11y.evaluate(() => document.activeElement?.getAttribute('href'));
    expect(href).toMatch(/^#card\/\d+$/);
    await a11y.keyboard.press('Enter');
    await a11y.waitForSelector('#view:not([aria-busy]) h1');
    expect(new URL(a11y.url()).hash).toBe(href);
    await check('card view');
    await changeHash(a11y, '#new');
    await a11y.click('.change-details summary');
    await check('What\'s new');
    await show(a11y, '#card/2');
    await a11y.waitForSelector('#view:not([aria-busy]) .card-history');
    await check('history view, with the card\'s regions');
    await show(a11y, '#song/3');
    await check('song view, with its regions');
  });

  // Last: the tests above start from the list (the axe test loads it anew).
  it('shows a card\'s history on its view: when, which version, and what changed, newest first', async () => {
    await show(p, '#card/2');
    await p.waitForSelector('.card-history');
    const v1 = await card(2);
    expect(await texts(p, '.card-history .history-entry')).toEqual([
      '2024-07-03 ghi: removed',
      expect.stringMatching(/^2024-03-10 def: changed/), // 2024-03-09T16:00Z: 01:00 in Japan
      '2023-11-15 abc: added',
    ]);
    // Each changed field before -> after, replayed from the patches.
    const fields = await texts(p, '.card-history .field-changes li');
    expect(fields.slice(0, 2)).toEqual([`title_en: ${v1.title_en} → ${HOSTILE}`, `hp_base: ${v1.hp_base} → ${v1.hp_base + 1}`]);
    expect(fields[2]).toMatch(new RegExp(`^smile: ${v1.smile.slice(0, 3).join(', ')}, .* → ${v1.smile.slice(0, 3).map((x: number) => x + 1).join(', ')}, `));
    expect(fields).toHaveLength(3);
    expect(await p.locator('.card-history a').getAttribute('href')).toBe('api/v1/history/card/2.json');
    // The sample's own build: every card's history starts with its first version.
    await show(p, '#card/1');
    await p.waitForSelector('.card-history');
    expect(await texts(p, '.card-history .history-entry')).toEqual([`${jstDay((await readJson(out, 'api/v1/versions.json')).versions[0].date)} ${(await readJson(out, 'api/v1/info.json')).truth_version}: added`]);
    expect(errors.errors).toEqual([]);
  });
});
