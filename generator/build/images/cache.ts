/**
 * Encoded pictures kept between builds, outside the published folder. Entries are
 * content-addressed: the key hashes the source bytes with the encoder settings and
 * versions, so a source that has not changed is never encoded again.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs/promises';
import { IMAGE_FORMATS } from '../../contract/format.ts';
import type { Encoded } from './encode.ts';

export class ImageCache {
  private readonly used = new Set<string>();

  constructor(readonly dir: string, private readonly fingerprint: string) {}

  key(source: Buffer): string {
    return crypto.createHash('sha256').update(this.fingerprint).update('\0').update(source).digest('hex');
  }

  private file(key: string, format: string): string {
    return path.join(this.dir, `${key}.${format}`);
  }

  async get(key: string): Promise<Encoded | null> {
    try {
      const [png, webp] = await Promise.all(IMAGE_FORMATS.map((f) => fs.readFile(this.file(key, f))));
      this.used.add(key);
      return { png, webp };
    } catch {
      return null;
    }
  }

  async put(key: string, encoded: Encoded): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    for (const format of IMAGE_FORMATS) {
      // Write then rename, so an interrupted build never leaves a truncated entry.
      const temp = `${this.file(key, format)}.${process.pid}.${crypto.randomUUID()}.tmp`;
      await fs.writeFile(temp, encoded[format]);
      await fs.rename(temp, this.file(key, format));
    }
    this.used.add(key);
  }

  /** Drops entries this build did not use, so the cache holds only what the current input needs. */
  async prune(): Promise<void> {
    const names = await fs.readdir(this.dir).catch(() => []);
    for (const name of names) {
      if (!this.used.has(name.split('.')[0])) await fs.rm(path.join(this.dir, name), { force: true });
    }
  }
}
