/**
 * The edge functions' declarations (runtime/edge-functions/), written into them by `npm run docs`
 * from the routing table (contract/hostRouting.ts): Netlify reads a function's `config` as a
 * literal without running the module, so it is written there, not computed.
 */
import { fileURLToPath } from 'node:url';
import { EDGE_PATH, NETLIFY_OTHER_METHODS, netlifyExcludedPaths } from '../../../contract/hostRouting.ts';

/** api.ts's declaration: the whole edge path but every published file; the text ends where the end marker's comment begins. */
function apiConfig(): string {
  const excluded = netlifyExcludedPaths().map((pattern) => `    ${JSON.stringify(pattern)},`);
  return [`export const config = {`, `  path: ${JSON.stringify(EDGE_PATH)},`, '  excludedPath: [', ...excluded, '  ],', '};', '// '].join('\n');
}

/**
 * methods.ts's declaration: the methods besides GET and HEAD on the whole edge path, the
 * published files' paths that api.ts's declaration leaves out among them.
 */
function methodsConfig(): string {
  return [`export const config = {`, `  path: ${JSON.stringify(EDGE_PATH)},`, `  method: ${JSON.stringify(NETLIFY_OTHER_METHODS)},`, '};', '// '].join('\n');
}

const functionFile = (name: string) => fileURLToPath(new URL(`../runtime/edge-functions/${name}`, import.meta.url));

/** The generated sections of the function files, as docs.ts lists every generated section. */
export const NETLIFY_FUNCTION_CONFIGS = [
  { file: functionFile('api.ts'), marker: 'netlify', generate: apiConfig },
  { file: functionFile('methods.ts'), marker: 'netlify-methods', generate: methodsConfig },
];
