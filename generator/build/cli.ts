/** `npm run build [-- --input <dir> --out <dir>]`: generate the static API from a game export. */
import { Command, Option } from 'commander';
import { PLANS, type PlanName } from '../hosts/all/build/hostLimits.ts';
import { build, imageHostTemplate } from './build.ts';
import { failureLines } from './errors.ts';
import { progressDisplay } from './progress.ts';
import { publishLayout } from './publish/layout.ts';
import { archiveSummary, buildSummary } from './summary.ts';
import { buildArchive } from './archive/archive.ts';
import { UserError } from './errors.ts';

const program = new Command('build')
  .description('Generate the static SIF JSON API from a game export')
  .option('-i, --input <dir>', 'game export folder', 'input')
  .option('-o, --out <dir>', 'output folder (replaced atomically)', 'public')
  .option('-f, --force', 'rebuild even when the input and generator are unchanged')
  .option('-s, --since <dir>', 'publish the changes since the site in <dir> (instead of since the previous build)')
  .option('--image-url <template>', 'name cards\' pictures the export lacks (art, missing icons) on an image host: a URL with {id} or {ordinal}, and {kind} (icon or art), {t} ("t" when idolized) or {idolized} (1 or 0); docs/page.md')
  .option('--image-base <url>', 'the same for a host laid out as this site\'s images/ folder: <url>/card/<kind>/<id>[t].png')
  .addOption(new Option('-p, --plan <plan>', 'the hosts and plans the site must fit (docs/hosts.md)').choices(Object.keys(PLANS)).default('free'))
  .option('-a, --archive <dir>', 'build a folder of exports (one sub-folder each, several regions and dates) into one site whose history is the game\'s (docs/archive.md)')
  .option('--primary <region>', 'with --archive: the region whose exports are the site\'s versions', 'jp')
  .action(async ({ plan, archive, primary, ...options }: { input: string; out: string; force?: boolean; since?: string; imageUrl?: string; imageBase?: string; plan: PlanName; archive?: string; primary: string }) => {
    const layout = publishLayout(options.out);
    try {
      const { imageUrl, imageBase, ...rest } = options;
      const common = { imageHost: imageHostTemplate({ imageUrl, imageBase }), plan: PLANS[plan], progress: progressDisplay(process.stderr) };
      if (archive === undefined) {
        console.log(buildSummary(await build({ ...rest, ...common }), layout.report));
        return;
      }
      const given = (['input', 'since'] as const).find((name) => program.getOptionValueSource(name) === 'cli');
      if (given) throw new UserError(`--archive and --${given} cannot be given together: an archive's exports are its input, and its history follows its own site`);
      const report = await buildArchive({ archive, primary, out: rest.out, force: rest.force, ...common, onStep: (line) => console.error(`archive: ${line}`) });
      console.log(archiveSummary(report, layout.report));
    } catch (error) {
      console.error(failureLines('build', error, layout.out));
      process.exitCode = 1;
    }
  });

await program.parseAsync();
