/** Temporary folders for tests, removed once the test file that made them is done (test/setup.ts). */
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fs from 'fs-extra';

const made: string[] = [];

export async function tempDir(prefix = 'sif-test-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Blocking: thousands of small files, where a promise per file costs about three times the CPU. */
export async function removeTempDirs(): Promise<void> {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
