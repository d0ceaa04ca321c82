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
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { keep, keptValue, writeAtomically, type KeptPlace } from '../generator/build/keptBundle.ts';

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

/** Where the bundle of `entry` is kept: its file's path beside the bundles, as `<entry name>.json`. */
const placeOf = (entry: string): KeptPlace => ({
  file: path.join(BIN, `${path.basename(entry, '.ts')}.json`), root: ROOT, options: { ...OPTIONS, entryPoints: [entry] },
  shapers: [path.relative(ROOT, fileURLToPath(import.meta.url))], // this file's plugin shapes the bundle
});

/** The bundle of `entry` made before from sources that are still the same bytes, if it is still there. */
function madeBefore(entry: string): string | undefined {
  const file = keptValue<string>(placeOf(entry));
  return file !== undefined && fs.existsSync(file) ? file : undefined;
}

async function bundle(entry: string): Promise<string> {
  const started = Date.now();
  const { outputFiles, metafile } = await build({ ...OPTIONS, entryPoints: [entry], metafile: true });
  const code = outputFiles![0].contents;
  const file = path.join(BIN, `${path.basename(entry, '.ts')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  fs.mkdirSync(BIN, { recursive: true });
  if (!fs.existsSync(file)) {
    pruneStale();
    writeAtomically(file, code);
  }
  keep(placeOf(entry), metafile!, started, file);
  return file;
}

function pruneStale(): void {
  for (const name of fs.readdirSync(BIN)) {
    const stat = fs.statSync(path.join(BIN, name), { throwIfNoEntry: false }); // another run may prune it first
    if (stat && Date.now() - stat.mtimeMs > STALE_MS) fs.rmSync(path.join(BIN, name), { force: true });
  }
}
