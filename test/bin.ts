/**
 * The repository's programs (the build CLI, the local server, the mirror) as the tests start
 * them: each bundled by esbuild into one JavaScript file that plain node runs. tsx compiles the
 * same sources with the same esbuild, but resolving some 120 modules through its loader costs a
 * process about 1.3 s of CPU before its first line, and the suite starts some 25 of them.
 * `npm run build` and `npm start` themselves (tsx) still run where the npm script is the subject.
 *
 * The bundle keeps each module's `import.meta.url` (the files it reads beside itself: the page
 * sources, the writer thread). Its packages are in it too (node loading typebox's, commander's and
 * fast-glob's hundreds of files cost a process about 0.1 s), but for those that find files of
 * their own when they run (UNBUNDLED_PACKAGES): they stay imports that node resolves from the
 * repository's node_modules, so the bundle is written under .cache/test-bin, named by its content:
 * runs and processes that bundle the same sources share one file, written once, and find it again
 * by the bytes of its sources without bundling.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, version as esbuildVersion, type BuildOptions, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, '.cache/test-bin');
/**
 * Packages left out of the bundle: those that load a native addon or an executable found beside
 * their sources, and spdy, which union (under http-server) requires only for an option we never
 * set, and which is not installed.
 */
const UNBUNDLED_PACKAGES = ['better-sqlite3', 'sharp', 'esbuild', 'spdy'];
/** `require` for the CommonJS packages bundled into an ES module (esbuild's shim calls it for node's own modules). */
const REQUIRE = "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);";
/** Bundles of sources that changed since are removed once they are this old (another run may still use a newer one). */
const STALE_MS = 24 * 3600_000;

/** Each TypeScript module's `import.meta.url` as the file's own URL, as if it ran unbundled. */
const ownUrls: Plugin = {
  name: 'own-import-meta-url',
  setup(setup) {
    setup.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: fs.readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

const OPTIONS: BuildOptions = {
  bundle: true, platform: 'node', format: 'esm', target: 'node20', absWorkingDir: ROOT,
  external: UNBUNDLED_PACKAGES, banner: { js: REQUIRE }, write: false, plugins: [ownUrls], logLevel: 'warning',
};
/** Read by esbuild for its settings (never listed among a bundle's inputs), and this file, whose plugin shapes the bundle. */
const SETTINGS_FILES = ['tsconfig.json', 'package.json', path.relative(ROOT, fileURLToPath(import.meta.url))];
/** A bundle is found by its sources only when none was modified from this long before it was made until they were hashed. */
const SETTLED_MS = 2000;

/** What made a bundle: the files esbuild read (from the repository root) and their key, beside the bundle as `<entry name>.json`. */
interface Made {
  inputs: string[];
  key: string;
  file: string;
}

const bundles = new Map<string, Promise<string>>();

/**
 * The bundled program of `entry` (a path from the repository root), once per process: the one
 * bundled before when the files it was made of are the same bytes (no esbuild started: bundling
 * the packages in costs a process up to 0.3 s of CPU per program), else bundled anew.
 */
export function compiled(entry: string): Promise<string> {
  let file = bundles.get(entry);
  if (!file) bundles.set(entry, (file = Promise.resolve(madeBefore(entry) ?? bundle(entry))));
  return file;
}

const madeFile = (entry: string) => path.join(BIN, `${path.basename(entry, '.ts')}.json`);

/** The key of a bundle of `inputs` as they are now; null when one cannot be read (gone since). */
function keyOf(inputs: string[]): string | null {
  const hash = createHash('sha256').update(JSON.stringify([esbuildVersion, { ...OPTIONS, plugins: undefined }]));
  try {
    for (const rel of [...SETTINGS_FILES, ...inputs]) {
      const bytes = fs.readFileSync(path.join(ROOT, rel));
      hash.update(`${rel}\0${bytes.length}\0`).update(bytes);
    }
  } catch {
    return null;
  }
  return hash.digest('hex');
}

function madeBefore(entry: string): string | undefined {
  try {
    const made = JSON.parse(fs.readFileSync(madeFile(entry), 'utf8')) as Made;
    return fs.existsSync(made.file) && keyOf(made.inputs) === made.key ? made.file : undefined;
  } catch {
    return undefined; // none yet, or unreadable: bundled anew
  }
}

async function bundle(entry: string): Promise<string> {
  const started = Date.now();
  const { outputFiles, metafile } = await build({ ...OPTIONS, entryPoints: [path.join(ROOT, entry)], metafile: true });
  const code = outputFiles![0].contents;
  const name = `${path.basename(entry, '.ts')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const file = path.join(BIN, name);
  fs.mkdirSync(BIN, { recursive: true });
  if (!fs.existsSync(file)) {
    pruneStale();
    writeAtomically(file, code);
  }
  const inputs = Object.keys(metafile!.inputs).sort();
  const key = keyOf(inputs);
  const settled = [...SETTINGS_FILES, ...inputs].every((rel) => (fs.statSync(path.join(ROOT, rel), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < started - SETTLED_MS);
  if (key && settled) writeAtomically(madeFile(entry), JSON.stringify({ inputs, key, file } satisfies Made));
  return file;
}

function writeAtomically(file: string, data: string | Uint8Array): void {
  const partial = `${file}.${process.pid}`;
  fs.writeFileSync(partial, data);
  fs.renameSync(partial, file);
}

function pruneStale(): void {
  for (const name of fs.readdirSync(BIN)) {
    const stat = fs.statSync(path.join(BIN, name), { throwIfNoEntry: false }); // another run may prune it first
    if (stat && Date.now() - stat.mtimeMs > STALE_MS) fs.rmSync(path.join(BIN, name), { force: true });
  }
}
