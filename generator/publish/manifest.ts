/**
 * The manifest of a published folder: the folder's inode, and for every file its content
 * hash and the stats it had when the build wrote or kept it. It is the builder's record
 * of its site: only a folder whose inode it names is ever replaced. While a file's size,
 * modification time and inode still match, its hash is trusted, so a rebuild knows which
 * files are unchanged without reading them back.
 */
import fs from 'node:fs';
import path from 'node:path';

const FORMAT = 2;

export interface FileStat {
  size: number;
  mtimeMs: number;
  ino: number;
}

export interface FileRecord extends FileStat {
  /** sha1 of the content, base64 (computed by stagingWorker.js). */
  hash: string;
}

export interface Manifest {
  format: typeof FORMAT;
  /** The inode of the published folder (kept by the renames that publish it). */
  folder: number;
  /** Input, generator and options the site was built from (see fingerprint.ts). */
  fingerprint: string;
  /** The report of the build that produced the site, replayed when nothing changed. */
  report: Record<string, unknown>;
  /** What the build's render callback keeps for the next build of this site (the changelog's records). */
  kept?: unknown;
  files: Record<string, FileRecord>;
}

export const sameStat = (a: FileStat, b: FileStat): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

/** The manifest when it describes the folder with inode `folder`, else null. */
export function readManifest(file: string, folder: number | undefined): Manifest | null {
  try {
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    const valid = manifest.format === FORMAT && manifest.files && typeof manifest.fingerprint === 'string';
    return valid && manifest.folder === folder ? manifest : null;
  } catch {
    return null;
  }
}

/** Written beside and renamed over the old one, so a killed build never leaves half a manifest. */
export function writeManifest(file: string, manifest: Omit<Manifest, 'format'>): void {
  const temp = `${file}.tmp`;
  fs.writeFileSync(temp, JSON.stringify({ format: FORMAT, ...manifest }));
  fs.renameSync(temp, file);
}

export interface FolderScan {
  /** Regular files by path relative to the folder, with '/' separators. */
  files: Map<string, FileStat>;
  /** Anything else found (symbolic links, sockets...): such a folder is never "intact". */
  others: number;
}

/** Every file under `dir` with its stats; an absent folder scans as empty. */
export function scanFolder(dir: string): FolderScan {
  const scan: FolderScan = { files: new Map(), others: 0 };
  if (!fs.existsSync(dir)) return scan;
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) {
        const { size, mtimeMs, ino } = fs.lstatSync(path.join(dir, child));
        scan.files.set(child, { size, mtimeMs, ino });
      } else scan.others++;
    }
  };
  walk('');
  return scan;
}

/** The folder holds exactly the manifest's files, none touched since they were published. */
export function isIntact(scan: FolderScan, manifest: Manifest): boolean {
  const recorded = Object.entries(manifest.files);
  if (scan.others || recorded.length !== scan.files.size) return false;
  return recorded.every(([rel, record]) => {
    const stat = scan.files.get(rel);
    return stat !== undefined && sameStat(stat, record);
  });
}
