/** A digest of a folder's files: their sorted relative paths and contents. */
import path from 'node:path';
import { createHash, type Hash } from 'node:crypto';
import { listInputFiles, readRegularFile } from './inputFiles.ts';
import { MAX_INPUT_FILE_BYTES } from './limits.ts';

export function hashTree(hash: Hash, root: string, pattern = '**/*'): Hash {
  for (const rel of listInputFiles(root, pattern).sort()) {
    hash.update(rel).update('\0');
    readRegularFile(path.join(root, rel), MAX_INPUT_FILE_BYTES, (chunk) => hash.update(chunk));
    hash.update('\0');
  }
  return hash;
}

/** sha256 (hex) over every file of an export: read once per build, by the check stage. */
export const inputDigest = (root: string): string => hashTree(createHash('sha256'), root).digest('hex');
