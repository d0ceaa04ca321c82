/** Pictures: icons published through sharp, image URLs in responses, warnings, and the cache. */
import path from 'node:path';
import fs from 'fs-extra';
import sharp from 'sharp';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build/build.ts';
import type { BuildReport } from '../../generator/build/report.ts';
import type { AccessoryJson, AccessoryListJson, CardJson, CardListJson, SetListJson } from '../../generator/contract/schemas.ts';
import { unitIdOf } from '../../generator/build/sample/data.ts';
import { assetFile } from '../../generator/build/images/sources.ts';
import { buildInto, buildSample, copySample, copyTree, once, readJson, tempDir, writeDb } from '../helpers.ts';
import { unitTables } from '../fixtures.ts';
import { serveStatic, type StaticSite } from '../staticServer.ts';
import { startServer } from '../../generator/hosts/node/runtime/server.ts';
import { publishLayout } from '../../generator/build/publish/layout.ts';
import { handleRequest } from '../../generator/runtime/edge/handler.ts';
import { diskBytesReader, diskReader } from '../../generator/hosts/node/runtime/diskSite.ts';

let out: string;
let report: BuildReport;
const cardOf = async (dir: string, ordinal: number): Promise<CardJson> => (await readJson(dir, `api/v1/card/${ordinal}.json`)).cards[0];
const iconFile = (dir: string, name: string, format = 'png') => path.join(dir, 'images/card/icon', `${name}.${format}`);
const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: '#e8488a' } }).png().toBuffer();

beforeAll(async () => {
  ({ out, report } = await buildSample());
});

/** [response URL, image URL] of every card (`images`) and accessory (`icon_image`) object in a file. */
function imageRefs(value: unknown, responseUrl: string, refs: [string, string][] = []): [string, string][] {
  if (Array.isArray(value)) value.forEach((v) => imageRefs(v, responseUrl, refs));
  else if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const images = object.images as Record<string, string | null> | undefined;
    for (const url of [...Object.values(images ?? {}), object.icon_image]) if (typeof url === 'string') refs.push([responseUrl, url]);
    Object.values(object).forEach((v) => imageRefs(v, responseUrl, refs));
  }
  return refs;
}

describe('/images/card/icon/<id>.png and <id>t.png (with .webp beside each)', () => {
  it('are real PNG and WebP pictures of the same size, at most 128 px, for the sample cards', async () => {
    const list: CardListJson = await readJson(out, 'api/v1/card_list.json');
    const names = (await fs.readdir(path.join(out, 'images/card/icon'))).filter((f) => f.endsWith('.png')).map((f) => f.slice(0, -4));
    expect(names.length).toBeGreaterThan(list.stubs.length);
    for (const name of names) {
      const png = await sharp(iconFile(out, name, 'png')).metadata();
      const webp = await sharp(iconFile(out, name, 'webp')).metadata();
      expect(png.format, name).toBe('png');
      expect(webp.format, name).toBe('webp');
      expect([webp.width, webp.height]).toEqual([png.width, png.height]);
      expect(Math.max(png.width!, png.height!)).toBeLessThanOrEqual(128);
    }
  });

  it('publishes <id> unless the card is pre-transformed, <id>t when it can be idolized', async () => {
    const has = (ordinal: number, t: '' | 't') => fs.pathExists(iconFile(out, `${unitIdOf(ordinal)}${t}`));
    expect([await has(10, ''), await has(10, 't')]).toEqual([true, true]); // ordinary R
    expect([await has(30, ''), await has(30, 't')]).toEqual([false, true]); // promo: always idolized
    expect([await has(28, ''), await has(28, 't')]).toEqual([true, false]); // practice card: never idolized
    expect([await has(32, ''), await has(32, 't')]).toEqual([true, false]); // costume card
  });
});

describe('images on card objects', () => {
  it('points at the published icons, null where the input lacks the picture or it is unreadable', async () => {
    const images = async (ordinal: number) => (await cardOf(out, ordinal)).images;
    const url = (ordinal: number, t: '' | 't') => `../../../images/card/icon/${unitIdOf(ordinal)}${t}.png`;
    expect(await images(10)).toEqual({ icon: url(10, ''), icon_idolized: url(10, 't'), art: null, art_idolized: null });
    expect(await images(9)).toEqual({ icon: null, icon_idolized: null, art: null, art_idolized: null }); // no pictures in the sample
    expect(await images(20)).toEqual({ icon: url(20, ''), icon_idolized: null, art: null, art_idolized: null }); // idolized picture missing
    expect(await images(27)).toEqual({ icon: url(27, ''), icon_idolized: null, art: null, art_idolized: null }); // idolized picture truncated
    expect(await images(30)).toEqual({ icon: null, icon_idolized: url(30, 't'), art: null, art_idolized: null });
    expect(await images(28)).toEqual({ icon: url(28, ''), icon_idolized: null, art: null, art_idolized: null });
  });
});

