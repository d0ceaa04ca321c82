/**
 * `npm run docs`: rewrites the generated parts of docs/api.md (the endpoint reference) and
 * docs/search.md (fields, words, examples) from the declarations and the search module, and the
 * generated files (wrangler.json's run_worker_first).
 */
import fs from 'node:fs';
import { GENERATED_DOCS, GENERATED_FILES } from './docs.ts';

for (const { file, marker, generate } of GENERATED_DOCS) {
  const section = new RegExp(`(<!-- ${marker}:begin -->\\n)[\\s\\S]*?(<!-- ${marker}:end -->)`);
  const doc = fs.readFileSync(file, 'utf8');
  if (!section.test(doc)) throw new Error(`${file}: no <!-- ${marker}:begin --> ... <!-- ${marker}:end --> section`);
  fs.writeFileSync(file, doc.replace(section, (_, begin, end) => `${begin}${generate()}${end}`));
  console.log(`${file}: ${marker} section written`);
}

for (const { file, generate } of GENERATED_FILES) {
  fs.writeFileSync(file, generate(fs.readFileSync(file, 'utf8')));
  console.log(`${file}: written`);
}
