/**
 * Runs in every test file before its own code: builds (and the CLIs they start) share the run's
 * picture cache, so a picture is encoded once per run; whatever temporary folders the file made
 * go once it is done.
 */
import { afterAll, inject } from 'vitest';
import { removeTempDirs } from './tempDirs.ts';

process.env.SIF_IMAGE_CACHE = inject('imageCache');

afterAll(removeTempDirs);
