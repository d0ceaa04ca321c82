/**
 * The site a build follows, an input of the build like the export: the output folder's
 * published site, or the one --since names. It is opened once (build.ts) and handed to every
 * stage that reads it (the read stage's truth version check, changes, history, bulk), which
 * read it as the edge reads the site it serves (contract/siteRead.ts). A folder is read by the
 * input folder's rules: regular files only, each up to a size limit (a named pipe in a --since
 * folder would hang the build holding its lock, a device such as /dev/zero would never end).
 * Tests follow a site rendered in memory through the same interface (memorySite).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ReadBytes, ReadFile } from '../../contract/siteRead.ts';
import type { MovableFiles } from '../siteFiles.ts';
import { readRegularBytes } from './inputFiles.ts';
import { MAX_INPUT_FILE_BYTES } from './limits.ts';

export interface PreviousSite {
  /** Names the site in messages: `--since <dir>`, or the output folder. */
  readonly label: string;
  /**
   * Named by --since: it must be a site this builder published, or the build fails. The output
   * folder may hold none yet (a first build), or one that cannot be compared with.
   */
  readonly named: boolean;
  readonly read: ReadFile;
  readonly readBytes: ReadBytes;
  /** The names of the entries in a folder of the site (a path relative to its root); none when it has no such folder. */
  list(folder: string): Promise<string[]>;
  /** Where the site's file `rel` is, for messages: its path on disk. */
  where(rel: string): string;
  /** Adds the site's file `rel` to `files` as it is: from a folder, unread where the build's record of it can be trusted. */
  carry(rel: string, files: MovableFiles): Promise<void>;
}

/** The largest file read back from a site (its largest JSON files, packs and lists, are megabytes). */
const MAX_SITE_FILE_BYTES = MAX_INPUT_FILE_BYTES;

/** Errors that mean nothing is at a path: an absent file, or a file where a folder would be. */
const isAbsence = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** The published site in the folder `dir`; `label` names it in messages. */
function folderSite(dir: string, label: string, named: boolean): PreviousSite {
  const where = (rel: string) => path.join(dir, rel);
  // Whether each folder asked for is there, looked up once: a first build asks the site it
  // follows (none yet) for the history of every object, and a failed open costs an exception each.
  const folders = new Map<string, boolean>();
  const hasFolder = (folder: string): boolean => {
    let found = folders.get(folder);
    if (found === undefined) folders.set(folder, (found = fs.statSync(where(folder), { throwIfNoEntry: false })?.isDirectory() ?? false));
    return found;
  };
  const bytes = async (rel: string): Promise<Buffer<ArrayBuffer> | null> => {
    if (!hasFolder(path.posix.dirname(rel))) return null;
    try {
      return readRegularBytes(where(rel), MAX_SITE_FILE_BYTES, 'a previous site');
    } catch (error) {
      if (isAbsence(error)) return null;
      throw error;
    }
  };
  return {
    label,
    named,
    read: async (rel) => (await bytes(rel))?.toString('utf8') ?? null,
    readBytes: bytes,
    list: async (folder) => (fs.existsSync(where(folder)) ? fs.readdirSync(where(folder)) : []),
    where,
    carry: async (rel, files) => files.carry(rel, where(rel)),
  };
}

/** The site a build into `out` follows: the folder `since` names, else `out`'s own published site. */
export function previousSite(out: string, since: string | undefined): PreviousSite {
  return since === undefined ? folderSite(out, out, false) : folderSite(path.resolve(since), `--since ${since}`, true);
}

/** A site held in memory (a render's files, by path): what tests follow instead of a folder. */
export function memorySite(files: ReadonlyMap<string, Buffer>, { label = 'the previous site', named = false } = {}): PreviousSite {
  return {
    label,
    named,
    read: async (rel) => files.get(rel)?.toString('utf8') ?? null,
    readBytes: async (rel) => {
      const found = files.get(rel);
      return found ? new Uint8Array(found) : null; // a copy: the reader's bytes are its own
    },
    list: async (folder) => [...files.keys()].filter((rel) => path.posix.dirname(rel) === folder).map((rel) => path.posix.basename(rel)),
    where: (rel) => rel,
    carry: async (rel, into) => {
      const found = files.get(rel);
      if (!found) throw new Error(`${rel}: not in ${label}`);
      into.set(rel, found);
    },
  };
}
