/**
 * One build at a time per output folder: two builds sharing a staging folder could
 * publish half a site. The lock is SQLite's exclusive lock on a small file: the kernel
 * grants it to one process at a time (SQLite also tells connections of one process
 * apart) and drops it the moment its holder exits, however it dies, so there is no
 * stale lock to detect or take over. The file itself is never deleted: a build that
 * opened it just before the deletion would hold a lock on a file nobody else sees.
 */
import Database from 'better-sqlite3';
import { UserError } from '../errors.ts';

/** Takes the lock, or fails at once when another build holds it; returns its release. */
export function acquireLock(file: string, out: string): () => void {
  const db = new Database(file, { timeout: 0 });
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new UserError(`another build is publishing ${out} (it holds ${file}); try again when it is done`);
  }
  return () => db.close();
}
