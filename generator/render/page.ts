/** public/index.html with its script and style: the card browser (sources in generator/page/). */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OBJECT_TYPES, imagePaths, paths, type ImageFormat } from '../format.ts';
import type { SiteFiles } from './files.ts';

const source = (name: string): Buffer => fs.readFileSync(fileURLToPath(new URL(`../page/${name}`, import.meta.url)));

/** A path function's result with `{}` in place of its argument, for the page's script to fill in. */
const template = <T>(pathOf: (arg: T) => string): string => pathOf('{}' as unknown as T);

const iconTemplates = (pathOf: (name: string, format: ImageFormat) => string) => ({
  png: template((name: string) => pathOf(name, 'png')),
  webp: template((name: string) => pathOf(name, 'webp')),
});

/** Files a person may want to open directly: info and the lists (those this export has). */
const indexFiles = (files: SiteFiles) =>
  [paths.info(), paths.cardList(), paths.setList(), paths.pairList(), paths.accessoryList(), ...OBJECT_TYPES.map(paths.objectList)]
    .filter((rel) => files.has(rel));

/** Call after every JSON file is rendered: the page links the index files among them. */
export function renderPage(files: SiteFiles): void {
  const config = {
    info: paths.info(),
    cardList: paths.cardList(),
    card: template(paths.card),
    setList: paths.setList(),
    set: template(paths.set),
    pairList: paths.pairList(),
    pair: template(paths.pair),
    accessoryList: paths.accessoryList(),
    accessory: template(paths.accessory),
    cardIcon: iconTemplates(imagePaths.cardIcon),
    accessoryIcon: iconTemplates(imagePaths.accessoryIcon),
    files: indexFiles(files),
  };
  // JSON inside <script>: escape "<" so no value can close the element.
  const html = source('index.html').toString().replace('{{CONFIG}}', () => JSON.stringify(config).replace(/</g, '\\u003c'));
  files.set('index.html', Buffer.from(html));
  files.set('site/app.js', source('app.js'));
  files.set('site/style.css', source('style.css'));
}
