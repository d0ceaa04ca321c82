import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds the sample once for all files; removes each file's temporary folders after it.
    globalSetup: ['test/globalSetup.ts'],
    setupFiles: ['test/setup.ts'],
    // One file per CPU (vitest's default leaves one idle): the files wait on disks, child processes
    // and browsers much of the time, so on two CPUs this takes about a third off the run.
    maxWorkers: os.availableParallelism(),
    minWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
