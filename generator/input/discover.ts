/** Finds a master database anywhere under an export folder, in any of the shapes people share. */
import path from 'node:path';
import { listInputFiles } from './inputFiles.ts';
import type { BuildReport } from '../report.ts';

/** Preferred first: the client's own file, then flat copies, then SQL dumps. */
const EXTENSIONS = ['.db_', '.db', '.sqlite', '.db.sql', '.sql'];

/** Folders of an export that never hold its own master databases. */
const NOT_DATABASES = ['en/**', 'assets/**', 'translations/**', 'node_modules/**'];

export function findDatabase(root: string, name: string, report: BuildReport): string | undefined {
  const patterns = EXTENSIONS.map((ext) => `**/${name}${ext}`);
  const found = listInputFiles(root, patterns, { ignore: NOT_DATABASES, caseSensitiveMatch: false });
  const rank = (file: string) => EXTENSIONS.findIndex((ext) => path.basename(file).toLowerCase() === name + ext);
  found.sort((a, b) => rank(a) - rank(b) || a.split('/').length - b.split('/').length || a.localeCompare(b));
  if (found.length > 1) report.warn(`several ${name} databases under ${root}; using ${found[0]} (ignoring ${found.slice(1).join(', ')})`);
  return found.length ? path.join(root, found[0]) : undefined;
}
