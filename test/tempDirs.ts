/** Temporary folders for tests, removed once the test file that made them is done (test/setup.ts). */
import os from 'node:os';
import path from 'node:path';
import fs from 'fs-extra';

const made: string[] = [];

export async function tempDir(prefix = 'sif-test-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => fs.remove(dir)));
}
