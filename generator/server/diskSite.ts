/** The edge handler's reader for a published folder on disk; it never reads outside that folder. */
import path from 'node:path';
import fs from 'node:fs/promises';
import { namesAFile, type ReadFile } from '../edge/site.ts';

/** True when `rel` names a path inside the folder: relative, no dot or empty segments, no backslash or NUL. */
function isInsideRelative(rel: string): boolean {
  return rel !== '' && !/[\\\0]/.test(rel) && rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

export function diskReader(dir: string): ReadFile {
  const root = path.resolve(dir);
  return async (rel) => {
    if (!isInsideRelative(rel) || !namesAFile(rel)) return null;
    const file = path.join(root, rel);
    if (!file.startsWith(root + path.sep)) return null;
    try {
      return await fs.readFile(file, 'utf8');
    } catch (error) {
      if (['ENOENT', 'EISDIR', 'ENOTDIR', 'ENAMETOOLONG'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
      throw error;
    }
  };
}
