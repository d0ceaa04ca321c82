/**
 * Gives the run the shipped sample's build (test files only read it; buildSample in
 * test/helpers.ts hands it out once it is there): kept from an earlier run while the generator
 * and the sample are unchanged (test/keptFixtures.ts), else built, while the workers start and
 * load their first files, not before. The run's own folder (the picture cache every build of the
 * run shares, the 4,000-card site's turn) is removed when the run ends.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'fs-extra';
import type { TestProject } from 'vitest/node';
import { inputDigest } from '../generator/build/input/treeDigest.ts';
import { InputFolder } from '../generator/build/input/inputFiles.ts';
import { fixtureKey, keptFixture, writeOutcome } from './keptFixtures.ts';

export const SAMPLE_INPUT = fileURLToPath(new URL('../input', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file that names where the sample's build is and holds its build report's own fields (a SampleBuild, or its error), once it is there (readOutcome). */
    sample: string;
    /** One picture cache for every build of the run (content-addressed, so sharing is safe). */
    imageCache: string;
    /** The run's folder for the generated 4,000-card site: the first file that asks makes it or finds it kept (helpers.ts bigSite). */
    bigSiteDir: string;
  }
}

/** What buildSample reads from the run's sample file. */
export interface SampleBuild {
  out: string;
  report: Record<string, unknown>;
}

export default async function setup(project: TestProject) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sif-run-'));
  const imageCache = path.join(dir, 'image-cache');
  process.env.SIF_IMAGE_CACHE = imageCache;
  project.provide('imageCache', imageCache);
  project.provide('bigSiteDir', path.join(dir, 'big'));
  const sample = path.join(dir, 'sample.json');
  project.provide('sample', sample);
  const outcome = writeOutcome(sample, keptSample().then(
    (fixture): SampleBuild => ({ out: path.join(fixture, 'public'), report: fs.readJsonSync(path.join(fixture, REPORT)) }),
  ));
  return async () => {
    await outcome;
    await fs.remove(dir);
  };
}

/** The sample build's report fields, kept beside it. */
const REPORT = 'report.json';

/** The folder holding the sample's build (`public`) and its report. */
function keptSample(): Promise<string> {
  return keptFixture('sample', fixtureKey(inputDigest(InputFolder.walk(SAMPLE_INPUT))), async (into) => {
    // Loaded only to make it: a run that finds the sample kept starts its workers without loading the generator here.
    const { build } = await import('../generator/build/build.ts');
    const report = await build({ input: SAMPLE_INPUT, out: path.join(into, 'public') });
    await fs.writeJson(path.join(into, REPORT), { ...report });
  });
}
