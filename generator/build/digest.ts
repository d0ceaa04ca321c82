/** SHA-256 digests of published files (hex, as api/v1/manifest.json lists them), of bytes or of a file written in parts. */
import fs from 'node:fs';
import { createHash, hash, type Hash } from 'node:crypto';

/** A file's SHA-256 (hex) and size, and for a large file its block sums (blockSums.ts). */
export interface FileDigest {
  sha256: string;
  bytes: number;
  blocks?: string;
}

export const sha256 = (bytes: Uint8Array): string => hash('sha256', bytes, 'hex');

/** Parts go out this many bytes at a time: few writes, little held. */
export const CHUNK = 1024 * 1024;

/**
 * A file written part by part, each part also fed to `hash` (which may span several files, as a
 * snapshot's name does), so no part is held longer than a chunk.
 */
export class HashingWriter {
  private readonly fd: number;
  private parts: Uint8Array[] = [];
  private held = 0;
  private written = 0;

  constructor(file: string, private readonly hash: Hash) {
    this.fd = fs.openSync(file, 'w');
  }

  write(part: Uint8Array): void {
    this.parts.push(part);
    this.held += part.length;
    if (this.held >= CHUNK) this.flush();
  }

  private flush(): void {
    const chunk = Buffer.concat(this.parts, this.held);
    this.hash.update(chunk);
    for (let offset = 0; offset < chunk.length; ) offset += fs.writeSync(this.fd, chunk, offset);
    this.written += chunk.length;
    [this.parts, this.held] = [[], 0];
  }

  /** Writes what is left and closes the file; returns its size. */
  close(): number {
    try {
      this.flush();
    } finally {
      fs.closeSync(this.fd);
    }
    return this.written;
  }
}

/** Writes `file` with the parts `fill` gives, and returns its digest. */
export function writeDigested(file: string, fill: (write: (part: Uint8Array) => void) => void): FileDigest {
  const hash = createHash('sha256');
  const writer = new HashingWriter(file, hash);
  let bytes: number;
  try {
    fill((part) => writer.write(part));
  } finally {
    bytes = writer.close();
  }
  return { sha256: hash.digest('hex'), bytes };
}

/**
 * Calls `take` with the bytes of the file at `file`, CHUNK at a time: every chunk full but the
 * last (so a whole number of blocks, blockSums.ts). The buffer is reused: `take` copies what it keeps.
 */
export function eachChunk(file: string, take: (chunk: Buffer) => void): void {
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    for (let filled = -1; filled !== 0; ) {
      filled = 0;
      for (let read = 1; read > 0 && filled < CHUNK; filled += read) read = fs.readSync(fd, chunk, filled, CHUNK - filled, null);
      if (filled) take(chunk.subarray(0, filled));
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** The digest of the file at `file`, read a chunk at a time. */
export function digestFile(file: string): FileDigest {
  const hash = createHash('sha256');
  let bytes = 0;
  eachChunk(file, (chunk) => {
    hash.update(chunk);
    bytes += chunk.length;
  });
  return { sha256: hash.digest('hex'), bytes };
}
