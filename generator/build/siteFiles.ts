/**
 * The site's files as the stages add them (render, changes, derive, the previous site's carried
 * files, the hosts' rules) and the build's staging takes them: the interfaces every stage writes
 * through, below all of them (render/files.ts serializes responses into them).
 */
import fs from 'node:fs';
import type { FileDigest } from './digest.ts';

/** What a maker that gives a file's bytes up tells of them (SiteFiles.set). */
export interface GivenBytes {
  sha256: string;
}

/**
 * The site being made, as every stage sees it: files added by path relative to the output
 * folder, each once. A plain Map<string, Buffer> is one (tests render into one); the build
 * passes publish/staging.ts's, which writes each file as it is added and keeps no bytes.
 */
export interface SiteFiles {
  /**
   * Adds a file. `given`: its maker gives the bytes up (neither reads nor changes them again) and
   * tells their SHA-256, so the build's staging may move their memory to a writer thread instead of
   * copying it and need not hash them again (a bulk part, up to tens of MiB); a Map keeps them.
   */
  set(rel: string, bytes: Buffer, given?: GivenBytes): unknown;
  has(rel: string): boolean;
  keys(): Iterable<string>;
}

/** Site files that also take files from disk: the previous site's histories. */
export interface MovableFiles extends SiteFiles {
  /** Adds the file at `file` as it is (left in place): a published file carried on unread where its recorded hash can be trusted. */
  carry(rel: string, file: string): void;
}

/** Site files that tell the digest taken of each file added (the build's: what the file manifest lists). */
export interface DigestedFiles extends MovableFiles {
  /** A file's digest, once settled() has settled after it was added (its bytes are hashed beside the main thread). */
  digest(rel: string): FileDigest;
  /** Settles once every file added so far has its digest. */
  settled(): Promise<void>;
}

/** Site files held in memory (renders for tests and benchmarks): a carried file is read in. */
export class MemoryFiles extends Map<string, Buffer> implements MovableFiles {
  carry(rel: string, file: string): void {
    this.set(rel, fs.readFileSync(file));
  }
}
