/**
 * Runs in every test file before its own code: builds (and the CLIs they start) share the run's
 * picture cache, so a picture is encoded once per run; whatever temporary folders the file made
 * go once it is done. Files share their worker's modules (isolate: false in vitest.config.ts),
 * so what a file sets globally (fast-check's seed) is reset after it.
 */
import fc from 'fast-check';
import { afterAll, inject } from 'vitest';
import { removeTempDirs } from './tempDirs.ts';

process.env.SIF_IMAGE_CACHE = inject('imageCache');

afterAll(async () => {
  fc.resetConfigureGlobal();
  await removeTempDirs();
});
