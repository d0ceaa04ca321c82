/**
 * Snapshots kept with the site's build records (publish/layout.ts `snapshots`), one file
 * per snapshot named by a hash of its content: writing one never touches another, so the
 * records of the published site stay valid until its manifest is replaced, and the
 * manifest (written atomically with the swap) names the files of its own site.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Snapshot } from './snapshot.ts';

/** Bumped when the snapshot's shape changes: an older file is then not compared with. */
const FORMAT = 1;

/** A snapshot and the name of its file (null until it is saved). */
export interface StoredSnapshot {
  snapshot: Snapshot;
  name: string | null;
}

/** Writes the snapshot (unless its file exists) and returns its name. */
export function saveSnapshot(dir: string, stored: StoredSnapshot): string {
  if (stored.name) return stored.name;
  const bytes = JSON.stringify({ format: FORMAT, ...stored.snapshot });
  const name = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  const file = path.join(dir, `${name}.json`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(`${file}.tmp`, bytes);
    fs.renameSync(`${file}.tmp`, file);
  }
  return name;
}

/** The snapshot named `name`, or null when its file is gone, unreadable or of another format. */
export function loadSnapshot(dir: string, name: string): StoredSnapshot | null {
  try {
    const { format, ...snapshot } = JSON.parse(fs.readFileSync(path.join(dir, `${path.basename(name)}.json`), 'utf8'));
    return format === FORMAT ? { snapshot: snapshot as Snapshot, name } : null;
  } catch {
    return null;
  }
}

/** Deletes every snapshot file but those named in `keep` (the published site's). */
export function pruneSnapshots(dir: string, keep: (string | null | undefined)[]): void {
  if (!fs.existsSync(dir)) return;
  for (const file of fs.readdirSync(dir)) {
    if (!keep.some((name) => name && file === `${name}.json`)) fs.rmSync(path.join(dir, file), { force: true });
  }
}
