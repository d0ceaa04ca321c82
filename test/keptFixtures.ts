/**
 * Fixtures kept from one run to the next, for the edit loop: the shipped sample's build and the
 * generated 4,000-card site cost a few seconds of CPU each to make, and most edits change
 * neither. Each lives in .cache/test-fixtures/<name>-<key> (git-ignored), where `key` names all
 * it is made from: a build's fingerprint (the generator's files, the locked dependencies, the
 * input; publish/fingerprint.ts) and node's version. A change to any of them makes a new one.
 *
 * A fixture is made in a folder of its own and renamed into place whole: a run killed while
 * making one leaves no half fixture behind, and of two runs making the same one at once the
 * first to finish keeps it. Tests read fixtures and never change them; one whose files are not
 * as they were made (names, sizes, modification times, inodes, recorded beside them) is made
 * again rather than trusted. A run touches the fixture it uses; another version of it (made from
 * other sources) is removed once unused for ten minutes, so editing the generator does not pile
 * up copies of the 4,000-card site (about 180 MB each); anything else unused for a day (a fixture
 * no longer asked for, the folder of a run killed while making one), as the bundled programs
 * are (test/bin.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFingerprint } from '../generator/build/publish/fingerprint.ts';
import { writeAtomically } from '../generator/build/keptBundle.ts';

const FIXTURES = fileURLToPath(new URL('../.cache/test-fixtures', import.meta.url));
/** What each fixture's files were when it was made (not itself part of the record). */
const RECORD = '.fixture.json';
/** Unused this long, another version of a fixture is removed (runs read theirs for a minute or so). */
const SUPERSEDED_MS = 10 * 60_000;
const STALE_MS = 24 * 3600_000;

/**
 * Writes what `making` gives (or its error) to `file`, whole, for readOutcome: how a fixture one
 * process makes (globalSetup the sample, the first test file that asks the 4,000-card site)
 * reaches every process of the run.
 */
export async function writeOutcome(file: string, making: Promise<unknown>): Promise<void> {
  const outcome = await making.then((value) => ({ value }), (error: Error) => ({ error: error.stack ?? String(error) }));
  writeAtomically(file, JSON.stringify(outcome));
}

/** What writeOutcome wrote to `file`, once it is there; the maker's error, naming `what`, when it failed. */
export async function readOutcome<T>(file: string, what: string): Promise<T> {
  while (!fs.existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 20));
  const { value, error } = JSON.parse(fs.readFileSync(file, 'utf8')) as { value?: T; error?: string };
  if (error !== undefined) throw new Error(`the run's ${what} failed: ${error}`);
  return value!;
}

/** The key of a fixture made from `input` (a digest of the export, or the options an export is generated from). */
export const fixtureKey = (input: string): string => buildFingerprint(input, { node: process.version }).slice(0, 16);

/**
 * The folder of the fixture `name` made from what `key` names: kept from an earlier run when it
 * is intact, else made by `make` (which fills the empty folder it is given) and kept.
 */
export async function keptFixture(name: string, key: string, make: (dir: string) => Promise<void>): Promise<string> {
  const dir = path.join(FIXTURES, `${name}-${key}`);
  if (isIntact(dir)) {
    const now = new Date();
    fs.utimesSync(path.join(dir, RECORD), now, now); // in use: not stale
    pruneStale(name, dir);
    return dir;
  }
  fs.rmSync(dir, { recursive: true, force: true }); // changed since it was made
  const making = `${dir}.${process.pid}.making`;
  fs.rmSync(making, { recursive: true, force: true });
  fs.mkdirSync(making, { recursive: true });
  pruneStale(name, making);
  try {
    await make(making);
    fs.writeFileSync(path.join(making, RECORD), filesRecord(making));
    fs.renameSync(making, dir);
  } catch (error) {
    fs.rmSync(making, { recursive: true, force: true });
    // Another run kept the same fixture first: use it.
    if (!['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '') || !isIntact(dir)) throw error;
  }
  return dir;
}

/** True when `dir` holds a fixture whose files are as they were when it was made. */
function isIntact(dir: string): boolean {
  try {
    return fs.readFileSync(path.join(dir, RECORD), 'utf8') === filesRecord(dir);
  } catch {
    return false; // not made yet, or not whole
  }
}

/** Every entry under `dir` but the record, with what a change to it would change. */
function filesRecord(dir: string): string {
  const entries: string[] = [];
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      const entry = path.join(rel, name);
      if (entry === RECORD) continue;
      const stat = fs.lstatSync(path.join(dir, entry));
      entries.push(`${entry} ${stat.mode} ${stat.size} ${stat.mtimeMs} ${stat.ino}`);
      if (stat.isDirectory()) walk(entry);
    }
  };
  walk('');
  return entries.join('\n');
}

/** Removes other versions of the fixture `name` unused for ten minutes, and anything unused for a day, but `using`. */
function pruneStale(name: string, using: string): void {
  for (const entry of fs.readdirSync(FIXTURES)) {
    const folder = path.join(FIXTURES, entry);
    if (folder === using) continue;
    const stat = fs.statSync(path.join(folder, RECORD), { throwIfNoEntry: false }) ?? fs.statSync(folder, { throwIfNoEntry: false });
    const unusedFor = stat ? Date.now() - stat.mtimeMs : 0; // gone meanwhile
    if (unusedFor > (entry.startsWith(`${name}-`) ? SUPERSEDED_MS : STALE_MS)) fs.rmSync(folder, { recursive: true, force: true });
  }
}
