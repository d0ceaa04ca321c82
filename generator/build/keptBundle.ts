/**
 * esbuild bundles kept between processes with the names of the files esbuild read to make them:
 * a process whose sources are the same bytes takes the kept bundle instead of starting esbuild
 * (about 0.15 s of CPU, and the wait). The key is what decides the bytes esbuild writes: its
 * version, the options, and the content of each file it read, tsconfig.json and package.json
 * included (read for settings, listed nowhere). Used for the Pages `_worker.js`
 * (hosts/cloudflare/build/workerBundle.ts) and for the programs the tests start (test/bin.ts).
 */
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { version as esbuildVersion, type BuildOptions, type Metafile } from 'esbuild';

/** Read by esbuild for its settings, never listed among the inputs of its metafile. */
const SETTINGS_FILES = ['tsconfig.json', 'package.json'];
/**
 * A bundle is kept only when none of its sources was modified from this long before esbuild
 * started until they were hashed (coarse file times included): what it read is what was hashed.
 */
const SETTLED_MS = 2000;

/** Where a bundle is kept, and what its key covers besides esbuild's inputs. */
export interface KeptPlace {
  /** The JSON file holding the record. */
  file: string;
  /** The folder esbuild's input paths are relative to (its absWorkingDir). */
  root: string;
  options: BuildOptions;
  /** Files that shape the bundle without being read by esbuild (a plugin's own source), from `root`. */
  shapers?: string[];
}

interface Kept<T> {
  /** The files esbuild read, from the root. */
  inputs: string[];
  key: string;
  value: T;
}

/** The key of a bundle of `inputs` as they are now; null when one cannot be read (gone since). */
function keyOf(place: KeptPlace, inputs: string[]): string | null {
  const hash = createHash('sha256').update(JSON.stringify([esbuildVersion, { ...place.options, plugins: undefined }]));
  try {
    for (const rel of [...SETTINGS_FILES, ...(place.shapers ?? []), ...inputs]) {
      const bytes = readFileSync(path.join(place.root, rel));
      hash.update(`${rel}\0${bytes.length}\0`).update(bytes);
    }
  } catch {
    return null;
  }
  return hash.digest('hex');
}

/** What was kept at `place` for a bundle of sources that are still the same bytes; undefined when none was. */
export function keptValue<T>(place: KeptPlace): T | undefined {
  try {
    const kept = JSON.parse(readFileSync(place.file, 'utf8')) as Kept<T>;
    return keyOf(place, kept.inputs) === kept.key ? kept.value : undefined;
  } catch {
    return undefined; // none yet, or unreadable: bundled anew
  }
}

/**
 * Keeps `value` at `place` for the bundle esbuild made, started at `started` (Date.now()), from
 * the inputs its metafile lists, unless a source changed meanwhile. A place that cannot be
 * written only means bundling anew next time.
 */
export function keep<T>(place: KeptPlace, metafile: Metafile, started: number, value: T): void {
  const inputs = Object.keys(metafile.inputs).sort();
  const key = keyOf(place, inputs);
  const settled = [...SETTINGS_FILES, ...(place.shapers ?? []), ...inputs]
    .every((rel) => (lstatSync(path.join(place.root, rel), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < started - SETTLED_MS);
  if (!key || !settled) return;
  try {
    mkdirSync(path.dirname(place.file), { recursive: true });
    writeAtomically(place.file, JSON.stringify({ inputs, key, value } satisfies Kept<T>));
  } catch {}
}

/** `data` at `file` whole or not at all. */
export function writeAtomically(file: string, data: string | Uint8Array): void {
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, data);
  renameSync(partial, file);
}
