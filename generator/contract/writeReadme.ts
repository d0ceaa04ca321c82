/** `npm run docs`: rewrites the API section of README.md from the endpoint declarations. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { apiMarkdown } from './docs.ts';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const SECTION = /(<!-- api:begin -->\n)[\s\S]*?(<!-- api:end -->)/;

const readme = fs.readFileSync(README, 'utf8');
if (!SECTION.test(readme)) throw new Error(`${README}: no <!-- api:begin --> ... <!-- api:end --> section`);
fs.writeFileSync(README, readme.replace(SECTION, (_, begin, end) => `${begin}${apiMarkdown()}${end}`));
console.log(`${README}: API section written`);
