/**
 * One build at a time per output folder: two builds sharing a staging folder could
 * publish half a site. The lock file holds the builder's pid; a lock left by a build
 * that was killed (its process is gone) is taken over.
 */
import fs from 'node:fs';
import { InputError } from '../report.ts';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock and returns its release. */
export function acquireLock(file: string, out: string): () => void {
  try {
    fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    if (Number.isInteger(holder) && isRunning(holder)) {
      throw new InputError(`another build (pid ${holder}) is publishing ${out}; if it is gone, delete ${file}`);
    }
    fs.writeFileSync(file, String(process.pid));
  }
  return () => fs.rmSync(file, { force: true });
}
