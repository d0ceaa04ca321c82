/**
 * The files of an input folder, listed without ever leaving it: fast-glob walks
 * without following links, so a link cycle cannot hang it and a linked folder is not
 * entered; a link to a file is listed only when its target is a file inside the folder.
 * Only regular files are read, each up to a size limit: a named pipe would block the build
 * forever (holding its lock), a device such as /dev/zero would never end.
 */
import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { UserError } from '../errors.ts';

/** The target of the link at `file` when it lies inside `realRoot`; null for one outside, a cycle or a dangling link. */
function targetInside(file: string, realRoot: string): string | null {
  try {
    const target = fs.realpathSync(file);
    return target.startsWith(realRoot + path.sep) ? target : null;
  } catch {
    return null;
  }
}

/** True when the link at `file` ends at a regular file inside `realRoot`. */
function linksInside(file: string, realRoot: string): boolean {
  const target = targetInside(file, realRoot);
  return target !== null && fs.statSync(target).isFile();
}

/** Fails when `file` (under `root`) is a link whose target is not inside `root` (its reader checks that it is a regular file). */
export function requireInside(root: string, file: string): void {
  if (fs.lstatSync(file).isSymbolicLink() && targetInside(file, fs.realpathSync(root)) === null) {
    throw new UserError(`${file}: a link leading outside the input folder (or nowhere); it is not followed`);
  }
}

/** The kind tests a directory entry and a file's stats share. */
type EntryKind = Pick<fs.Stats, 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket' | 'isDirectory'>;

/** What a file system entry that is not a regular file is, for the message that refuses it. */
function kindOf(entry: EntryKind): string {
  if (entry.isFIFO()) return 'a named pipe';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'a device';
  if (entry.isSocket()) return 'a socket';
  return entry.isDirectory() ? 'a folder' : 'not a regular file';
}

/** The folder files are read from, as the messages that refuse one name it. */
const INPUT_FOLDER = 'the input folder';

const notRegular = (file: string, entry: EntryKind, folder = INPUT_FOLDER) =>
  new UserError(`${file}: ${kindOf(entry)}, not a regular file; only regular files are read from ${folder}`);

/**
 * An input folder's entries, walked once per build and handed to every stage that lists files
 * in it (the input's digest, the databases, the files left unread, translations, pictures):
 * each takes the files it wants with a test on their relative paths.
 */
export class InputFolder {
  private constructor(readonly root: string, private readonly realRoot: string, private readonly entries: fg.Entry[]) {}

  /** Every entry under `root`, hidden ones included, without following a link. */
  static walk(root: string): InputFolder {
    const realRoot = fs.realpathSync(root);
    return new InputFolder(root, realRoot, fg.sync('**', { cwd: root, dot: true, onlyFiles: false, followSymbolicLinks: false, objectMode: true }));
  }

  /**
   * Paths relative to the root ('/'-separated) of the files whose path `take` accepts: regular
   * files, and links to a regular file inside the folder. Hidden entries (a name starting with a
   * dot, or under a folder that does) only with `hidden`. A pipe, socket or device among those
   * taken fails the build: it would never be read to its end.
   */
  files(take: (rel: string) => boolean, { hidden = false } = {}): string[] {
    const taken = this.entries.filter((e) => (hidden || !isHidden(e.path)) && take(e.path));
    const special = taken.find((e) => !e.dirent.isFile() && !e.dirent.isDirectory() && !e.dirent.isSymbolicLink());
    if (special) throw notRegular(path.join(this.root, special.path), special.dirent);
    return taken
      .filter((e) => e.dirent.isFile() || (e.dirent.isSymbolicLink() && linksInside(path.join(this.root, e.path), this.realRoot)))
      .map((e) => e.path);
  }
}

const isHidden = (rel: string) => rel.startsWith('.') || rel.includes('/.');

/**
 * Opens `file` for reading only when it is a regular file of at most `maxBytes`: opened
 * without blocking (a pipe with no writer would wait forever) and checked on the open
 * descriptor, so a file swapped after a check is caught too. Returns the descriptor and size.
 */
export function openRegularFile(file: string, maxBytes: number, folder = INPUT_FOLDER): { fd: number; size: number } {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw notRegular(file, stat, folder);
    if (stat.size > maxBytes) throw new UserError(`${file}: ${stat.size} bytes; files over ${maxBytes / 2 ** 20} MiB in ${folder} are refused`);
    return { fd, size: stat.size };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** Calls `take` with each chunk of a regular file of at most `maxBytes` (see openRegularFile); never reads past the size it had when opened. */
export function readRegularFile(file: string, maxBytes: number, take: (chunk: Buffer) => void): void {
  const { fd, size } = openRegularFile(file, maxBytes);
  const chunk = Buffer.allocUnsafe(Math.min(size, 1024 * 1024));
  try {
    for (let at = 0, n = 1; at < size && n > 0; at += n) {
      n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, size - at), at);
      take(chunk.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** The bytes of a regular file of at most `maxBytes` (see openRegularFile; `folder` names where it is in errors). */
export function readRegularBytes(file: string, maxBytes: number, folder = INPUT_FOLDER): Buffer<ArrayBuffer> {
  const { fd, size } = openRegularFile(file, maxBytes, folder);
  const bytes = Buffer.allocUnsafe(size);
  try {
    let at = 0;
    for (let n = 1; at < size && n > 0; at += n) n = fs.readSync(fd, bytes, at, size - at, at);
    return bytes.subarray(0, at);
  } finally {
    fs.closeSync(fd);
  }
}
