/**
 * The files of an input folder, listed without ever leaving it: fast-glob walks
 * without following links, so a link cycle cannot hang it and a linked folder is not
 * entered; a link to a file is listed only when its target is a file inside the folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { UserError } from '../errors.ts';

export interface ListOptions {
  ignore?: string[];
  dot?: boolean;
  caseSensitiveMatch?: boolean;
}

/** True when the link at `file` ends at a regular file inside `realRoot` (a cycle or a dangling link is not). */
function linksInside(file: string, realRoot: string): boolean {
  try {
    const target = fs.realpathSync(file);
    return target.startsWith(realRoot + path.sep) && fs.statSync(target).isFile();
  } catch {
    return false;
  }
}

/** Fails when `file` (under `root`) is a link whose target is not a file inside `root`. */
export function requireInside(root: string, file: string): void {
  if (fs.lstatSync(file).isSymbolicLink() && !linksInside(file, fs.realpathSync(root))) {
    throw new UserError(`${file}: a link leading outside the input folder (or nowhere); it is not followed`);
  }
}

/** Paths relative to `root` ('/'-separated) of the files matching `patterns`. */
export function listInputFiles(root: string, patterns: string | string[], options: ListOptions = {}): string[] {
  const realRoot = fs.realpathSync(root);
  const entries = fg.sync(patterns, { ...options, cwd: root, onlyFiles: false, followSymbolicLinks: false, objectMode: true });
  return entries
    .filter((e) => e.dirent.isFile() || (e.dirent.isSymbolicLink() && linksInside(path.join(root, e.path), realRoot)))
    .map((e) => e.path);
}
