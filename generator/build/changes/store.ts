/**
 * Snapshots kept with the site's build records (publish/layout.ts `snapshots`), one folder
 * per snapshot named by a hash of its content: writing one never touches another, so the
 * records of the published site stay valid until its manifest is replaced, and the
 * manifest (written atomically with the swap) names the folders of its own site.
 * A folder holds `version.json`, then one `<kind>.tsv` per published kind with one
 * `<id>\t<object JSON>` line per object (JSON.stringify escapes every tab and line break).
 * Both ways are streamed in chunks, line by line: no text ever holds a whole kind, so the
 * size of a snapshot is bounded by the disk, not by the longest string a runtime allows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { eachChunk, HashingWriter } from '../digest.ts';
import { PUBLISHED_KINDS } from './published.ts';
import type { Snapshot } from './snapshot.ts';

/**
 * Bumped when the snapshot's shape changes, or what the builder carries from the site it describes:
 * an older one is then not compared with, and the site is read back instead, its history packs
 * made again (3: charts' notes; 4: packs' sums, contract/packSum.ts).
 */
const FORMAT = 4;

/** A snapshot and the name of its folder (null until it is saved). */
export interface StoredSnapshot {
  snapshot: Snapshot;
  name: string | null;
}

const [TAB, NEWLINE] = [9, 10];
const NEWLINE_BYTES = Buffer.of(NEWLINE);

/** Calls `onLine` with each line of a file (its own copy), read CHUNK bytes at a time. */
function readLines(file: string, onLine: (line: Buffer) => void): void {
  let rest = Buffer.alloc(0);
  eachChunk(file, (chunk) => {
    const bytes = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let end; (end = bytes.indexOf(NEWLINE, start)) !== -1; start = end + 1) onLine(Buffer.from(bytes.subarray(start, end)));
    rest = Buffer.from(bytes.subarray(start));
  });
  if (rest.length) onLine(rest);
}

/** Writes the snapshot (unless its folder exists) and returns its name. */
function saveSnapshot(dir: string, stored: StoredSnapshot): string {
  if (stored.name) return stored.name;
  const { snapshot } = stored;
  const temp = path.join(dir, `.${process.pid}.tmp`);
  fs.rmSync(temp, { recursive: true, force: true });
  fs.mkdirSync(temp, { recursive: true });
  const hash = createHash('sha256');
  const header = JSON.stringify({ format: FORMAT, version: snapshot.version });
  hash.update(header);
  fs.writeFileSync(path.join(temp, 'version.json'), header);
  for (const kind of PUBLISHED_KINDS) {
    const writer = new HashingWriter(path.join(temp, `${kind}.tsv`), hash.update(`\n${kind}`));
    try {
      for (const [id, text] of snapshot.objects[kind]) {
        writer.write(Buffer.from(`${id}\t`));
        writer.write(text);
        writer.write(NEWLINE_BYTES);
      }
    } finally {
      writer.close();
    }
  }
  const name = hash.digest('hex').slice(0, 32);
  const folder = path.join(dir, name);
  if (fs.existsSync(folder)) fs.rmSync(temp, { recursive: true, force: true });
  else fs.renameSync(temp, folder);
  return name;
}

/** The snapshot named `name`, or null when its folder is gone, unreadable or of another format. */
function loadSnapshot(dir: string, name: string): StoredSnapshot | null {
  const folder = path.join(dir, path.basename(name));
  try {
    const { format, version } = JSON.parse(fs.readFileSync(path.join(folder, 'version.json'), 'utf8'));
    if (format !== FORMAT) return null;
    const objects = Object.fromEntries(PUBLISHED_KINDS.map((kind) => {
      const texts = new Map<string, Buffer>();
      readLines(path.join(folder, `${kind}.tsv`), (line) => {
        const tab = line.indexOf(TAB);
        texts.set(line.toString('utf8', 0, tab), line.subarray(tab + 1));
      });
      return [kind, texts];
    })) as Snapshot['objects'];
    return { snapshot: { version, objects }, name };
  } catch {
    return null;
  }
}

/** Deletes every snapshot but those named in `keep` (the published site's). */
function pruneSnapshots(dir: string, keep: (string | null | undefined)[]): void {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir)) {
    if (!keep.includes(entry)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  }
}

/** What the changes stage keeps with the site (in its manifest) for the next build: the names of its snapshots. */
export interface ChangeRecords {
  /** The site's snapshot. */
  snapshot: string;
  /** The snapshot its truth version's change list is computed from (null on a first build). */
  base: string | null;
}

/** A site's snapshots: its own, and the one its truth version's change list is computed from. */
export interface SiteSnapshots {
  current: StoredSnapshot;
  base: StoredSnapshot | null;
}

const isRecords = (value: unknown): value is ChangeRecords => {
  const records = value as ChangeRecords | null;
  return typeof records?.snapshot === 'string' && (records.base === null || typeof records.base === 'string');
};

/** The snapshots `records` name (what the published site's build left; anything else counts as none), null when they are gone. */
export function recordedSnapshots(dir: string, records: unknown): SiteSnapshots | null {
  if (!isRecords(records)) return null;
  const current = loadSnapshot(dir, records.snapshot);
  return current && { current, base: records.base === null ? null : loadSnapshot(dir, records.base) };
}

/**
 * Saves the new site's snapshots and returns the records naming them; every other snapshot
 * but those of the published site (`published`, its records) is deleted.
 */
export function keepSnapshots(dir: string, kept: SiteSnapshots, published: unknown): ChangeRecords {
  pruneSnapshots(dir, isRecords(published) ? [published.snapshot, published.base] : []);
  return { snapshot: saveSnapshot(dir, kept.current), base: kept.base && saveSnapshot(dir, kept.base) };
}