describe('every image URL in card and accessory responses, over HTTP from the response URL', () => {
  let site: StaticSite;
  beforeAll(async () => { site = await serveStatic(out); });
  afterAll(async () => { await site.close(); });

  it('resolves from card/, set/, pair/, accessory/ and the generic objects, .json or extensionless', async () => {
    const refs: [string, string][] = [];
    const dirsWithImages = new Set<string>();
    // Packs hold objects for the edge's list responses in card/, accessory/ and <type>/, where their URLs resolve;
    // history patches hold objects exactly as their routes publish them, for ?version= on those routes.
    for (const rel of await fg('api/**/*.json', { cwd: out, ignore: ['api/v1/openapi.json', 'api/v1/pack/**', 'api/v1/history/**'] })) {
      const json = await readJson(out, rel);
      // Extensionless URLs (/api/v1/card_t/<id>) sit in the same folder as their .json file.
      for (const url of [site.url + rel, site.url + rel.replace(/\.json$/, '')]) {
        const found = imageRefs(json, url);
        if (found.length) dirsWithImages.add(path.dirname(rel));
        refs.push(...found);
      }
    }
    // Generic objects are answered by the edge from their packs, at /api/v1/<type>/<ids>, where their URLs resolve.
    const site_ = { read: diskReader(out), readBytes: diskBytesReader(out) };
    for (const type of ['card_t', 'accessory_t']) {
      const ids = (await readJson(out, `api/v1/list/${type}.json`)).result.map((entry: { id: number }) => entry.id);
      for (const url of [`${site.url}api/v1/${type}/${ids.join(',')}`, `${site.url}api/v1/${type}/${ids[0]}.json`]) {
        const found = imageRefs(await (await handleRequest(new Request(url), site_))!.json(), url);
        if (found.length) dirsWithImages.add(`api/v1/${type}`);
        refs.push(...found);
      }
    }
    for (const dir of ['card', 'set', 'pair', 'accessory', 'card_t', 'accessory_t']) expect(dirsWithImages, dir).toContain(`api/v1/${dir}`);
    const checked = new Map<string, number>();
    for (const [responseUrl, imageUrl] of refs) {
      const absolute = new URL(imageUrl, responseUrl).href;
      expect(absolute, `${imageUrl} from ${responseUrl}`).toMatch(new RegExp(`^${site.url}images/`));
      if (!checked.has(absolute)) {
        const response = await fetch(absolute);
        checked.set(absolute, response.status);
        expect(response.headers.get('content-type')).toMatch(/^image\/png/);
      }
      expect(checked.get(absolute), absolute).toBe(200);
    }
    expect(checked.size).toBeGreaterThan(50);
  });
});

describe('every image URL in edge responses (comma lists, random), over HTTP from the request URL', () => {
  it('resolves through the local server, which answers like Netlify', async () => {
    const server = await startServer(out, 0);
    try {
      const routes = ['api/v1/card/10,30,20.json', 'api/v1/card/random.json', 'api/v1/card_t/1030,1090', 'api/v1/accessory/1,7.json', 'api/v1/accessory_t/1,2'];
      for (const route of routes) {
        const responseUrl = server.url + route;
        const response = await fetch(responseUrl);
        expect(response.status, route).toBe(200);
        const refs = imageRefs(await response.json(), responseUrl);
        // random.json may pick ordinal 9, the one sample card without pictures (1 run in 35 failed here).
        if (!route.endsWith('random.json')) expect(refs.length, route).toBeGreaterThan(0);
        for (const [, url] of refs) expect((await fetch(new URL(url, responseUrl))).status, `${url} from ${route}`).toBe(200);
      }
    } finally {
      await server.close();
    }
  });
});

