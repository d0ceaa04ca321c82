/**
 * Builds the shipped sample once for the whole run (test files only read it; buildSample in
 * test/helpers.ts hands it out) and removes it when the run ends.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'fs-extra';
import type { TestProject } from 'vitest/node';
import { build } from '../generator/build/build.ts';

export const SAMPLE_INPUT = fileURLToPath(new URL('../input', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built sample and a copy of its build report's own fields. */
    sample: { out: string; report: Record<string, unknown> };
    /** One picture cache for every build of the run (content-addressed, so sharing is safe). */
    imageCache: string;
    /** Where the generated 4,000-card export and its site are built, once, by the first file that asks (helpers.ts bigSite). */
    bigSiteDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sif-sample-'));
  const out = path.join(dir, 'public');
  const imageCache = path.join(dir, 'image-cache');
  process.env.SIF_IMAGE_CACHE = imageCache;
  project.provide('imageCache', imageCache);
  project.provide('bigSiteDir', path.join(dir, 'big'));
  const report = await build({ input: SAMPLE_INPUT, out });
  project.provide('sample', { out, report: JSON.parse(JSON.stringify({ ...report })) });
  return () => fs.remove(dir);
}
