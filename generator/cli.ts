/** `npm run build [-- --input <dir> --out <dir>]`: generate the static API from a game export. */
import { Command } from 'commander';
import { build } from './build.ts';
import type { BuildReport } from './report.ts';
import { StageError, explain } from './errors.ts';
import { progressDisplay } from './progress.ts';
import { publishLayout } from './publish/layout.ts';
import { describeCounts } from './changes/diff.ts';

/** Which release keys the unreadable rows need: missing from release_info.json, or given but not opening them. */
function missingKeys(report: BuildReport): string {
  const releases = Object.entries(report.unreadableReleases);
  const ids = (keyGiven: boolean) => releases.filter(([, r]) => r.key_given === keyGiven).map(([id]) => id).join(', ');
  return [
    ids(false) && `release_info.json has no key for release ${ids(false)}`,
    ids(true) && `the key given for release ${ids(true)} does not open them`,
  ].filter(Boolean).join('; ');
}

function summary(report: BuildReport, reportFile: string): string {
  const upToDate = report.upToDate ? ' (up to date: same input and generator, site untouched)' : '';
  const lines = [`build: ${report.changed} changed, ${report.unchanged} unchanged, ${report.removed} removed${upToDate}`];
  lines.push(`files: ${Object.entries(report.counts).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  const decrypted = report.databases.filter((d) => d.encryption);
  if (decrypted.length) lines.push(`decrypted in memory: ${decrypted.map((d) => `${d.file} (${d.encryption} client file)`).join(', ')}`);
  const unreadable = Object.entries(report.unreadable);
  const keys = missingKeys(report);
  if (unreadable.length) lines.push(`unreadable encrypted rows: ${unreadable.map(([t, n]) => `${t}=${n}`).join(' ')}${keys && ` (${keys})`}`);
  const images = report.images;
  if (report.timings.images !== undefined) {
    lines.push(`images: ${images.published} published, ${images.encoded} encoded, ${images.reused} from cache, ${images.missing} missing, ${images.unreadable} unreadable`);
  }
  lines.push(`timings: ${Object.entries(report.timings).map(([k, v]) => `${k}=${v}ms`).join(' ')}`);
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  lines.push(`report: ${reportFile}`);
  if (report.update) lines.push(`update: ${describeCounts(report.update)}`);
  return lines.join('\n');
}

const program = new Command('build')
  .description('Generate the static SIF JSON API from a game export')
  .option('-i, --input <dir>', 'game export folder', 'input')
  .option('-o, --out <dir>', 'output folder (replaced atomically)', 'public')
  .option('-f, --force', 'rebuild even when the input and generator are unchanged')
  .option('-s, --since <dir>', 'publish the changes since the site in <dir> (instead of since the previous build)')
  .action(async (options: { input: string; out: string; force?: boolean; since?: string }) => {
    const layout = publishLayout(options.out);
    try {
      const report = await build({ ...options, progress: progressDisplay(process.stderr) });
      console.log(summary(report, layout.report));
    } catch (error) {
      // A user error is one clear line; a bug shows its stack (errors.ts explain).
      const stage = error instanceof StageError ? ` (${error.stage} stage)` : '';
      const outcome = error instanceof StageError && error.sitePublished
        ? `${layout.out} holds this build's site, published before the failure.`
        : `${layout.out} was left as it was.`;
      console.error(`build failed${stage}: ${explain(error)}\n${outcome}`);
      process.exitCode = 1;
    }
  });

await program.parseAsync();
