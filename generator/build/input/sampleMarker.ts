/**
 * The invented sample marks its folder with sample.json, which lists the sample's files, so
 * that a real export dropped beside it is never built mixed with the sample's sets, dates and
 * translations: the build refuses, in one line saying what to do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { readCurated } from './curated.ts';
import { UserError } from '../errors.ts';

export const SAMPLE_MARKER = 'sample.json';

export const SampleMarker = Type.Object({
  note: Type.String(),
  /** The sample's files, relative to its folder ('/'-separated), pictures left out. */
  files: Type.Array(Type.String()),
});

/**
 * Fails when `root` holds the sample (its marker) and any of `databases` (relative paths) is not
 * one of the sample's; returns whether `root` is the sample (the report says its warnings are planted).
 */
export function refuseMixedSample(root: string, databases: string[]): boolean {
  const file = path.join(root, SAMPLE_MARKER);
  if (!fs.existsSync(file)) return false;
  const own = new Set(readCurated(root, file, SampleMarker, { note: '', files: [] }).files);
  const other = databases.filter((rel) => !own.has(rel));
  if (!other.length) return true;
  throw new UserError(`${root} holds the invented sample (${SAMPLE_MARKER}) and another export's databases (${other.join(', ')}); ` +
    `put your export in a folder of its own and build it with --input <folder>, or delete the sample's files (${SAMPLE_MARKER} lists them) and ${SAMPLE_MARKER}`);
}
