/**
 * Pictures from an image host the build names (--image-url, --image-base): a real local image
 * server holding icons and art, the sample built against it, the responses' URLs fetched from
 * that server, and the page in Chromium showing them; the export's own icons keep working.
 */
import path from 'node:path';
import fs from 'fs-extra';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { build, imageHostTemplate } from '../../generator/build/build.ts';
import type { CardJson, CardListJson } from '../../generator/contract/schemas.ts';
import { SAMPLE_INPUT, buildSample, readJson, tempDir } from '../helpers.ts';
import { serveStatic, type StaticSite } from '../staticServer.ts';
import { launchBrowser } from '../browser.ts';
import { UserError } from '../../generator/build/errors.ts';
import type { BuildReport } from '../../generator/build/report.ts';

let host: StaticSite;
let site: StaticSite;
let out: string;
let context: BrowserContext;
let list: CardListJson;
let hostedReport: BuildReport;
const cardOf = async (dir: string, ordinal: number): Promise<CardJson> => (await readJson(dir, `api/v1/card/${ordinal}.json`)).cards[0];
const TEMPLATE = (base: string) => `${base}pics/{kind}/{id}{t}.png`;

beforeAll(async () => {
  // The image host: a PNG per card, kind and state, each a size of its own so the page's picture can be told apart.
  const pics = await tempDir();
  const sample = await buildSample();
  list = await readJson(sample.out, 'api/v1/card_list.json');
  for (const [k, kind] of ['icon', 'art'].entries()) {
    for (const t of ['', 't']) {
      // Encoded once, written for every card: the kind and state alone choose the picture.
      const png = await sharp({ create: { width: 20 + k * 100 + (t ? 1 : 0), height: 30, channels: 3, background: '#7048e8' } }).png().toBuffer();
      for (const stub of list.stubs) await fs.outputFile(path.join(pics, 'pics', kind, `${stub.id}${t}.png`), png);
    }
  }
  host = await serveStatic(pics);
  out = path.join(await tempDir(), 'public');
  hostedReport = await build({ input: SAMPLE_INPUT, out, imageHost: TEMPLATE(host.url) });
  site = await serveStatic(out);
  context = await launchBrowser(await tempDir('sif-chromium-'));
});

afterAll(async () => {
  await context?.close();
  await site?.close();
  await host?.close();
});

