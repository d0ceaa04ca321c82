/** Edits of a copied sample export, and snapshots of published folders, for the publishing tests. */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fs from 'fs-extra';
import type Database from 'better-sqlite3';
import { sha256 } from '../generator/build/digest.ts';
import { loadSqlDump } from '../generator/build/input/sqlDump.ts';
import { dumpSql, type Row, type TableDump } from '../generator/build/sample/sql.ts';
import { endpoints } from '../generator/contract/endpoints.ts';
import type { FileManifestJson } from '../generator/contract/schemas.ts';
import { blockSums } from '../generator/build/blockSums.ts';
import { MANIFEST_BLOCK_SIZE } from '../generator/contract/format.ts';

/** Every table of a database with its declared column types and its rows. */
function tablesOf(db: Database.Database): TableDump[] {
  const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid").pluck().all() as string[];
  return names.map((name) => {
    const info = db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string; type: string }[];
    return { name, columns: Object.fromEntries(info.map((c) => [c.name, c.type])), rows: db.prepare(`SELECT * FROM "${name}"`).safeIntegers().all() as Row[] };
  });
}

/** Runs SQL (UPDATE, DELETE, DROP...) on a database dump of the export and writes the dump back. */
export async function editDump(input: string, dump: string, sql: string): Promise<void> {
  const file = path.join(input, dump);
  const db = loadSqlDump(file);
  db.exec(sql);
  const text = dumpSql(tablesOf(db));
  db.close();
  await fs.writeFile(file, text);
}

/** Turns the dump `<name>.sql` into the client's SQLite file `db/<group>/<name>.db_`; returns its path. */
export async function dumpToClientDb(input: string, name: string, group = name): Promise<string> {
  const dump = path.join(input, `${name}.sql`);
  const file = path.join(input, 'db', group, `${name}.db_`);
  await fs.ensureDir(path.dirname(file));
  loadSqlDump(dump, file).close();
  await fs.remove(dump);
  return file;
}

export interface FileState {
  sha256: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * Every file under dir (relative path -> content hash and stats), plus every folder. Read with
 * blocking calls: a site is hundreds of small files, where a promise per call costs more than the call.
 */
export async function snapshot(dir: string): Promise<{ files: Map<string, FileState>; folders: string[] }> {
  const files = new Map<string, FileState>();
  const folders: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        folders.push(child);
        walk(child);
      } else {
        const full = path.join(dir, child);
        const { size, mtimeMs, ino } = lstatSync(full);
        files.set(child, { sha256: sha256(readFileSync(full)), size, mtimeMs, ino });
      }
    }
  };
  walk('');
  return { files, folders };
}

/** Paths whose content differs between two snapshots, or that only one of them has. */
export function contentDiff(a: Map<string, FileState>, b: Map<string, FileState>): string[] {
  const all = new Set([...a.keys(), ...b.keys()]);
  return [...all].filter((rel) => a.get(rel)?.sha256 !== b.get(rel)?.sha256).sort();
}

/**
 * Paths without what depends on the site built before: a site built over another says what
 * changed since it (the change lists, the version list and histories, bulk/index.json's
 * updated_in, and the manifest listing their hashes), a fresh build of the same input does not.
 */
export const withoutChangelog = (paths: string[]): string[] =>
  paths.filter((rel) => !/^api\/v1\/(changes[./]|versions\.json$|history\/|bulk\/index\.json$|manifest(\.blocks)?\.json$)/.test(rel));

/** Paths present in both snapshots whose file was replaced or touched (inode or mtime differ). */
export function rewritten(before: Map<string, FileState>, after: Map<string, FileState>): string[] {
  return [...after].filter(([rel, s]) => {
    const old = before.get(rel);
    return !old || old.ino !== s.ino || old.mtimeMs !== s.mtimeMs;
  }).map(([rel]) => rel).sort();
}

/** Writes a published site's file manifest, and manifest.blocks.json to match, as a build writes them. */
export async function writeManifest(site: string, manifest: FileManifestJson): Promise<void> {
  const bytes = Buffer.from(JSON.stringify(manifest));
  await fs.writeFile(path.join(site, endpoints.fileManifest.file()), bytes);
  const blocks = { sha256: sha256(bytes), bytes: bytes.length, block_size: MANIFEST_BLOCK_SIZE, blocks: blockSums(bytes, MANIFEST_BLOCK_SIZE) };
  await fs.writeJson(path.join(site, endpoints.manifestBlocks.file()), blocks);
}