describe('icon names in set previews and lists', () => {
  it('name existing files in both formats; a card whose preview icon is missing is passed over', async () => {
    const setList: SetListJson = await readJson(out, 'api/v1/card/set_list.json');
    const names = setList.sets.flatMap((s) => s.preview);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      for (const format of ['png', 'webp']) expect(await fs.pathExists(iconFile(out, name, format)), `${name}.${format}`).toBe(true);
    }
    // Chapter of Seasons: SR 16-20 lead, but 20 has no idolized picture, so R 14 takes its place.
    expect(setList.sets.find((s) => s.id === 'album-2')!.preview).toEqual([16, 17, 18, 19, 14, 15].map((o) => `${unitIdOf(o)}t`));
  });

  it('card_list.json and accessory_list.json name published icons or null', async () => {
    const cards: CardListJson = await readJson(out, 'api/v1/card_list.json');
    for (const card of cards.stubs.filter((c) => c.icon)) expect(await fs.pathExists(iconFile(out, card.icon!))).toBe(true);
    expect(cards.stubs.find((c) => c.ordinal === 30)!.icon).toBe(`${unitIdOf(30)}t`);
    const accessories: AccessoryListJson = await readJson(out, 'api/v1/accessory_list.json');
    for (const a of accessories.accessories) {
      const exists = await fs.pathExists(path.join(out, `images/accessory/icon/${a.id}.png`));
      expect(a.icon, `accessory ${a.id}`).toBe(exists ? `${a.id}` : null);
    }
  });
});

describe('accessory icon_image', () => {
  it('points at images/accessory/icon/<id>.png, null for the accessory without a picture', async () => {
    const accessory = async (id: number): Promise<AccessoryJson> => (await readJson(out, `api/v1/accessory/${id}.json`)).accessories[0];
    expect((await accessory(1)).icon_image).toBe('../../../images/accessory/icon/1.png');
    expect((await accessory(7)).icon_image).toBeNull();
    expect((await sharp(path.join(out, 'images/accessory/icon/1.webp')).metadata()).format).toBe('webp');
  });
});