describe('--image-url: a card\'s pictures on an image host', () => {
  it('names the art on the host for every card, and fetching each URL gets its picture', async () => {
    for (const stub of list.stubs) {
      const card = await cardOf(out, stub.ordinal);
      const expected = (t: string) => `${host.url}pics/art/${card.id}${t}.png`;
      expect(card.images.art).toBe(card.is_pre_transformed ? null : expected(''));
      expect(card.images.art_idolized).toBe(card.is_transform_disabled && !card.is_pre_transformed ? null : expected('t'));
      for (const url of [card.images.art, card.images.art_idolized]) {
        if (url === null) continue;
        const response = await fetch(url);
        expect(response.status, url).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^image\/png/);
      }
    }
  });

  it('has the report say that the card pictures the export lacks are named on the host, not null', async () => {
    const plain = (await buildSample()).report.warnings.filter((w) => w.startsWith('images:'));
    const hosted = hostedReport.warnings.filter((w) => w.startsWith('images:'));
    expect(plain.some((w) => w.includes('their URLs are null'))).toBe(true);
    // Cards' pictures are named on the host; an accessory's icon has no host, so its URL stays null.
    const onHost = hosted.filter((w) => w.includes('named on the image host instead'));
    const stillNull = hosted.filter((w) => w.includes('their URLs are null'));
    expect(onHost.length).toBeGreaterThan(0);
    expect(onHost.join('\n')).toMatch(/card \d+ (idolized )?icon/);
    expect(onHost.join('\n')).not.toMatch(/accessory \d+/);
    expect(stillNull.join('\n')).not.toMatch(/card \d+/);
    expect(onHost.length + stillNull.length).toBe(hosted.length);
  });

  it('keeps the export\'s own icons, and names the host\'s where the export has none', async () => {
    const own = list.stubs.find((s) => s.icon !== null)!;
    expect((await cardOf(out, own.ordinal)).images.icon).toMatch(/^\.\.\/\.\.\/\.\.\/images\/card\/icon\/\d+\.png$/);
    const missing = list.stubs.find((s) => s.icon === null)!;
    const card = await cardOf(out, missing.ordinal);
    expect(card.images.icon).toBe(`${host.url}pics/icon/${card.id}.png`);
    expect((await fetch(card.images.icon!)).status).toBe(200);
    // The sample's own build (no host) names no art and no host icon.
    const plain = await cardOf((await buildSample()).out, missing.ordinal);
    expect(plain.images).toEqual({ icon: null, icon_idolized: null, art: null, art_idolized: null });
  });

  it('shows the host\'s art on a card view and its icon on a tile the export has no icon for (Chromium)', async () => {
    const page = await context.newPage();
    const missing = list.stubs.find((s) => s.icon === null)!;
    await page.goto(`${site.url}#card/${missing.ordinal}`);
    await page.waitForSelector('#view:not([aria-busy]) .art img');
    const art = await page.locator('.art img').evaluateAll(async (imgs: HTMLImageElement[]) => {
      await Promise.all(imgs.map((img) => img.decode()));
      return imgs.map((img) => [img.currentSrc, img.naturalWidth]);
    });
    expect(art).toEqual([[`${host.url}pics/art/${missing.id}.png`, 120], [`${host.url}pics/art/${missing.id}t.png`, 121]]);
    await page.goto(`${site.url}?q=%23${missing.ordinal}`);
    await page.waitForSelector('body[data-ready="true"]');
    const tile = await page.locator('#card-grid img').evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return [img.currentSrc, img.naturalWidth];
    });
    expect(tile).toEqual([`${host.url}pics/icon/${missing.id}.png`, 20]);
    // A card that is always idolized, whose icon the export lacks: its stub names no icon, and its one picture is the idolized one.
    const promo = list.stubs.find((s) => s.is_pre_transformed)!;
    await page.route('**/api/v1/card_list.json', async (route) => {
      const json = await (await route.fetch()).json() as CardListJson;
      json.stubs.find((s) => s.ordinal === promo.ordinal)!.icon = null;
      await route.fulfill({ json });
    });
    await page.goto(`${site.url}?q=%23${promo.ordinal}`);
    await page.waitForSelector('body[data-ready="true"]');
    const promoTile = await page.locator('#card-grid img').evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return [img.currentSrc, img.naturalWidth];
    });
    expect(promoTile).toEqual([`${host.url}pics/icon/${promo.id}t.png`, 21]);
    await page.close();
  });

  it('is part of what a site is built from: another host rebuilds it', async () => {
    const again = await build({ input: SAMPLE_INPUT, out, imageHost: TEMPLATE(host.url) });
    const other = await build({ input: SAMPLE_INPUT, out, imageHost: `${host.url}other/{id}{t}-{kind}.png` });
    expect([again.upToDate, other.upToDate]).toEqual([true, false]);
    expect((await cardOf(out, list.stubs[0].ordinal)).images.art).toBe(`${host.url}other/${list.stubs[0].id}-art.png`);
    await build({ input: SAMPLE_INPUT, out, imageHost: TEMPLATE(host.url) });
  });
});

describe('--image-base and malformed options', () => {
  it('--image-base is a host laid out as this site\'s images/ folder', () => {
    expect(imageHostTemplate({ imageBase: 'https://cdn.example/sif' })).toBe('https://cdn.example/sif/card/{kind}/{id}{t}.png');
    expect(imageHostTemplate({ imageBase: 'https://cdn.example/sif/' })).toBe('https://cdn.example/sif/card/{kind}/{id}{t}.png');
    expect(imageHostTemplate({})).toBeNull();
  });
  it('a template that is no http URL, names no card, or both options at once, is one clear line', () => {
    const problem = (options: { imageUrl?: string; imageBase?: string }) => {
      try {
        imageHostTemplate(options);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(UserError);
        return (error as Error).message;
      }
    };
    expect(problem({ imageUrl: 'pics/{id}.png' })).toBe('--image-url: "pics/{id}.png" is not an absolute URL');
    expect(problem({ imageUrl: 'ftp://host/{id}.png' })).toBe('--image-url: "ftp://host/{id}.png" is not an http or https URL');
    expect(problem({ imageUrl: 'https://host/card.png' })).toBe('--image-url: "https://host/card.png" names no card: it needs {id} or {ordinal}');
    // Every picture the template names is checked, not only the first: {t} in the scheme names httpts:// for idolized ones.
    expect(problem({ imageUrl: 'http{t}s://host/{id}.png' })).toBe('--image-url: "http{t}s://host/{id}.png" is not an http or https URL for every picture (it names "httpts://host/1.png")');
    expect(problem({ imageUrl: 'https://{kind}.host/{id}.png' })).toBe('--image-url: "https://{kind}.host/{id}.png" names pictures on several hosts: put its placeholders in the path');
    expect(problem({ imageBase: 'nowhere' })).toBe('--image-base: "nowhere/card/{kind}/{id}{t}.png" is not an absolute URL');
    expect(problem({ imageUrl: 'https://a/{id}', imageBase: 'https://b' })).toBe('--image-url and --image-base name the same thing: give one');
  });
});
