import fs from 'node:fs';
import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take longest (builds, child processes, a browser): started first, so no long file
 * starts last and leaves a CPU idle at the end. vitest orders by its cached durations when it has
 * them; a fresh clone has none, so this order holds in any case.
 */
const LONG_FILES = ['publish', 'routes', 'contract', 'changes', 'page', 'mirror', 'outFolder'].map((name) => `/test/${name}.test.ts`);

/**
 * The suite's temporary folders (sites, exports, wrangler state) on a memory filesystem when the
 * machine has one and TMPDIR does not choose another: the tests create and remove tens of
 * thousands of small files, which on a disk mounted with online discard cost more system time
 * than the tests themselves. Set here, in the main process, so workers and every child process
 * they start inherit it.
 */
const MEMORY_TMP = '/dev/shm';
if (!process.env.TMPDIR && isWritableFolder(MEMORY_TMP)) process.env.TMPDIR = MEMORY_TMP;

function isWritableFolder(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

class LongFilesFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONG_FILES.findIndex((suffix) => file.moduleId.endsWith(suffix));
      return at === -1 ? LONG_FILES.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The unit tier (`npm run test:unit`, under 10 s on two CPUs: the edit loop): files that render
 * in memory, read the shared sample build or build small exports of their own, and start no
 * process, browser or host runtime. `npm test` (CI) runs every file, these included.
 */
const UNIT_FILES = [
  'accessories', 'cards', 'checked', 'edge', 'events', 'fuzz', 'generations', 'hostFit', 'objects', 'pairs',
  'imports', 'removableSkills', 'search', 'sets', 'songs', 'sqlDump', 'changesInMemory', 'versionsInMemory', 'bulkInMemory',
].map((name) => `test/${name}.test.ts`);
const UNIT_TIER = process.env.TEST_TIER === 'unit';

/** Test files run at once: one per CPU. */
const WORKERS = os.availableParallelism();

export default defineConfig({
  test: {
    include: UNIT_TIER ? UNIT_FILES : ['test/**/*.test.ts'],
    // Builds the sample once for all files; removes each file's temporary folders after it.
    globalSetup: ['test/globalSetup.ts'],
    setupFiles: ['test/setup.ts'],
    // One file per CPU (vitest's default leaves one idle): the files wait on disks, child processes
    // and browsers much of the time, so on two CPUs this takes about a third off the run.
    maxWorkers: WORKERS,
    // As many kept as started: tinypool ends workers idle beyond minWorkers, and ending a worker of
    // this pool (isolate: false) failed the run with "Terminating worker thread" after every test
    // passed (on three CPUs or more, or under load). Fewer workers: --maxWorkers=N --minWorkers=N.
    minWorkers: WORKERS,
    // Worker processes that keep the modules they loaded from one file to the next: each file
    // no longer loads the generator anew (test/setup.ts resets what a file sets globally).
    // Processes, not threads: as fast here, and a thread pool once ended a run with
    // "Terminating worker thread" after a failed test.
    pool: 'forks',
    isolate: false,
    sequence: { sequencer: LongFilesFirst },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
