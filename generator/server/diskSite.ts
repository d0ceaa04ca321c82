/**
 * The edge handler's reader for a published folder on disk; it never reads outside that
 * folder and reads only regular files (a named pipe would never end).
 *
 * Recently read files are kept as text (least recently used dropped first, at most
 * CACHE_BYTES): concurrent comma lists read the same packs, and decoding them once per
 * request would cost more than answering it. An entry is reused only while the file has
 * the same device, inode, size and modification time, so a republished site is read anew.
 */
import path from 'node:path';
import fs from 'node:fs/promises';
import { constants, type Stats } from 'node:fs';
import { namesAFile, type ReadBytes, type ReadFile } from '../edge/site.ts';

/** Text kept for reuse, counted as UTF-16 (two bytes a character, V8's worst case). */
const CACHE_BYTES = 96 * 1024 * 1024;
/** Larger files are read but never kept. */
const MAX_CACHED_FILE = 16 * 1024 * 1024;

/** True when `rel` names a path inside the folder: relative, no dot or empty segments, no backslash or NUL. */
function isInsideRelative(rel: string): boolean {
  return rel !== '' && !/[\\\0]/.test(rel) && rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

interface Cached {
  identity: string;
  text: string;
}

/** A least-recently-used map of texts, bounded by their size. */
class TextCache {
  private entries = new Map<string, Cached>();
  private bytes = 0;

  get(key: string, identity: string): string | null {
    const entry = this.entries.get(key);
    if (entry?.identity !== identity) return null;
    this.entries.delete(key); // re-inserted: most recently used last
    this.entries.set(key, entry);
    return entry.text;
  }

  set(key: string, identity: string, text: string): void {
    const size = text.length * 2;
    if (size > MAX_CACHED_FILE) return;
    this.delete(key);
    this.entries.set(key, { identity, text });
    this.bytes += size;
    for (const [oldest] of this.entries) {
      if (this.bytes <= CACHE_BYTES) break;
      this.delete(oldest);
    }
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.text.length * 2;
    this.entries.delete(key);
  }
}

const ABSENT = new Set(['ENOENT', 'EISDIR', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG']);

/** Opens the regular file `rel` under `root` and hands it to `read`; null when there is none. */
async function withFile<T>(root: string, rel: string, read: (handle: fs.FileHandle, stat: Stats) => Promise<T>): Promise<T | null> {
  if (!isInsideRelative(rel) || !namesAFile(rel)) return null;
  const file = path.join(root, rel);
  if (!file.startsWith(root + path.sep)) return null;
  let handle: fs.FileHandle;
  try {
    // Non-blocking: opening a named pipe must not wait for a writer.
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return null; // a folder, pipe, socket or device is no published file
    return await read(handle, stat);
  } finally {
    await handle.close();
  }
}

/** Recently read texts; one cache may serve several readers (the versions of one site share unchanged files by inode). */
export const textCache = () => new TextCache();

export function diskReader(dir: string, cache = textCache()): ReadFile {
  const root = path.resolve(dir);
  return (rel) => withFile(root, rel, async (handle, stat) => {
    const identity = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    const cached = cache.get(rel, identity);
    if (cached !== null) return cached;
    const text = await handle.readFile('utf8');
    cache.set(rel, identity, text);
    return text;
  });
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
export function diskBytesReader(dir: string): ReadBytes {
  const root = path.resolve(dir);
  return (rel) => withFile(root, rel, async (handle) => {
    const bytes = await handle.readFile();
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength); // a view, not a copy
  });
}
