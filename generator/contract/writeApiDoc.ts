/** `npm run docs`: rewrites the generated part of docs/api.md from the endpoint declarations. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { apiMarkdown } from './docs.ts';

const API_DOC = fileURLToPath(new URL('../../docs/api.md', import.meta.url));
const SECTION = /(<!-- api:begin -->\n)[\s\S]*?(<!-- api:end -->)/;

const doc = fs.readFileSync(API_DOC, 'utf8');
if (!SECTION.test(doc)) throw new Error(`${API_DOC}: no <!-- api:begin --> ... <!-- api:end --> section`);
fs.writeFileSync(API_DOC, doc.replace(SECTION, (_, begin, end) => `${begin}${apiMarkdown()}${end}`));
console.log(`${API_DOC}: endpoint reference written`);
