/**
 * Builds the shipped sample once for the whole run (test files only read it; buildSample in
 * test/helpers.ts hands it out, once it is built) and removes it when the run ends. The build
 * runs while the workers start and load their first files, not before.
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
    /** Where the sample is built, and the file that holds its build report's own fields (or its error) once it is built. */
    sample: { out: string; built: string };
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
  const built = path.join(dir, 'sample.json');
  project.provide('sample', { out, built });
  const building = build({ input: SAMPLE_INPUT, out }).then(
    (report) => ({ report: { ...report } }),
    (error: Error) => ({ error: error.stack ?? String(error) }),
  ).then((outcome) => writeAtomically(built, JSON.stringify(outcome)));
  return async () => {
    await building;
    await fs.remove(dir);
  };
}

/** `text` at `file` whole or not at all: readers wait for the file to exist. */
async function writeAtomically(file: string, text: string): Promise<void> {
  await fs.writeFile(`${file}.partial`, text);
  await fs.rename(`${file}.partial`, file);
}
