/**
 * The build's stages in their one order: read -> model -> images -> render -> search -> changes
 * -> history -> bulk. Each returns what the next one needs, and what it finds goes into the
 * report. build.ts runs them between its folders' check and its manifest, hosts and write stages;
 * the tests run them on files in memory (test/helpers.ts): the same code in the same order.
 */
import type { InputFolder } from './input/inputFiles.ts';
import { closeExport, readExport, type GameExport } from './input/readExport.ts';
import { publishedVersions, requireDistinctVersion } from './input/curated.ts';
import type { PreviousSite } from './input/previousSite.ts';
import type { ArchiveStep } from './input/archiveStep.ts';
import { buildModel, type Model } from './model/buildModel.ts';
import { modelCoverage } from './model/coverage.ts';
import { encodeImages, type EncodedImages, type ImageOptions } from './images/encodeImages.ts';
import { renderContext } from './render/context.ts';
import { checkedContext } from './render/checked.ts';
import { renderSite, type Rendered } from './render/renderSite.ts';
import type { MovableFiles } from './siteFiles.ts';
import { deriveSearch } from './derive/search.ts';
import { deriveChanges, type ChangesFound } from './changes/deriveChanges.ts';
import type { SiteSnapshots } from './changes/store.ts';
import { deriveHistory } from './changes/history.ts';
import { deriveBulk } from './derive/bulk.ts';
import type { BulkIndexJson } from '../contract/schemas.ts';
import { Findings } from './findings.ts';
import type { BuildReport } from './report.ts';

export interface StageOptions {
  input: InputFolder;
  /** The input folder's digest (input/treeDigest.ts): the export's name where meta.json gives none. */
  inputDigest: string;
  /** The site this one follows: the output folder's, --since's, or none (memorySite). */
  previous: PreviousSite;
  /** The previous site's objects as its build recorded them; null: read back from its files (changes/store.ts). */
  recorded: SiteSnapshots | null;
  /** The pictures: encoded by the images stage with these options, or (rule tests) these site paths taken as published. */
  images: Omit<ImageOptions, 'input'> | ReadonlySet<string>;
  imageHost: string | null;
  /** Where the bulk stage writes its files before they join the site; null leaves the bulk stage out. */
  scratch: string | null;
  archive?: ArchiveStep;
  /** Told once every rendered file is added (a publishing session then hands them to its writer). */
  onRendered?: () => void;
  /** Told the images stage's progress. */
  progress?: (done: number, total: number) => void;
  /** Stop after the search stage: what rule tests of the rendered JSON need. */
  renderOnly?: boolean;
}

export interface StagesDone {
  /** The version the site publishes (meta.json's, else the export's own). */
  truthVersion: string;
  rendered: Rendered;
  /** What the changes stage found (null with renderOnly). */
  changes: ChangesFound | null;
  /** The bulk index (null without the bulk stage). */
  bulk: BulkIndexJson | null;
}

/**
 * The read and model stages. They tell what they find through one Findings, added to the report
 * when they end, failed or not: a database's rows are read (and found unreadable) as the model
 * asks for them, until the model stage closes the export.
 */
async function readAndModel(report: BuildReport, options: StageOptions): Promise<{ game: GameExport; model: Model }> {
  const findings = new Findings();
  try {
    const game = await report.stage('read', async () => {
      const read = readExport(options.input, findings, options.inputDigest, options.archive);
      try {
        requireDistinctVersion(options.input.root, read.meta.truthVersion, await publishedVersions(options.previous));
      } catch (error) {
        closeExport(read);
        throw error;
      }
      return read;
    });
    const model = await report.stage('model', () => {
      try {
        return buildModel(game, findings);
      } finally {
        closeExport(game);
      }
    });
    return { game, model };
  } finally {
    report.add(findings);
  }
}

/** The pictures the site publishes: encoded by the images stage, or the given ones taken as published. */
async function pictures(report: BuildReport, model: Model, options: StageOptions): Promise<Pick<EncodedImages, 'published' | 'files'>> {
  if (options.images instanceof Set) return { published: options.images, files: new Map() };
  const encoded = await report.stage('images', () => encodeImages(model, { ...(options.images as Omit<ImageOptions, 'input'>), input: options.input }, options.progress));
  Object.assign(report.images, encoded.counts);
  report.warnAll(encoded.warnings);
  return encoded;
}

/**
 * The read, model, images and render stages: from the export to the rendered objects. Their own
 * function, so that the model goes with its frame when it returns: the stages after it run on the
 * rendered objects, which keep of the model only what they show (at 40,000 cards the live heap
 * through the history and bulk stages 257 MB instead of 291, docs/benchmark.md).
 */
async function readAndRender(report: BuildReport, files: MovableFiles, options: StageOptions) {
  const { game, model } = await readAndModel(report, options);
  report.sample = game.sample;
  report.coverage = modelCoverage(model);
  const images = await pictures(report, model, options);
  const findings = new Findings();
  const rendered = await report.stage('render', () => renderSite(checkedContext(renderContext(model, images.published, options.imageHost), findings), files))
    .finally(() => report.add(findings));
  return { truthVersion: model.truthVersion, date: game.meta.date, rendered, pictures: images.files };
}

/** Runs the stages on `files` (a publishing session's, or files in memory), telling `report`. */
export async function runStages(report: BuildReport, files: MovableFiles, options: StageOptions): Promise<StagesDone> {
  const { truthVersion, date, rendered, pictures: encoded } = await readAndRender(report, files, options);
  options.onRendered?.();
  await report.stage('search', () => deriveSearch(rendered, files));
  for (const [rel, bytes] of encoded) files.set(rel, bytes);
  if (options.renderOnly) return { truthVersion, rendered, changes: null, bulk: null };
  const { previous, recorded } = options;
  const changes = await report.stage('changes', () => deriveChanges({ rendered, truthVersion }, files, { previous, recorded, date }));
  report.update = changes.update;
  report.warnAll(changes.warnings);
  await report.stage('history', () => deriveHistory(changes.history, files));
  const { scratch } = options;
  const bulk = scratch === null ? null
    : await report.stage('bulk', () => deriveBulk(rendered, files, { truthVersion, date, previous, scratch }));
  return { truthVersion, rendered, changes, bulk };
}