describe('missing and unreadable pictures', () => {
  it('are warnings, one line per kind, never a failed build', () => {
    const lines = report.warnings.filter((w) => w.startsWith('images:'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^images: 4 pictures missing from input\/assets, .*card 9 icon \(assets\/image\/units\/u_normal_icon_1027\.png\).*and 1 more$/);
    expect(lines[1]).toMatch(/^images: 1 picture unreadable, .*card 27 idolized icon \(assets\/image\/units\/u_rankup_icon_1081\.png: /);
    expect(report.images).toMatchObject({ missing: 4, unreadable: 1 });
  });

  it('are one line saying so when an export has no pictures at all', async () => {
    const input = await copySample();
    await fs.remove(path.join(input, 'assets'));
    const { out: bare, report: bareReport } = await buildInto(input);
    const lines = bareReport.warnings.filter((w) => w.startsWith('images:'));
    expect(lines).toEqual([`images: the export has no pictures (nothing under input/assets), so all ${bareReport.images.missing} image URLs are null`]);
    expect(bareReport.images.missing).toBeGreaterThan(50);
    expect(bareReport.images.published).toBe(0);
    expect((await cardOf(bare, 10)).images).toEqual({ icon: null, icon_idolized: null, art: null, art_idolized: null });
    expect(await fs.pathExists(path.join(bare, 'images'))).toBe(false);
  });

  it('resolve asset paths under input/assets only, and scale large pictures down', async () => {
    const input = path.join(await tempDir(), 'input');
    await writeDb(input, 'unit.sql', unitTables('modern', {
      cards: [
        { unit_id: 1, unit_number: 1, normal_icon_asset: 'assets/image/big.png', rank_max_icon_asset: 'image/small.png' },
        { unit_id: 2, unit_number: 2, normal_icon_asset: '../unit.sql', rank_max_icon_asset: null },
      ],
    }));
    await fs.outputFile(path.join(input, 'assets/image/big.png'), await picture(512, 256));
    await fs.outputFile(path.join(input, 'assets/image/small.png'), await picture(40, 40));
    const { out: dir, report: fixtureReport } = await buildInto(input);
    expect((await cardOf(dir, 1)).images).toEqual({ icon: '../../../images/card/icon/1.png', icon_idolized: '../../../images/card/icon/1t.png', art: null, art_idolized: null });
    expect(await sharp(iconFile(dir, '1')).metadata()).toMatchObject({ width: 128, height: 64 });
    expect(await sharp(iconFile(dir, '1t')).metadata()).toMatchObject({ width: 40, height: 40 }); // never enlarged
    expect((await cardOf(dir, 2)).images).toEqual({ icon: null, icon_idolized: null, art: null, art_idolized: null });
    expect(fixtureReport.warnings).toContainEqual(expect.stringMatching(/^images: 1 picture unreadable, .*card 2 icon \(\.\.\/unit\.sql: outside input\/assets\)/));
    expect(fixtureReport.warnings).toContainEqual(expect.stringMatching(/^images: 1 picture missing .*card 2 idolized icon \(the database names no asset\)/));
  });

  it('never lets an asset path leave input/assets', () => {
    expect(assetFile('/in', 'assets/image/a.png')).toBe(path.join('/in', 'assets/image/a.png'));
    expect(assetFile('/in', 'image/a.png')).toBe(path.join('/in', 'assets/image/a.png'));
    expect(assetFile('/in', '/assets/image/a.png')).toBe(path.join('/in', 'assets/image/a.png'));
    for (const escape of ['../x.png', 'assets/../unit.sql', 'assets/../../etc/passwd', 'assets/']) expect(assetFile('/in', escape), escape).toBeNull();
  });
});

describe('the image cache', () => {
  // These builds keep their own cache beside their folder, not the run's shared one.
  const shared = process.env.SIF_IMAGE_CACHE;
  beforeAll(() => void delete process.env.SIF_IMAGE_CACHE);
  afterAll(() => void (process.env.SIF_IMAGE_CACHE = shared));

  /**
   * A build of a copy of the sample with a cache of its own, encoding every picture: made once for
   * the tests below (encoding is what costs), with its pictures and its cache as that build left them.
   */
  const freshBuild = once(async () => {
    const input = await copySample();
    const { out, report } = await buildInto(input);
    const cache = path.join(await tempDir(), 'image-cache');
    copyTree(publishLayout(out).images, cache);
    return { input, out, report, pictures: await readTree(path.join(out, 'images')), cache };
  });

  it('lets a rebuild reuse every encoded picture, from outside the published folder', async () => {
    const { input, out: dir, report: first, pictures: before } = await freshBuild();
    // Equal sources are encoded once: many sample icons share their bytes.
    expect(first.images.encoded).toBeGreaterThan(20);
    expect(first.images.published).toBeGreaterThan(first.images.encoded);
    expect(first.images.reused).toBe(0);

    const again = await build({ input, out: dir, force: true });
    expect(again.images).toMatchObject({ encoded: 0, reused: first.images.encoded, published: first.images.published });
    expect(await readTree(path.join(dir, 'images'))).toEqual(before);
    expect(await fs.pathExists(path.join(path.dirname(dir), '.cache/images/public'))).toBe(true);
    expect(await fg('**/.cache/**', { cwd: dir, dot: true })).toEqual([]);

    // A changed picture is encoded again, and only that one.
    await fs.outputFile(path.join(input, 'assets/image/units/u_normal_icon_1030.png'), await picture(100, 100));
    const changed = await build({ input, out: dir, force: true });
    expect(changed.images.encoded).toBe(1);
    expect(await sharp(iconFile(dir, `${unitIdOf(10)}`)).metadata()).toMatchObject({ width: 100 });
  });

  it('in a shared folder keeps every entry: sites that share it never prune each other', async () => {
    // Holding the pictures of a fresh build, as if one more site had shared it before.
    const imageCache = (await freshBuild()).cache;
    const first = await copySample();
    await build({ input: first, out: path.join(await tempDir(), 'public'), imageCache });
    const entries = await fs.readdir(imageCache);
    const second = await copySample();
    await fs.outputFile(path.join(second, 'assets/image/units/u_normal_icon_1030.png'), await picture(90, 90));
    const report = await build({ input: second, out: path.join(await tempDir(), 'public'), imageCache });
    expect(report.images.encoded).toBe(1);
    const after = await fs.readdir(imageCache);
    expect(after).toEqual(expect.arrayContaining(entries));
    expect(after).toHaveLength(entries.length + 2); // and the new picture's png and webp
  });

  it('gives byte-identical pictures in independent builds', async () => {
    // The fresh build (its own cache, another process than the run's sample build) as it was built.
    expect((await freshBuild()).pictures).toEqual(await readTree(path.join(out, 'images')));
  });
});

async function readTree(dir: string): Promise<Record<string, Buffer>> {
  const files = (await fg('**/*', { cwd: dir })).sort();
  return Object.fromEntries(await Promise.all(files.map(async (f) => [f, await fs.readFile(path.join(dir, f))] as const)));
}
