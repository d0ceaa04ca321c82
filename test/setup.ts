/**
 * Runs in every test file before its own code: builds (and the CLIs they start) share the run's
 * picture cache, so a picture is encoded once per run. Files share their worker's modules
 * (isolate: false in vitest.config.ts), so what a file sets globally is undone once it is done:
 * fast-check's global configuration (its seed), spies (vi.spyOn: a file whose assertion failed
 * before its own mockRestore would leave one), and the temporary folders it made. What modules
 * themselves keep from one file to the next is listed in docs/architecture.md (Tests).
 */
import fc from 'fast-check';
import { afterAll, expect, inject, vi } from 'vitest';
import { removeTempDirs } from './tempDirs.ts';

process.env.SIF_IMAGE_CACHE = inject('imageCache');

/**
 * Buffers compare by their bytes at once: vitest's own equality walks them index by index, about
 * a second for 300 KB. Registered once per worker (this file runs again for each test file).
 */
const BUFFER_EQUALITY = Symbol.for('sif.bufferEquality');
const registry = globalThis as { [BUFFER_EQUALITY]?: true };
if (!registry[BUFFER_EQUALITY]) {
  expect.addEqualityTesters([(a: unknown, b: unknown) => (Buffer.isBuffer(a) && Buffer.isBuffer(b) ? a.equals(b) : undefined)]);
  registry[BUFFER_EQUALITY] = true;
}

afterAll(async () => {
  fc.resetConfigureGlobal();
  vi.restoreAllMocks();
  await removeTempDirs();
});
