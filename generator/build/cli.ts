/** `npm run build [-- --input <dir> --out <dir>]`: generate the static API from a game export. */
import { Command, Option } from 'commander';
import { PLANS, type PlanName } from './publish/hostLimits.ts';
import { build, imageHostTemplate } from './build.ts';
import { failureLines } from './errors.ts';
import { progressDisplay } from './progress.ts';
import { publishLayout } from './publish/layout.ts';
import { buildSummary } from './summary.ts';

const program = new Command('build')
  .description('Generate the static SIF JSON API from a game export')
  .option('-i, --input <dir>', 'game export folder', 'input')
  .option('-o, --out <dir>', 'output folder (replaced atomically)', 'public')
  .option('-f, --force', 'rebuild even when the input and generator are unchanged')
  .option('-s, --since <dir>', 'publish the changes since the site in <dir> (instead of since the previous build)')
  .option('--image-url <template>', 'name cards\' pictures the export lacks (art, missing icons) on an image host: a URL with {id} or {ordinal}, and {kind} (icon or art), {t} ("t" when idolized) or {idolized} (1 or 0); docs/page.md')
  .option('--image-base <url>', 'the same for a host laid out as this site\'s images/ folder: <url>/card/<kind>/<id>[t].png')
  .addOption(new Option('-p, --plan <plan>', 'the hosts and plans the site must fit (docs/hosts.md)').choices(Object.keys(PLANS)).default('free'))
  .action(async ({ plan, ...options }: { input: string; out: string; force?: boolean; since?: string; imageUrl?: string; imageBase?: string; plan: PlanName }) => {
    const layout = publishLayout(options.out);
    try {
      const { imageUrl, imageBase, ...rest } = options;
      const report = await build({ ...rest, imageHost: imageHostTemplate({ imageUrl, imageBase }), plan: PLANS[plan], progress: progressDisplay(process.stderr) });
      console.log(buildSummary(report, layout.report));
    } catch (error) {
      console.error(failureLines('build', error, layout.out));
      process.exitCode = 1;
    }
  });

await program.parseAsync();
