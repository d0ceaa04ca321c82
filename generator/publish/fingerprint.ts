/**
 * What a site is a function of: every input file, the generator's own files, the
 * locked dependency versions (sharp's encoders shape the pictures) and the build
 * options. Equal fingerprints give byte-identical sites, so a build whose fingerprint
 * matches the published one, with that site untouched, has nothing to do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash, type Hash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';

const GENERATOR = fileURLToPath(new URL('..', import.meta.url));
const LOCKFILE = path.join(GENERATOR, '..', 'package-lock.json');

/** Sorted relative paths and contents of the files matched under root. */
function addTree(hash: Hash, root: string, pattern: string): void {
  for (const rel of fg.sync(pattern, { cwd: root, onlyFiles: true, dot: false }).sort()) {
    hash.update(rel).update('\0').update(fs.readFileSync(path.join(root, rel))).update('\0');
  }
}

let generatorDigest: string | undefined;
function generatorVersion(): string {
  if (generatorDigest === undefined) {
    const hash = createHash('sha256');
    addTree(hash, GENERATOR, '**/*.{ts,html,css,js}'); // page sources (generator/page) are published as they are
    if (fs.existsSync(LOCKFILE)) hash.update(fs.readFileSync(LOCKFILE));
    generatorDigest = hash.digest('hex');
  }
  return generatorDigest;
}

export function buildFingerprint(input: string, options: Record<string, unknown> = {}): string {
  const hash = createHash('sha256').update(generatorVersion()).update(JSON.stringify(options)).update('\0');
  addTree(hash, input, '**/*');
  return hash.digest('hex');
}
