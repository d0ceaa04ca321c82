/**
 * The generator's import graph, type imports included (read by TypeScript's own scanner, which
 * sees `import type` that a bundler drops: a cycle of types is still a cycle a reader walks round),
 * the rules its wings keep, and its drawing in docs/architecture.md (`npm run docs`).
 *
 * - contract/: what the build and the runtime share (the endpoint declarations and the
 *   published format);
 * - runtime/: what runs on a host (the edge handler, and each host's runtime/ that mounts it);
 * - build/: everything that makes a site (and the mirror, which copies one), each host's build/ too;
 * - web/: what the browser loads as published, plain JavaScript that imports only its fellows
 *   (the page, and the search language, which the edge, the build and the contract read too).
 *
 * A host's code, both wings of it, sits in one folder, generator/hosts/<host>/, a subfolder per
 * wing: runtime/ what runs there, build/ what the build writes and checks for it (`all/` for what
 * every host shares). The path names the wing, so the rules above hold inside a host folder too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const WINGS = ['build', 'contract', 'runtime', 'web'] as const;
/** The wings a host folder holds (generator/hosts/<host>/<wing>/). */
const HOST_WINGS = ['build', 'runtime'];

/** Repository-relative path -> the repository-relative paths it imports. */
export type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/**
 * TypeScript's scanner, loaded when a graph is read (npm run docs, the tests): the build imports
 * this module's neighbours for the API reference and never loads the compiler.
 */
const typescript = (): typeof import('typescript') => createRequire(import.meta.url)('typescript');

/** The repository-relative modules `file` imports, types and re-exports included (packages left out: only relative specifiers). */
function importsOf(file: string): string[] {
  const { importedFiles } = typescript().preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, true);
  const relative = importedFiles.map((entry) => entry.fileName).filter((name) => name.startsWith('.'));
  return [...new Set(relative.map((name) => path.posix.normalize(path.posix.join(path.posix.dirname(file), name))))];
}

/** Every module under generator/, with what each imports (packages left out). */
export function importGraph(): ImportGraph {
  return new Map(sourceFiles('generator').map((file) => [file, importsOf(file)]));
}

/**
 * The node a file is drawn in: its folder ("build/render", "runtime/edge"), a host's wing
 * ("hosts/netlify/runtime"), the contract as one, each file directly in build/ on its own (the
 * pipeline, the CLIs and the small shared modules).
 */
export function unitOf(file: string): string {
  const parts = file.split('/');
  if (parts[1] === 'hosts') return parts.slice(1, 4).join('/');
  if (parts.length > 3) return `${parts[1]}/${parts[2]}`;
  return parts[1] === 'build' ? `build/${parts[2].replace(/\.\w+$/, '')}` : parts[1];
}

/** The wing of a file, or of a node of the drawing: its first folder, or in a host's folder the one after the host's name. */
function wingOf(file: string): string {
  const parts = file.replace(/^generator\//, '').split('/');
  if (parts[0] !== 'hosts') return parts[0];
  return HOST_WINGS.includes(parts[2]) ? parts[2] : 'none';
}

/** The web modules every wing may read: the search language, and the image host's templates (the build checks them). */
const isShared = (file: string): boolean =>
  file.startsWith('generator/web/search/') || file === 'generator/web/page/imageHost.js';

/** Whether a module of one wing may import a module of another. */
function allowed(from: string, to: string): boolean {
  switch (wingOf(from) === 'web' ? 'web' : wingOf(to)) {
    case 'web': return wingOf(to) === 'web' && (wingOf(from) === 'web' || isShared(to)); // published as it is: only its fellows resolve
    case 'contract': return true;
    case 'runtime': return wingOf(from) === 'runtime';
    default: return wingOf(from) === wingOf(to); // nothing outside the build imports it
  }
}

/** Each import that breaks a wing rule, as "from -> to". */
export function wingViolations(graph: ImportGraph): string[] {
  const outside = [...graph.keys()].filter((file) => !(WINGS as readonly string[]).includes(wingOf(file)));
  const broken = [...graph].flatMap(([from, imports]) => imports.filter((to) => !allowed(from, to)).map((to) => `${from} -> ${to}`));
  return [...outside.map((file) => `${file}: in no wing`), ...broken];
}

/**
 * The build's stage folders in the order the stages run (stages.ts runStages: read, model, images,
 * render, then search, changes, history and bulk, then the build publishes): a stage's module
 * imports its own stage's and earlier ones', never a later one's, so the flow has one direction.
 * Modules that every stage shares sit beside them (findings.ts, siteFiles.ts, digest.ts...).
 */
const STAGE_FOLDERS: readonly (readonly string[])[] = [['input'], ['model'], ['images'], ['render'], ['changes', 'derive'], ['publish']];

/** The place of a build module's stage in STAGE_FOLDERS, or -1 when it is in none. */
function stageOf(file: string): number {
  const [root, wing, folder] = file.split('/');
  return root === 'generator' && wing === 'build' ? STAGE_FOLDERS.findIndex((stage) => stage.includes(folder)) : -1;
}

/** Each import of a build stage's module from a later stage's, as "from -> to". */
export function stageViolations(graph: ImportGraph): string[] {
  return [...graph].flatMap(([from, imports]) => {
    const stage = stageOf(from);
    return stage < 0 ? [] : imports.filter((to) => stageOf(to) > stage).map((to) => `${from} -> ${to}`);
  });
}

/** One import cycle, as the files around it, or null when the graph has none. */
export function findCycle(graph: ImportGraph): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

/** The folders' imports as a Mermaid flowchart, one box per wing, for docs/architecture.md. */
export function importGraphMermaid(graph: ImportGraph = importGraph()): string {
  const edges = new Set<string>();
  const units = new Set<string>();
  for (const [from, imports] of graph) {
    units.add(unitOf(from));
    for (const to of imports) if (unitOf(from) !== unitOf(to)) edges.add(`${unitOf(from)} --> ${unitOf(to)}`);
  }
  const id = (unit: string) => unit.replace(/[^\w]/g, '_');
  const node = (unit: string) => `    ${id(unit)}["${unit}"]`;
  const wing = (name: string) => [`  subgraph ${name}`, ...[...units].filter((unit) => wingOf(unit) === name).sort().map(node), '  end'];
  return [
    '```mermaid', 'flowchart LR',
    ...WINGS.flatMap(wing),
    ...[...edges].sort().map((edge) => `  ${edge.split(' --> ').map(id).join(' --> ')}`),
    '```', '',
  ].join('\n');
}
