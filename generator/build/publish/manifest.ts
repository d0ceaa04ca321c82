/**
 * The manifest of a published folder: the folder's inode, and for every file its content
 * hash and the stats it had when the build wrote or kept it. It is the builder's record
 * of its site: only a folder whose inode it names is ever replaced. While a file's size,
 * modification time and inode still match, its hash is trusted, so a rebuild knows which
 * files are unchanged without reading them back.
 */
import fs from 'node:fs';
import fg from 'fast-glob';

const FORMAT = 2;

export interface FileStat {
  size: number;
  mtimeMs: number;
  ino: number;
}

export interface FileRecord extends FileStat {
  /** SHA-256 of the content, hex (computed by staging.ts). */
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
  /** What the changes stage keeps for the next build of this site (its change records). */
  changeRecords?: unknown;
  files: Record<string, FileRecord>;
}

export const sameStat = (a: FileStat, b: FileStat): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

/**
 * Sites published before the manifest named its folder (format 1) are taken over when
 * every file that manifest records is still in `dir` with its recorded inode: only this
 * builder wrote those inodes there.
 */
function upgradeFormat1(manifest: Omit<Manifest, 'format' | 'folder'>, dir: string, folder: number): Manifest | null {
  const records = Object.entries(manifest.files);
  const ours = records.length > 0 && records.every(([rel, record]) => {
    try {
      return fs.lstatSync(`${dir}/${rel}`).ino === record.ino;
    } catch {
      return false;
    }
  });
  return ours ? { ...manifest, format: FORMAT, folder } : null;
}

/** The manifest when it describes the folder at `dir` (by inode), else null. */
export function readManifest(file: string, dir: string): Manifest | null {
  try {
    const folder = fs.statSync(dir).ino;
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest | (Omit<Manifest, 'format'> & { format: 1 });
    if (!manifest.files || typeof manifest.fingerprint !== 'string') return null;
    if (manifest.format === 1) return upgradeFormat1(manifest, dir, folder);
    return manifest.format === FORMAT && manifest.folder === folder ? manifest : null;
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
  // Links are listed, never followed (lstat), as input/inputFiles.ts lists the input.
  for (const entry of fg.sync('**', { cwd: dir, dot: true, onlyFiles: false, followSymbolicLinks: false, stats: true })) {
    const { size, mtimeMs, ino } = entry.stats!;
    if (entry.stats!.isFile()) scan.files.set(entry.path, { size, mtimeMs, ino });
    else if (!entry.stats!.isDirectory()) scan.others++;
  }
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
