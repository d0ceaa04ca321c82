/**
 * The build, top to bottom: check -> (stages.ts runStages: read -> model -> images -> render ->
 * search -> changes -> history -> bulk) -> manifest -> hosts -> write. Each stage returns what the next one needs
 * and what it found, and the report is assembled here from those; the model is read-only once
 * built (the image stage returns which pictures it published instead of writing them into the
 * model). The site this one follows (the output folder's, or --since's) is an input too,
 * opened once here for the stages that read it (input/previousSite.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputFolder } from './input/inputFiles.ts';
import { memorySite, previousSite } from './input/previousSite.ts';
import type { ArchiveStep } from './input/archiveStep.ts';
import { runStages } from './stages.ts';
import { keepSnapshots, recordedSnapshots } from './changes/store.ts';
import { deriveFileManifest } from './derive/fileManifest.ts';
import { PublishSession } from './publish/publishBuild.ts';
import { UserError } from './errors.ts';
import { baseTemplate, templateProblem } from '../web/page/imageHost.js';
import { DEFAULT_PLAN, type HostPlan } from '../hosts/all/build/hostLimits.ts';
import { fitHosts, refuseUnfit } from '../hosts/all/build/hostFit.ts';
import { hostConfigBytes } from '../hosts/all/build/hostRules.ts';
import type { DigestedFiles } from './siteFiles.ts';
import { BuildReport, type ProgressListener } from './report.ts';

export interface BuildOptions {
  input: string;
  out: string;
  /** Rebuild even when the input, the generator and the published site are unchanged. */
  force?: boolean;
  /** Compare with the site published in this folder instead of the previous build (the changelog). */
  since?: string;
  /**
   * Where encoded pictures are kept between builds. The cache is content-addressed, so sites
   * may share one (a CI cache, a test run). Default: $SIF_IMAGE_CACHE, else `.cache/images/<name>` beside `out`.
   */
  imageCache?: string;
  /**
   * An image host's URL template (generator/web/page/imageHost.js: `{id}`, `{ordinal}`, `{kind}`,
   * `{t}`, `{idolized}`): cards' pictures the export lacks (its art always) are named there.
   */
  imageHost?: string | null;
  /** The hosts the site must deploy to, with their limits (hosts/all/build/hostLimits.ts PLANS); default: the free plans. */
  plan?: HostPlan;
  /** Hears each stage's progress (the CLI's progress display). */
  progress?: ProgressListener;
  /** The export is a version of an archive (build/archive/): its name, date, English export and regions come from there. */
  archive?: ArchiveStep;
  /** Follow no site: the first version of a history, whatever the output folder holds now. */
  fresh?: boolean;
}

/** The input folder must exist, be a folder and be readable: else one line naming it. */
function requireInputFolder(input: string, given: string): void {
  try {
    if (!fs.statSync(input).isDirectory()) throw new UserError(`--input ${given}: not a folder (give the folder that holds the export)`);
    fs.accessSync(input, fs.constants.R_OK | fs.constants.X_OK);
  } catch (error) {
    if (error instanceof UserError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`--input ${given}: ${code === 'ENOENT' ? 'no such folder' : `cannot be read (${code ?? String(error)})`}`);
  }
}

/**
 * The image host's template from the CLI's options: --image-url as it is, --image-base as a
 * host laid out as this site's images/ folder; null for neither. A malformed one is a UserError.
 */
export function imageHostTemplate({ imageUrl, imageBase }: { imageUrl?: string; imageBase?: string }): string | null {
  if (imageUrl !== undefined && imageBase !== undefined) throw new UserError('--image-url and --image-base name the same thing: give one');
  const template = imageUrl ?? (imageBase === undefined ? null : baseTemplate(imageBase));
  const problem = template === null ? null : templateProblem(template);
  if (problem) throw new UserError(`${imageUrl === undefined ? '--image-base' : '--image-url'}: ${problem}`);
  return template;
}

