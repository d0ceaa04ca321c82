/**
 * The image stage: reads every picture the model names from input/assets and converts it
 * with sharp (several at once, through the cache). It returns the encoded files and which
 * pictures were published, so the JSON renderers that run next point only at those.
 */
import type { Model } from '../model/buildModel.ts';
import { manyWarning } from '../findings.ts';
import { IMAGE_FORMATS } from '../../contract/format.ts';
import { ImageCache } from './cache.ts';
import { ICON_SETTINGS, encodeImage, encoderFingerprint, type Encoded } from './encode.ts';
import { imageJobs, type ImageJob } from './jobs.ts';
import { mapLimit } from './pool.ts';
import { listAssets, readSource, sourceProblem, type SourceProblem } from './sources.ts';
import type { InputFolder } from '../input/inputFiles.ts';

export interface ImageOptions {
  /** The input folder, as the check stage walked it. */
  input: InputFolder;
  cacheDir: string;
  /** The cache is this site's own: drop the entries this build did not use. A shared cache is never pruned. */
  pruneCache: boolean;
  /** Pictures worked on at once (default 8). */
  concurrency?: number;
  /** An image host names cards' pictures the site lacks (BuildOptions.imageHost): those are not null. */
  imageHost?: boolean;
}

type Outcome = { ok: true; encoded: Encoded } | SourceProblem;

/** A source sharp cannot decode: the picture's problem, not the build's. */
class UndecodablePicture extends Error {}

/** What the image stage did: pictures published; sources encoded with sharp or reused from the cache; pictures missing or unreadable. */
export interface ImageCounts {
  published: number;
  encoded: number;
  reused: number;
  missing: number;
  unreadable: number;
}

/** Encodes through the cache, counting into `counts`; equal sources (one picture named by several rows) are encoded once. */
function cachedEncoder(cache: ImageCache, counts: ImageCounts) {
  const pending = new Map<string, Promise<Encoded>>();
  const load = async (key: string, bytes: Buffer): Promise<Encoded> => {
    const cached = await cache.get(key);
    if (cached) {
      counts.reused++;
      return cached;
    }
    const encoded = await encodeImage(bytes, ICON_SETTINGS).catch((error: Error) => {
      // sharp's own words, without the libvips log it appends after a colon: that log is one for the
      // process, so with pictures decoded at once it may hold another one's error, or none.
      throw new UndecodablePicture(error.message.split('\n')[0].replace(/:.*/, ''));
    });
    counts.encoded++;
    await cache.put(key, encoded);
    return encoded;
  };
  return (bytes: Buffer): Promise<Encoded> => {
    const key = cache.key(bytes);
    if (!pending.has(key)) pending.set(key, load(key, bytes));
    return pending.get(key)!;
  };
}

/**
 * sharp runs on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise);
 * a few more jobs than that keep it busy while sources and cache entries are read and written.
 */
const DEFAULT_CONCURRENCY = 8;
const EXAMPLES = 3;
const PROBLEM_TEXT = { missing: 'missing from input/assets', unreadable: 'unreadable' } as const;

/** What becomes of a picture the site cannot publish: a card's is named on the image host (when there is one), any other's URL is null. */
const FALLBACKS = {
  hosted: { line: 'named on the image host instead', noPictures: (count: number) => `${count} card pictures are named on the image host instead` },
  null: { line: 'their URLs are null', noPictures: (count: number, all: boolean) => `${all ? 'all ' : ''}${count} image URLs are null` },
} as const;
type Fallback = keyof typeof FALLBACKS;

/**
 * Counts the pictures missing and unreadable into `counts`, and returns one warning line per kind
 * of problem and what the pictures' URLs became, however many pictures have it (exports can miss
 * thousands); an export without any picture says just that, once per outcome.
 */
function problems(counts: ImageCounts, jobs: ImageJob[], outcomes: Outcome[], { noPictures, imageHost }: { noPictures: boolean; imageHost: boolean }): string[] {
  const fallbackOf = (job: ImageJob): Fallback => (imageHost && job.hostable ? 'hosted' : 'null');
  return (['missing', 'unreadable'] as const).flatMap((kind) => {
    const hits = jobs.flatMap((job, i) => {
      const o = outcomes[i];
      return !o.ok && o.problem === kind ? [{ job, text: `${job.label} (${o.detail})` }] : [];
    });
    counts[kind] = hits.length;
    const fallbacks = [...new Set(hits.map((h) => fallbackOf(h.job)))];
    return fallbacks.flatMap((fallback) => {
      const same = hits.filter((h) => fallbackOf(h.job) === fallback);
      if (kind === 'missing' && noPictures) return [`images: the export has no pictures (nothing under input/assets), so ${FALLBACKS[fallback].noPictures(same.length, fallbacks.length === 1)}`];
      const noun = same.length === 1 ? 'picture' : 'pictures';
      return manyWarning(same.length, `images: ${same.length} ${noun} ${PROBLEM_TEXT[kind]}, ${FALLBACKS[fallback].line}`, same.slice(0, EXAMPLES).map((h) => h.text)) ?? [];
    });
  });
}

export interface EncodedImages {
  /** Site path to bytes of every encoded picture (PNG and WebP). */
  files: Map<string, Buffer>;
  /** Site paths of the published PNGs (a WebP lies beside each). */
  published: ReadonlySet<string>;
  counts: ImageCounts;
  warnings: string[];
}

/** Encodes every picture the model names; `onProgress` hears how many of them are done. */
export async function encodeImages(model: Model, options: ImageOptions, onProgress: (done: number, total: number) => void = () => {}): Promise<EncodedImages> {
  const jobs = imageJobs(model);
  const cache = new ImageCache(options.cacheDir, encoderFingerprint(ICON_SETTINGS));
  const counts: ImageCounts = { published: 0, encoded: 0, reused: 0, missing: 0, unreadable: 0 };
  const encode = cachedEncoder(cache, counts);
  const limit = options.concurrency ?? DEFAULT_CONCURRENCY;
  const assets = listAssets(options.input);
  const root = options.input.root;
  const encodeOne = async (job: ImageJob): Promise<Outcome> => {
    const source = await readSource(root, job.asset, assets);
    if (!source.ok) return source;
    try {
      return { ok: true, encoded: await encode(source.bytes) };
    } catch (error) {
      if (!(error instanceof UndecodablePicture)) throw error;
      return { ok: false, problem: 'unreadable', detail: `${job.asset}: ${error.message}` };
    }
  };
  // The pictures that cannot be read are told at once (an export without pictures has only those); the others are read and encoded.
  const outcomes = new Array<Outcome>(jobs.length);
  const readable: number[] = [];
  jobs.forEach((job, i) => {
    const problem = sourceProblem(root, job.asset, assets);
    if (problem) outcomes[i] = problem;
    else readable.push(i);
  });
  let done = jobs.length - readable.length;
  onProgress(done, jobs.length);
  await mapLimit(readable, limit, async (i) => {
    outcomes[i] = await encodeOne(jobs[i]);
    onProgress(++done, jobs.length);
  });
  const files = new Map<string, Buffer>();
  const published = new Set<string>();
  jobs.forEach((job, i) => {
    const outcome = outcomes[i];
    if (!outcome.ok) return;
    for (const format of IMAGE_FORMATS) files.set(job.targets[format], outcome.encoded[format]);
    published.add(job.targets.png);
    counts.published++;
  });
  const warnings = problems(counts, jobs, outcomes, { noPictures: assets.size === 0, imageHost: options.imageHost ?? false });
  if (options.pruneCache) await cache.prune();
  return { files, published, counts, warnings };
}
