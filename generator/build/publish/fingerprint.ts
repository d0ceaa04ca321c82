/**
 * What a site is a function of: every input file, the generator's own files, the
 * locked dependency versions (sharp's encoders shape the pictures) and the build
 * options. Equal fingerprints give byte-identical sites, so a build whose fingerprint
 * matches the published one, with that site untouched, has nothing to do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { hashTree } from '../input/treeDigest.ts';
import { InputFolder } from '../input/inputFiles.ts';

const GENERATOR = fileURLToPath(new URL('../..', import.meta.url));
const LOCKFILE = path.join(GENERATOR, '..', 'package-lock.json');
const SOURCE = /\.(?:ts|html|css|js)$/;

let generatorDigest: string | undefined;
function generatorVersion(): string {
  if (generatorDigest === undefined) {
    const hash = createHash('sha256');
    // Page sources (generator/web/page, generator/web/search) are published as they are.
    hashTree(hash, InputFolder.walk(GENERATOR), (rel) => SOURCE.test(rel));
    if (fs.existsSync(LOCKFILE)) hash.update(fs.readFileSync(LOCKFILE));
    generatorDigest = hash.digest('hex');
  }
  return generatorDigest;
}

/** `inputDigest`: input/treeDigest.ts's digest of the export, computed once per build. */
export function buildFingerprint(inputDigest: string, options: Record<string, unknown> = {}): string {
  return createHash('sha256').update(generatorVersion()).update(JSON.stringify(options)).update('\0').update(inputDigest).digest('hex');
}
