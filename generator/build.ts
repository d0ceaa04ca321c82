/** The build pipeline: read the export -> build the model -> render responses -> publish files. */
import path from 'node:path';
import { readExport, closeExport } from './input/readExport.ts';
import { buildModel } from './model/buildModel.ts';
import { renderSite } from './render/site.ts';
import { writeSite } from './publish/writeSite.ts';
import { BuildReport, InputError } from './report.ts';

export interface BuildOptions {
  input: string;
  out: string;
}

export async function build(options: BuildOptions): Promise<BuildReport> {
  const input = path.resolve(options.input);
  const out = path.resolve(options.out);
  if (out === input || input.startsWith(out + path.sep) || out.startsWith(input + path.sep)) {
    throw new InputError(`--out ${options.out} must not be inside --input ${options.input} or contain it`);
  }
  const report = new BuildReport();
  const game = await report.stage('read', () => readExport(input, report));
  try {
    const model = await report.stage('model', () => buildModel(game, report));
    const files = await report.stage('render', () => renderSite(model));
    for (const rel of files.keys()) {
      const endpoint = rel.startsWith('api/v1/') ? rel.slice(7).split(/[/.]/)[0] : rel.split('/')[0];
      report.counts[endpoint] = (report.counts[endpoint] ?? 0) + 1;
    }
    await report.stage('write', () => writeSite(files, out, report));
  } finally {
    closeExport(game);
  }
  return report;
}
