/** `npm run build [-- --input <dir> --out <dir>]`: generate the static API from a game export. */
import { Command } from 'commander';
import { build } from './build.ts';
import { InputError, type BuildReport } from './report.ts';

function summary(report: BuildReport): string {
  const lines = [`build: ${report.changed} changed, ${report.unchanged} unchanged, ${report.removed} removed`];
  lines.push(`files: ${Object.entries(report.counts).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  const unreadable = Object.entries(report.unreadable);
  if (unreadable.length) lines.push(`unreadable encrypted rows: ${unreadable.map(([t, n]) => `${t}=${n}`).join(' ')}`);
  lines.push(`timings: ${Object.entries(report.timings).map(([k, v]) => `${k}=${v}ms`).join(' ')}`);
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}

const program = new Command('build')
  .description('Generate the static SIF JSON API from a game export')
  .option('-i, --input <dir>', 'game export folder', 'input')
  .option('-o, --out <dir>', 'output folder (replaced atomically)', 'public')
  .action(async (options: { input: string; out: string }) => {
    try {
      const report = await build(options);
      console.log(summary(report));
    } catch (error) {
      // Input problems are the user's to fix: a clear message, no stack trace.
      console.error(`build failed: ${error instanceof InputError ? error.message : (error as Error).stack}`);
      process.exitCode = 1;
    }
  });

await program.parseAsync();
