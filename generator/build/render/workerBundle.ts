/**
 * generator/runtime/edge/pagesWorker.ts and what it imports as one ES module (the Pages
 * `_worker.js`), kept between processes in the repository's `.cache/pages-worker.json` with the
 * files esbuild read to make it: a build whose sources are the same bytes takes the kept bundle
 * instead of starting esbuild (about 0.15 s of CPU, and the build waits for it). The key is
 * what decides the bytes esbuild writes: its version, the options, and the content of each file
 * it read (tsconfig.json and package.json too, which it reads for settings and lists nowhere).
 */
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { buildSync, version as esbuildVersion, type BuildOptions } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const WORKER_ENTRY = 'generator/runtime/edge/pagesWorker.ts';
const KEPT = path.join(ROOT, '.cache', 'pages-worker.json');
/** Read by esbuild for its settings, never listed among the inputs of its metafile. */
const SETTINGS_FILES = ['tsconfig.json', 'package.json'];
/**
 * A bundle is kept only when none of its sources was modified from this long before esbuild
 * started until they were hashed (coarse file times included): what it read is what was hashed.
 */
const SETTLED_MS = 2000;

/**
 * The edge loads no package, so the bundle holds only this repository's code; paths in its
 * comments are relative to the repository, so it is the same wherever the build runs.
 */
const OPTIONS: BuildOptions = {
  entryPoints: [WORKER_ENTRY],
  absWorkingDir: ROOT,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  write: false,
  banner: { js: `// Cloudflare Pages worker, bundled by npm run build from ${WORKER_ENTRY}.` },
};

interface Kept {
  /** The repository's files esbuild read, relative to it. */
  inputs: string[];
  key: string;
  code: string;
}

/** The key of a bundle of `inputs` as they are now; null when one cannot be read (gone since). */
function keyOf(inputs: string[]): string | null {
  const hash = createHash('sha256').update(JSON.stringify([esbuildVersion, OPTIONS]));
  try {
    for (const rel of [...SETTINGS_FILES, ...inputs]) {
      const bytes = readFileSync(path.join(ROOT, rel));
      hash.update(`${rel}\0${bytes.length}\0`).update(bytes);
    }
  } catch {
    return null;
  }
  return hash.digest('hex');
}

function readKept(): Kept | null {
  try {
    return JSON.parse(readFileSync(KEPT, 'utf8')) as Kept;
  } catch {
    return null; // none yet, or unreadable: bundled anew
  }
}

/** Keeps the bundle for later processes; a repository that cannot be written to only bundles anew. */
function keep(kept: Kept): void {
  try {
    mkdirSync(path.dirname(KEPT), { recursive: true });
    const partial = `${KEPT}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(kept));
    renameSync(partial, KEPT);
  } catch {}
}

function bundle(): Buffer {
  const started = Date.now();
  const { outputFiles, metafile } = buildSync({ ...OPTIONS, metafile: true });
  const code = Buffer.from(outputFiles![0].contents);
  const inputs = Object.keys(metafile!.inputs).sort();
  const key = keyOf(inputs);
  const settled = [...SETTINGS_FILES, ...inputs].every((rel) => (lstatSync(path.join(ROOT, rel), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < started - SETTLED_MS);
  if (key && settled) keep({ inputs, key, code: code.toString('utf8') });
  return code;
}

let worker: Buffer | undefined;

/** The bundle, made once per process: the kept one when its sources are unchanged, else esbuild's. */
export function pagesWorkerBundle(): Buffer {
  if (worker) return worker;
  const kept = readKept();
  worker = kept && keyOf(kept.inputs) === kept.key ? Buffer.from(kept.code, 'utf8') : bundle();
  return worker;
}