function folders(options: BuildOptions): { input: string; out: string } {
  const input = path.resolve(options.input);
  requireInputFolder(input, options.input);
  const out = path.resolve(options.out);
  if (out === input || input.startsWith(out + path.sep) || out.startsWith(input + path.sep)) {
    throw new UserError(`--out ${options.out} must not be inside --input ${options.input} or contain it`);
  }
  return { input, out };
}

/** The picture cache: a shared one when the options or $SIF_IMAGE_CACHE name it, else the site's own beside `out`. */
function imageCacheOf(options: BuildOptions, besideOut: string): { cacheDir: string; pruneCache: boolean } {
  const shared = options.imageCache ?? process.env.SIF_IMAGE_CACHE;
  return shared ? { cacheDir: path.resolve(shared), pruneCache: false } : { cacheDir: besideOut, pruneCache: true };
}

/** The site as the host limit check sees it: sizes from the digests taken as files were added, rule files as rendered. */
const listing = (files: DigestedFiles) => ({
  sizes: [...files.keys()].map((rel): [string, number] => [rel, files.digest(rel).bytes]),
  ruleFile: (rel: string) => (files.has(rel) ? hostConfigBytes(rel)?.toString('utf8') : undefined),
});

/**
 * Builds the site of `input` into `out`. A failure is a StageError naming its stage; one
 * before the write stage's swap leaves `out` as it was. The report is assembled here alone,
 * from what each stage returns.
 */
export async function build(options: BuildOptions): Promise<BuildReport> {
  const { input, out } = folders(options);
  const report = new BuildReport(options.progress);
  const plan = options.plan ?? DEFAULT_PLAN;
  const session = PublishSession.open(out);
  report.warnAll(session.recovered);
  const progress = (done: number, total: number) => report.advance(done, total);
  try {
    // --since (or no site at all) follows another site than the published one, so every stage runs even when the input is unchanged.
    const rerun = options.since !== undefined || options.fresh === true;
    const checkedOptions = {
      imageHost: options.imageHost ?? null,
      ...(plan.name === DEFAULT_PLAN.name ? {} : { plan: plan.name }),
      ...(options.archive ? { archive: options.archive.digest } : {}),
    };
    // The input folder walked once: its digest here, its databases, translations and pictures in the stages after.
    const { upToDate, inputDigest, inputFolder } = await report.stage('check', () => {
      const walked = InputFolder.walk(input);
      const checked = session.check(walked, { force: options.force, rerun, options: checkedOptions });
      if (checked.upToDate) report.replay(checked.upToDate.report, checked.upToDate.files);
      return { ...checked, inputFolder: walked };
    });
    // The site this one follows, opened here for every stage that reads it: --since, else the output folder.
    const previous = options.fresh ? memorySite(new Map(), { label: 'no site' }) : previousSite(out, options.since);
    if (!upToDate) {
      const files = session.files(progress);
      const store = session.layout.snapshots;
      // The build's records describe the output folder's site: trusted only when that is the one followed.
      const recorded = previous.named || options.fresh ? null : recordedSnapshots(store, session.changeRecords);
      const { truthVersion, changes } = await runStages(report, files, {
        input: inputFolder, inputDigest, previous, recorded, archive: options.archive, progress,
        images: { imageHost: Boolean(options.imageHost), ...imageCacheOf(options, session.layout.images) },
        imageHost: options.imageHost ?? null, scratch: session.layout.scratch, onRendered: () => session.renderingDone(),
      });
      const records = keepSnapshots(store, changes!.keep, session.changeRecords);
      await report.stage('manifest', () => deriveFileManifest(files, truthVersion));
      report.countFiles(files.keys());
      await report.stage('hosts', () => {
        report.hosts.push(...fitHosts(listing(files), plan));
        refuseUnfit(report.hosts);
      });
      await report.stage('write', async () => {
        Object.assign(report, await session.finishStaging(files));
        await session.publish(records, report.toJSON());
      });
    }
  } catch (error) {
    await session.close(report.toJSON(), error);
    throw error;
  }
  await session.close(report.toJSON());
  return report;
}
