/** Finds a master database anywhere under an export folder, in any of the shapes people share. */
import path from 'node:path';
import type { InputFolder } from './inputFiles.ts';
import type { Findings } from '../findings.ts';
import { DATABASES, type DatabaseName } from '../../contract/kinds.ts';

/** Preferred first: the client's own file, then flat copies, then SQL dumps. */
const EXTENSIONS = ['.db_', '.db', '.sqlite', '.db.sql', '.sql'];

// The databases the build reads, by their client names (contract/kinds.ts: those its kinds come
// from); every other file the client keeps is not used.

/** The main export's folder and the English one's, relative to the input folder. */
const EXPORTS = ['', 'en/'] as const;
export type ExportFolder = (typeof EXPORTS)[number];

/** Folders of an export (in any case) that never hold its own master databases. */
const NOT_DATABASES = new Set(['en', 'assets', 'translations', 'node_modules']);

export type { DatabaseName };

/** The database `rel` (relative to an export's folder) could be, by its file name in any case, unless it is under NOT_DATABASES. */
function candidateFor(rel: string): DatabaseName | undefined {
  const slash = rel.indexOf('/');
  if (slash >= 0 && NOT_DATABASES.has(rel.slice(0, slash).toLowerCase())) return undefined;
  const base = rel.slice(rel.lastIndexOf('/') + 1).toLowerCase();
  return DATABASES.find((name) => EXTENSIONS.some((ext) => base === name + ext));
}

/**
 * Every file of each export that could be one of its databases: by export folder, then by
 * database name, relative to the export's folder, the one to read first. Taken from the input
 * in one pass, for the read (findDatabase) and for the files left unread alike.
 */
export type DatabaseCandidates = ReadonlyMap<ExportFolder, ReadonlyMap<DatabaseName, readonly string[]>>;

export function databaseCandidates(input: InputFolder): DatabaseCandidates {
  const found = new Map(EXPORTS.map((folder) => [folder, new Map(DATABASES.map((name) => [name, [] as string[]]))]));
  const exportsOf = (rel: string) => EXPORTS.filter((folder) => rel.startsWith(folder) && candidateFor(rel.slice(folder.length)));
  for (const rel of input.files((rel) => exportsOf(rel).length > 0)) {
    for (const folder of exportsOf(rel)) found.get(folder)!.get(candidateFor(rel.slice(folder.length))!)!.push(rel.slice(folder.length));
  }
  for (const byName of found.values()) {
    for (const [name, files] of byName) {
      const rank = (file: string) => EXTENSIONS.findIndex((ext) => path.basename(file).toLowerCase() === name + ext);
      files.sort((a, b) => rank(a) - rank(b) || a.split('/').length - b.split('/').length || a.localeCompare(b));
    }
  }
  return found;
}

/** Every candidate of `candidates`, relative to the input folder. */
export const allCandidates = (candidates: DatabaseCandidates): string[] =>
  [...candidates].flatMap(([folder, byName]) => [...byName.values()].flat().map((rel) => folder + rel));

/** The file of the database `name` in the export in `exportFolder` under `root`, if it has one (the first candidate; a warning names the others). */
export function findDatabase(candidates: DatabaseCandidates, root: string, exportFolder: ExportFolder, name: DatabaseName, findings: Findings): string | undefined {
  const found = candidates.get(exportFolder)!.get(name)!;
  const folder = path.join(root, exportFolder);
  if (found.length > 1) findings.warn(`several ${name} databases under ${folder}; using ${found[0]} (ignoring ${found.slice(1).join(', ')})`);
  return found.length ? path.join(folder, found[0]) : undefined;
}

/** The extensions of a database file, a client's or a copy (for files the build does not read). */
export const DATABASE_EXTENSION = /\.(db_?|sqlite3?|sql)$/i;

/** The database a file's name suggests it holds (`data_db_event_event_common_2017-01-05.db_` -> event_common), if any. */
export function lookalikeDatabase(file: string): string | undefined {
  const base = path.basename(file).toLowerCase();
  const databaseLike = DATABASE_EXTENSION.test(base) || !base.includes('.');
  // The longest name found: event_common_unit.db is event_common's.
  return databaseLike ? [...DATABASES].sort((a, b) => b.length - a.length).find((name) => base.includes(name)) : undefined;
}
