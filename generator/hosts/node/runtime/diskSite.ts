/**
 * The edge handler's reader for a published folder on disk; it never reads outside that
 * folder (neither by a path nor through a link inside it that leads out) and reads only
 * regular files (a named pipe would never end).
 *
 * Recently read files are kept, as text or bytes as they were asked for (least recently
 * used dropped first, at most CACHE_BYTES): concurrent comma lists read the same packs, and
 * reading them once per request would cost more than answering it. An entry is reused only while the file has
 * the same device, inode, size and modification time, so a republished site is read anew.
 */
import path from 'node:path';
import fs from 'node:fs/promises';
import { constants, type Stats } from 'node:fs';
import { namesAFile } from '../../../runtime/edge/siteReader.ts';
import type { ReadBytes, ReadFile } from '../../../contract/siteRead.ts';

/** Files kept for reuse; text counted as UTF-16 (two bytes a character, V8's worst case). */
const CACHE_BYTES = 96 * 1024 * 1024;
/** Larger files are read but never kept. */
const MAX_CACHED_FILE = 16 * 1024 * 1024;

/** True when `rel` names a path inside the folder: relative, no dot or empty segments, no backslash or NUL. */
function isInsideRelative(rel: string): boolean {
  return rel !== '' && !/[\\\0]/.test(rel) && rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

type Content = string | Uint8Array;

interface Cached {
  identity: string;
  content: Content;
}

const sizeOf = (content: Content) => (typeof content === 'string' ? content.length * 2 : content.byteLength);

/** A least-recently-used map of file contents, bounded by their size. */
class FileCache {
  private entries = new Map<string, Cached>();
  private bytes = 0;

  get(key: string, identity: string): Content | null {
    const entry = this.entries.get(key);
    if (entry?.identity !== identity) return null;
    this.entries.delete(key); // re-inserted: most recently used last
    this.entries.set(key, entry);
    return entry.content;
  }

  set(key: string, identity: string, content: Content): void {
    const size = sizeOf(content);
    if (size > MAX_CACHED_FILE) return;
    this.delete(key);
    this.entries.set(key, { identity, content });
    this.bytes += size;
    for (const [oldest] of this.entries) {
      if (this.bytes <= CACHE_BYTES) break;
      this.delete(oldest);
    }
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= sizeOf(entry.content);
    this.entries.delete(key);
  }
}

const ABSENT = new Set(['ENOENT', 'EISDIR', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG']);

/** The file `rel` under `root` when `rel` can name one inside it, else null. */
function fileIn(root: string, rel: string): string | null {
  if (!isInsideRelative(rel) || !namesAFile(rel)) return null;
  const file = path.join(root, rel);
  return file.startsWith(root + path.sep) ? file : null;
}

/** `attempt`'s value, or null when it failed because there is no such file. */
async function unlessAbsent<T>(attempt: Promise<T>): Promise<T | null> {
  try {
    return await attempt;
  } catch (error) {
    if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

const identityOf = (stat: Stats) => `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;

/** Recently read files; one cache may serve several readers (the versions of one site share unchanged files by inode). */
export const fileCache = () => new FileCache();

/**
 * Whether the file at `file` really lies in the folder whose real path is `realRoot`, links
 * followed: a link in the site that leads out of it (to /etc/passwd, to the user's home) names
 * no published file. The build publishes no link inside a site (unchanged files are hard links).
 */
async function staysInside(realRoot: string, file: string): Promise<boolean> {
  const real = await unlessAbsent(fs.realpath(file));
  return real !== null && real.startsWith(realRoot + path.sep);
}

/** The real path of `root` (the version folder a site's link names), looked up once, and again when `anew` (the link may have moved since). */
function realRootOf(root: string): (anew?: boolean) => Promise<string> {
  let real: Promise<string> | undefined;
  return (anew = false) => (real = anew || !real ? fs.realpath(root).catch(() => root) : real);
}

/**
 * `read` of the regular file `rel` under `root` (null when there is none, or when its real path
 * leaves the folder), or what an earlier read of the same file (same identity) kept in `cache`
 * under `kind`. A kept file costs a stat and a real path; only a file not kept is opened,
 * non-blocking (opening a named pipe must not wait for a writer), and taken only if what was
 * opened is a regular file still.
 */
function cachedRead<T extends Content>(root: string, cache: FileCache, kind: string, read: (handle: fs.FileHandle) => Promise<T>) {
  const realRoot = realRootOf(root);
  return async (rel: string): Promise<T | null> => {
    const file = fileIn(root, rel);
    const stat = file === null ? null : await unlessAbsent(fs.stat(file));
    if (file === null || !stat?.isFile()) return null; // a folder, pipe, socket or device is no published file
    if (!(await staysInside(await realRoot(), file)) && !(await staysInside(await realRoot(true), file))) return null;
    const cached = cache.get(`${kind}:${rel}`, identityOf(stat));
    if (cached !== null) return cached as T;
    const handle = await unlessAbsent(fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK));
    if (handle === null) return null;
    try {
      const opened = await handle.stat();
      if (!opened.isFile()) return null;
      const content = await read(handle);
      cache.set(`${kind}:${rel}`, identityOf(opened), content);
      return content;
    } finally {
      await handle.close();
    }
  };
}

export function diskReader(dir: string, cache = fileCache()): ReadFile {
  return cachedRead(path.resolve(dir), cache, 'text', (handle) => handle.readFile('utf8'));
}

/**
 * The version folder a published site's folder is (the build publishes by replacing a link to
 * it): a request reads every file from the version current when it began, never from two.
 */
export async function currentVersion(dir: string): Promise<string> {
  try {
    return await fs.realpath(dir);
  } catch {
    return path.resolve(dir); // absent for now: reads find nothing
  }
}

/** The bytes of a published file, as they are (files that are not JSON: the bulk downloads; packs). */
export function diskBytesReader(dir: string, cache = fileCache()): ReadBytes {
  return cachedRead(path.resolve(dir), cache, 'bytes', async (handle) => {
    const bytes = await handle.readFile();
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength); // a view, not a copy
  });
}
