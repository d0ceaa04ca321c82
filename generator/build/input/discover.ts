/** Finds a master database anywhere under an export folder, in any of the shapes people share. */
import path from 'node:path';
import type { InputFolder } from './inputFiles.ts';
import type { Findings } from '../report.ts';

/** Preferred first: the client's own file, then flat copies, then SQL dumps. */
const EXTENSIONS = ['.db_', '.db', '.sqlite', '.db.sql', '.sql'];

/** The databases the build reads, by their client names; every other file the client keeps is not used. */
export const DATABASES = ['unit', 'event_common', 'live'] as const;

/** The main export's folder and the English one's, relative to the input folder. */
export const EXPORTS = ['', 'en/'] as const;
export type ExportFolder = (typeof EXPORTS)[number];

/** Folders of an export (in any case) that never hold its own master databases. */
const NOT_DATABASES = new Set(['en', 'assets', 'translations', 'node_modules']);

/** Whether `rel` (relative to an export's folder) could be the database `name`: its file name in any case, not under NOT_DATABASES. */
function isCandidate(rel: string, name: string): boolean {
  const slash = rel.indexOf('/');
  if (slash >= 0 && NOT_DATABASES.has(rel.slice(0, slash).toLowerCase())) return false;
  const base = rel.slice(rel.lastIndexOf('/') + 1).toLowerCase();
  return EXTENSIONS.some((ext) => base === name + ext);
}

/** Every file of the export in `exportFolder` that could be the database `name`, relative to that folder, the one to read first. */
export function databaseCandidates(input: InputFolder, exportFolder: ExportFolder, name: string): string[] {
  const found = input.files((rel) => rel.startsWith(exportFolder) && isCandidate(rel.slice(exportFolder.length), name))
    .map((rel) => rel.slice(exportFolder.length));
  const rank = (file: string) => EXTENSIONS.findIndex((ext) => path.basename(file).toLowerCase() === name + ext);
  return found.sort((a, b) => rank(a) - rank(b) || a.split('/').length - b.split('/').length || a.localeCompare(b));
}

/** The file of the database `name` in the export in `exportFolder`, if it has one (the first candidate; a warning names the others). */
export function findDatabase(input: InputFolder, exportFolder: ExportFolder, name: string, findings: Findings): string | undefined {
  const found = databaseCandidates(input, exportFolder, name);
  const root = path.join(input.root, exportFolder);
  if (found.length > 1) findings.warn(`several ${name} databases under ${root}; using ${found[0]} (ignoring ${found.slice(1).join(', ')})`);
  return found.length ? path.join(root, found[0]) : undefined;
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
