/** A digest of a folder's files: their sorted relative paths and contents. */
import path from 'node:path';
import { createHash, type Hash } from 'node:crypto';
import { readRegularFile, type InputFolder } from './inputFiles.ts';
import { MAX_INPUT_FILE_BYTES } from './limits.ts';

/** Hashes the files of `folder` that `take` accepts (every one not hidden by default). */
export function hashTree(hash: Hash, folder: InputFolder, take: (rel: string) => boolean = () => true): Hash {
  for (const rel of folder.files(take).sort()) {
    hash.update(rel).update('\0');
    readRegularFile(path.join(folder.root, rel), MAX_INPUT_FILE_BYTES, (chunk) => hash.update(chunk));
    hash.update('\0');
  }
  return hash;
}

/** sha256 (hex) over every file of an export: read once per build, by the check stage. */
export const inputDigest = (folder: InputFolder): string => hashTree(createHash('sha256'), folder).digest('hex');
