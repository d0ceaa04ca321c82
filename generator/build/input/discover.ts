/** Finds a master database anywhere under an export folder, in any of the shapes people share. */
import fs from 'node:fs';
import path from 'node:path';
import { listInputFiles } from './inputFiles.ts';
import type { Findings } from '../report.ts';

/** Preferred first: the client's own file, then flat copies, then SQL dumps. */
const EXTENSIONS = ['.db_', '.db', '.sqlite', '.db.sql', '.sql'];

/** The databases the build reads, by their client names; every other file the client keeps is not used. */
export const DATABASES = ['unit', 'event_common', 'live'] as const;

/** Folders of an export that never hold its own master databases. */
const NOT_DATABASES = ['en/**', 'assets/**', 'translations/**', 'node_modules/**'];

/** Every file under `root` (none when it does not exist) that could be the database `name`, relative paths, the one to read first. */
export function databaseCandidates(root: string, name: string): string[] {
  if (!fs.existsSync(root)) return [];
  const patterns = EXTENSIONS.map((ext) => `**/${name}${ext}`);
  const found = listInputFiles(root, patterns, { ignore: NOT_DATABASES, caseSensitiveMatch: false });
  const rank = (file: string) => EXTENSIONS.findIndex((ext) => path.basename(file).toLowerCase() === name + ext);
  return found.sort((a, b) => rank(a) - rank(b) || a.split('/').length - b.split('/').length || a.localeCompare(b));
}

export function findDatabase(root: string, name: string, findings: Findings): string | undefined {
  const found = databaseCandidates(root, name);
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
