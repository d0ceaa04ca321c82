/** public/index.html with its script and style: the card browser (sources in generator/web/page/). */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PACK_SIZE, RARITIES, imagePaths, type ImageFormat } from '../../contract/format.ts';
import { OBJECT_TYPE_NAMES, endpoints, objectEndpoint, type ObjectType } from '../../contract/endpoints.ts';
import { CHANGE_TYPES, kindOfChange } from '../../contract/kinds.ts';
import type { SiteFiles } from '../siteFiles.ts';

const source = (name: string, folder = 'page'): Buffer => fs.readFileSync(fileURLToPath(new URL(`../../web/${folder}/${name}`, import.meta.url)));

/** A path function's result with `{}` in place of its argument, for the page's script to fill in. */
const template = <T>(pathOf: (arg: T) => string): string => pathOf('{}' as unknown as T);

const iconTemplates = (pathOf: (name: string, format: ImageFormat) => string) => ({
  png: template((name: string) => pathOf(name, 'png')),
  webp: template((name: string) => pathOf(name, 'webp')),
});

/** A generic object's route, `{}` for its id: the page links objects there (the edge answers it). */
const objectRoute = (type: ObjectType) => objectEndpoint[type].object.route.slice(1).replace('{ids}', '{}');

/** Each change list type with its heading and where an id leads: a view of the page, else the object's route (contract/kinds.ts). */
const changeTypes = () => CHANGE_TYPES.map((type) => {
  const { page, objectType } = kindOfChange(type);
  return [type, page!.label, page!.view ?? objectRoute(objectType!)];
});

/** Files a person may want to open directly: info and the lists (those this export has). */
const indexFiles = (files: SiteFiles) =>
  [endpoints.info, endpoints.cardList, endpoints.setList, endpoints.pairList, endpoints.accessoryList, endpoints.openapi,
    ...OBJECT_TYPE_NAMES.map((type) => objectEndpoint[type].list)]
    .map((endpoint) => endpoint.file())
    .filter((rel) => files.has(rel));

/** The page's scripts (ES modules, app.js the entry) and style, copied into site/: every one in generator/web/page/. */
const PAGE_FILES = fs.readdirSync(fileURLToPath(new URL('../../web/page/', import.meta.url))).filter((name) => /\.(js|css)$/.test(name)).sort();
/**
 * The search module (generator/web/search/), which the edge runs too, copied into search/: beside
 * site/ as generator/web/search/ is beside generator/web/page/, so the page's imports resolve the same.
 */
const SEARCH_FILES = fs.readdirSync(fileURLToPath(new URL('../../web/search/', import.meta.url))).filter((name) => name.endsWith('.js')).sort();

/** Call after every JSON file is rendered: the page links the index files among them; `imageHost` shows tiles' pictures the site lacks. */
export function renderPage(files: SiteFiles, imageHost: string | null = null): void {
  const config = {
    imageHost,
    rarities: RARITIES,
    info: endpoints.info.file(),
    cardList: endpoints.cardList.file(),
    card: template(endpoints.card.file),
    setList: endpoints.setList.file(),
    set: template(endpoints.set.file),
    pairList: endpoints.pairList.file(),
    pair: template(endpoints.pair.file),
    accessoryList: endpoints.accessoryList.file(),
    accessory: template(endpoints.accessory.file),
    cardIcon: iconTemplates(imagePaths.cardIcon),
    accessoryIcon: iconTemplates(imagePaths.accessoryIcon),
    eventList: objectEndpoint.event_t.list.file(),
    // A site without a live database has no songs: the page then asks for none.
    songList: files.has(objectEndpoint.song_t.list.file()) ? objectEndpoint.song_t.list.file() : null,
    liveList: objectEndpoint.live_t.list.file(),
    // Generic objects: linked at their route (the edge answers it), read by the page from their packs (any host serves them).
    object: Object.fromEntries(OBJECT_TYPE_NAMES.map((type) => [type, objectRoute(type)])),
    // card_t's packs name each card's ordinal: the page reads cards from their own files.
    pack: Object.fromEntries(OBJECT_TYPE_NAMES.filter((type) => type !== 'card_t').map((type) => [type, template(objectEndpoint[type].pack.file)])),
    // Charts' notes, read from their packs as the generic objects are (the notes route needs the edge).
    notesPack: template(endpoints.notesPack.file),
    packSize: PACK_SIZE,
    changes: endpoints.latestChanges.file(),
    changeTypes: changeTypes(),
    cardHistory: endpoints.history.file('card', '{}'),
    searchIndex: template(endpoints.searchIndex.file),
    bulkIndex: endpoints.bulkIndex.file(),
    searchApi: endpoints.searchCard.route.slice(1),
    files: indexFiles(files),
  };
  // JSON inside <script>: escape "<" so no value can close the element.
  const html = source('index.html').toString().replace('{{CONFIG}}', () => JSON.stringify(config).replace(/</g, '\\u003c'));
  files.set('index.html', Buffer.from(html));
  for (const name of PAGE_FILES) files.set(`site/${name}`, source(name));
  for (const name of SEARCH_FILES) files.set(`search/${name}`, source(name, 'search'));
}
