/**
 * Snapshots kept with the site's build records (publish/layout.ts `snapshots`), one file
 * per snapshot named by a hash of its content: writing one never touches another, so the
 * records of the published site stay valid until its manifest is replaced, and the
 * manifest (written atomically with the swap) names the files of its own site.
 * A file is a JSON header line, then one `<type>\t<id>\t<object JSON>` line per object
 * (JSON.stringify escapes every tab and line break), read back without parsing the objects.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { CHANGE_TYPES } from '../contract/schemas.ts';
import type { ChangeType, Snapshot } from './snapshot.ts';

/** Bumped when the snapshot's shape changes: an older file is then not compared with. */
const FORMAT = 1;

/** A snapshot and the name of its file (null until it is saved). */
export interface StoredSnapshot {
  snapshot: Snapshot;
  name: string | null;
}

function serialize(snapshot: Snapshot): string {
  const lines = [JSON.stringify({ format: FORMAT, version: snapshot.version })];
  for (const type of CHANGE_TYPES) for (const [id, text] of snapshot.objects[type]) lines.push(`${type}\t${id}\t${text}`);
  return lines.join('\n');
}

function parse(text: string): Snapshot | null {
  const [header, ...lines] = text.split('\n');
  const { format, version } = JSON.parse(header);
  if (format !== FORMAT) return null;
  const objects = Object.fromEntries(CHANGE_TYPES.map((type) => [type, new Map<string, string>()])) as Snapshot['objects'];
  for (const line of lines) {
    const [typeEnd, idEnd] = [line.indexOf('\t'), line.indexOf('\t', line.indexOf('\t') + 1)];
    objects[line.slice(0, typeEnd) as ChangeType].set(line.slice(typeEnd + 1, idEnd), line.slice(idEnd + 1));
  }
  return { version, objects };
}

/** Writes the snapshot (unless its file exists) and returns its name. */
export function saveSnapshot(dir: string, stored: StoredSnapshot): string {
  if (stored.name) return stored.name;
  const text = serialize(stored.snapshot);
  const name = createHash('sha256').update(text).digest('hex').slice(0, 32);
  const file = path.join(dir, `${name}.snapshot`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(`${file}.tmp`, text);
    fs.renameSync(`${file}.tmp`, file);
  }
  return name;
}

/** The snapshot named `name`, or null when its file is gone, unreadable or of another format. */
export function loadSnapshot(dir: string, name: string): StoredSnapshot | null {
  try {
    const snapshot = parse(fs.readFileSync(path.join(dir, `${path.basename(name)}.snapshot`), 'utf8'));
    return snapshot && { snapshot, name };
  } catch {
    return null;
  }
}

/** Deletes every snapshot file but those named in `keep` (the published site's). */
export function pruneSnapshots(dir: string, keep: (string | null | undefined)[]): void {
  if (!fs.existsSync(dir)) return;
  for (const file of fs.readdirSync(dir)) {
    if (!keep.some((name) => name && file === `${name}.snapshot`)) fs.rmSync(path.join(dir, file), { force: true });
  }
}
