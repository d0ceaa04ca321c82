/**
 * The generated part of docs/search.md: every field of every searchable kind with its values,
 * the word tables with the codes each word stands for, and the worked examples, all from the
 * search module itself (generator/web/search/), so the documentation cannot drift from the code.
 */
import { KINDS, type Field, type Kind } from '../../web/search/kinds.js';
import { orderNames } from '../../web/search/query.js';
import { CENTERS, DIFFICULTIES, EFFECTS, SCHOOL_YEARS, TRIGGERS, type Word } from '../../web/search/words.js';
import { EXAMPLES, exampleUrl } from '../../web/search/examples.js';

const cell = (text: string) => text.replace(/\|/g, '\\|');
const code = (text: string) => `\`${text.replace(/`/g, '')}\``;

function fieldRows(kind: Kind): string[] {
  const names = (f: Field) => [f.name, ...f.aliases].map(code).join(', ');
  return [
    `### ${kind.name} fields`,
    '',
    `Bare words and quoted phrases match ${kind.words.map(code).join(' and ')}; \`#<n>\` is ${code(`${kind.identity}:<n>`)}. `
      + `\`order\` takes ${orderNames(kind).map(code).join(', ')} (default ${code(kind.identity)}).`,
    '',
    '| field | matches | values | operators |',
    '| --- | --- | --- | --- |',
    ...kind.fields.map((f) => `| ${names(f)} | ${cell(f.about)} | ${cell(f.values)} | ${f.ops.map(code).join(' ')} |`),
    '',
  ];
}

/** Each word of a table with the codes it stands for and what they mean. */
function wordRows(title: string, field: string, table: Word[]): string[] {
  const words = [...new Set(table.flatMap((entry) => entry.words))];
  return [
    `### ${title} (\`${field}:\`)`,
    '',
    '| word | codes | meaning |',
    '| --- | --- | --- |',
    ...words.map((word) => {
      const entries = table.filter((entry) => entry.words.includes(word));
      return `| ${code(word)} | ${entries.map((e) => e.code).join(', ')} | ${cell(entries.map((e) => `${e.code}: ${e.about}`).join('; '))} |`;
    }),
    '',
  ];
}

/** The worked examples as a table: the query, its order, what it finds, and its URL. */
export function examplesMarkdown(): string[] {
  return [
    '| kind | query | order | finds | URL |',
    '| --- | --- | --- | --- | --- |',
    ...EXAMPLES.map((e) => `| ${e.kind} | ${code(e.q)} | ${e.order ? `${e.order} ${e.dir ?? 'asc'}` : '-'} | ${cell(e.same ? `${e.means}; the same as \`${e.same}\`` : e.means)} | \`/api/v1/${exampleUrl(e)}\` |`),
    '',
  ];
}

export function searchMarkdown(): string {
  return [
    ...KINDS.flatMap(fieldRows),
    ...wordRows('Skill effects', 'skill', EFFECTS),
    ...wordRows('Skill triggers', 'trigger', TRIGGERS),
    ...wordRows('Center skill effects', 'center', CENTERS),
    ...wordRows('School years', 'year', SCHOOL_YEARS),
    ...wordRows('Chart difficulties', 'difficulty', DIFFICULTIES),
    '### Worked examples',
    '',
    ...examplesMarkdown(),
  ].join('\n');
}
