/** The build pipeline: read the export -> build the model -> render responses -> publish files. */
import path from 'node:path';
import { readExport, closeExport } from './input/readExport.ts';
import { buildModel } from './model/buildModel.ts';
import { renderSite } from './render/site.ts';
import { publishImages } from './images/publishImages.ts';
import { imageCacheDir } from './images/cache.ts';
import { publishBuild } from './publish/publishBuild.ts';
import { publishChanges } from './changes/publishChanges.ts';
import { BuildReport, InputError, type ProgressListener } from './report.ts';

export interface BuildOptions {
  input: string;
  out: string;
  /** Rebuild even when the input, the generator and the published site are unchanged. */
  force?: boolean;
  /** Compare with the site published in this folder instead of the previous build (the changelog). */
  since?: string;
  /** Hears each stage's progress (the CLI's progress display). */
  progress?: ProgressListener;
}

export async function build(options: BuildOptions): Promise<BuildReport> {
  const input = path.resolve(options.input);
  const out = path.resolve(options.out);
  if (out === input || input.startsWith(out + path.sep) || out.startsWith(input + path.sep)) {
    throw new InputError(`--out ${options.out} must not be inside --input ${options.input} or contain it`);
  }
  const report = new BuildReport(options.progress);
  const publishOptions = { force: options.force, rerun: options.since !== undefined };
  await publishBuild(input, out, report, publishOptions, async (files, inputDigest, kept) => {
    const game = await report.stage('read', () => readExport(input, report, inputDigest));
    try {
      const model = await report.stage('model', () => buildModel(game, report));
      // Images first: the renderers link only pictures that were actually published.
      const images = await report.stage('images', () => publishImages(model, { input, cacheDir: imageCacheDir(out) }, report));
      await report.stage('render', () => renderSite(model, files));
      for (const [rel, bytes] of images) files.set(rel, bytes);
      // Returns the records kept with the site.
      const records = await report.stage('changes', () => publishChanges(model, files, { out, since: options.since, date: game.meta.date, kept }, report));
      report.countFiles(files.keys());
      return records;
    } finally {
      closeExport(game);
    }
  });
  return report;
}
