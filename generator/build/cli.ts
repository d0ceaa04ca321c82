/** `npm run build [-- --input <dir> --out <dir>]`: generate the static API from a game export. */
import { Command, Option } from 'commander';
import { PLANS, type PlanName } from './publish/hostLimits.ts';
import { build, imageHostTemplate } from './build.ts';
import { StageError, explain } from './errors.ts';
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
      // A user error is one clear line; a bug shows its stack (errors.ts explain). What became of
      // the site is said once a stage ran; a refused option (a bad --input) touched nothing.
      if (!(error instanceof StageError)) {
        console.error(`build failed: ${explain(error)}`);
      } else {
        const outcome = error.sitePublished ? `${layout.out} holds this build's site, published before the failure.` : `${layout.out} was left as it was.`;
        console.error(`build failed (${error.stage} stage): ${explain(error)}\n${outcome}`);
      }
      process.exitCode = 1;
    }
  });

await program.parseAsync();
