/**
 * `npm run mirror`: a local copy of a deployed site, kept current. The site's file manifest
 * (api/v1/manifest.json) names every file it serves with its SHA-256; files the copy already
 * holds with that hash are taken from it, the others downloaded (a few at a time) into the
 * download cache, each checked against the manifest before it is kept. A changed file the
 * manifest lists with block sums (and the manifest itself, through manifest.blocks.json) is
 * rebuilt from the blocks the copy's old version holds and byte ranges of the others
 * (blockSync.ts). Only when every file
 * is there is the copy published, through the build's own publish session (publish/): the
 * same lock, refusal of a folder that is not a site, staging and atomic swap. A mirror that
 * fails or is killed leaves the previous copy whole, and the verified downloads stay in the
 * cache, so the next run resumes where this one stopped. The host configuration files are
 * written from this generator's declarations (hosts/all/build/hostRules.ts), as a build writes them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NOT_FOUND_FILE, endpoints } from '../../contract/endpoints.ts';
import type { FileManifestJson } from '../../contract/schemas.ts';
import { digestFile, sha256, type FileDigest } from '../digest.ts';
import { BlockSums, blockCount } from '../blockSums.ts';
import { MANIFEST_BLOCK_SIZE } from '../../contract/format.ts';
import { Assembly, MatchBudget, syncBlocks, type RangeAnswer, type Store } from './blockSync.ts';
import { isListed } from '../derive/fileManifest.ts';
import { deriveFiles, isDerived, type SiteFile } from './derived.ts';
import { hostConfigFiles, renderHostRules } from '../../hosts/all/build/hostRules.ts';
import { truthVersionFault } from '../input/curated.ts';
import { PublishSession } from '../publish/publishBuild.ts';
import { MAX_SITE_BYTES } from '../publish/staging.ts';
import { buildFingerprint } from '../publish/fingerprint.ts';
import { UserError } from '../errors.ts';
import { BuildReport, type ProgressListener } from '../report.ts';

export interface MirrorOptions {
  /** The site's address (its root, where index.html is). */
  from: string;
  out: string;
  /** Downloads running at once. */
  concurrency?: number;
  /** A site that sends nothing for this long (before an answer starts, or within one) fails the mirror. */
  idleSeconds?: number;
  /** A file that takes longer than this, plus a second per 64 KiB the manifest lists for it, fails the mirror (however often bytes trickle in). */
  deadlineSeconds?: number;
  progress?: ProgressListener;
  /** Make the files the site's other files give (mirror/derived.ts) instead of downloading them (default true). */
  derive?: boolean;
}

export interface MirrorResult {
  report: BuildReport;
  truthVersion: string;
  /** Paths (root-relative) downloaded by this run, whole or in part. */
  fetched: string[];
  /** Bytes received from the site (bodies, the manifest's included), and bytes taken from the blocks of the copy's old files. */
  fetchedBytes: number;
  reusedBytes: number;
  /** Byte ranges the site answered as such (HTTP 206). */
  ranges: number;
  /** Files taken from the previous copy, and from downloads an earlier run had verified. */
  fromCopy: number;
  fromCache: number;
  /** Files made from the site's other files instead of downloaded (mirror/derived.ts). */
  derived: number;
}

const DEFAULT_CONCURRENCY = 8;
/** A site that sends nothing for this long fails the mirror (the next run resumes). */
const DEFAULT_IDLE_SECONDS = 60;
/** The time any one file may take, beyond a second per MIN_RATE bytes of it: one byte every few seconds must not hold a mirror for hours. */
const DEFAULT_DEADLINE_SECONDS = 300;
const MIN_RATE = 64 * 1024;
/** Redirects followed, each within the site's own origin. */
const MAX_REDIRECTS = 5;
/** The largest copy: what a build publishes at most (a site listing more is refused before anything is fetched). */
const MAX_COPY_BYTES = MAX_SITE_BYTES;
/** A manifest lists every file of a site: about 60 bytes a file, so this is millions of files. */
const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;
const MANIFEST = endpoints.fileManifest.file();
const MANIFEST_BLOCKS = endpoints.manifestBlocks.file();
/** manifest.blocks.json of the largest manifest: its base64 block sums and a little JSON. */
const MAX_MANIFEST_BLOCKS_BYTES = Math.ceil((blockCount(MAX_MANIFEST_BYTES, MANIFEST_BLOCK_SIZE) * 12 * 4) / 3) + 1024;
/** The block sizes a manifest.blocks.json may name. */
const MANIFEST_BLOCK_SIZES = { min: 64, max: 1024 * 1024 };

type Entry = FileManifestJson['files'][string];

/** The site's root URL, ending in "/". */
function siteUrl(from: string): URL {
  let url: URL;
  try {
    url = new URL(from);
  } catch {
    throw new UserError(`--from ${from} is not a URL; give the site's address, such as https://example.org/`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserError(`--from ${from}: only http and https sites can be mirrored`);
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** The message of a failed fetch: Node puts the network error (ECONNREFUSED, ENOTFOUND...) in its cause. */
const networkCause = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
};

/**
 * Aborts a request when its site sends nothing for `seconds` (before the answer starts, or
 * between two chunks of it), and when the whole request has taken `deadline` seconds.
 */
class IdleTimeout {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly deadline: NodeJS.Timeout;
  readonly signal = this.controller.signal;

  constructor(private readonly url: URL, private readonly seconds: number, deadline: number) {
    this.arm();
    const late = new UserError(`${url} took more than ${Number(deadline.toFixed(1))} s; nothing was published (a new run resumes)`);
    this.deadline = setTimeout(() => this.controller.abort(late), deadline * 1000);
  }

  arm(): void {
    clearTimeout(this.timer);
    const stalled = new UserError(`${this.url} sent nothing for ${this.seconds} s; nothing was published (a new run resumes)`);
    this.timer = setTimeout(() => this.controller.abort(stalled), this.seconds * 1000);
  }

  done(): void {
    clearTimeout(this.timer);
    clearTimeout(this.deadline);
  }
}

interface Fetched {
  response: Response;
  idle: IdleTimeout;
}

/** Where a mirror reads: the site's root URL, how long it waits for the site to send something, and for one file; what scanning old files may spend. */
interface Source {
  base: URL;
  idleSeconds: number;
  deadlineSeconds: number;
  matching: MatchBudget;
}

/**
 * The response to GET `url` (with `headers`), of `bytes` when the manifest says. A redirect is
 * followed only within the site's origin: a hostile site could otherwise have the mirror request
 * any address on the user's network.
 */
async function get(url: URL, source: Source, { bytes = 0, headers }: { bytes?: number; headers?: Record<string, string> } = {}): Promise<Fetched> {
  const idle = new IdleTimeout(url, source.idleSeconds, source.deadlineSeconds + bytes / MIN_RATE);
  try {
    for (let at = url, hops = 0; ; hops++) {
      const response = await fetch(at, { signal: idle.signal, redirect: 'manual', headers });
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location === null) return { response, idle };
      await response.body?.cancel();
      const next = URL.parse(location, at);
      if (next?.origin !== source.base.origin) throw new UserError(`${at} redirects to ${next ? `another host or port (${next.origin})` : 'no URL'}; a mirror reads only from ${source.base.origin}, nothing was published`);
      if (hops === MAX_REDIRECTS) throw new UserError(`${url} redirects more than ${MAX_REDIRECTS} times; nothing was published`);
      at = next;
    }
  } catch (error) {
    idle.done();
    if (error instanceof UserError) throw error;
    throw new UserError(`cannot reach ${url.origin} (${networkCause(error)}) for ${url.pathname}; check --from and the network`);
  }
}

/** Ends a request whose body is not read. */
async function discard({ response, idle }: Fetched): Promise<void> {
  idle.done();
  await response.body?.cancel();
}

/** A site file's URL: each path segment percent-encoded. */
const fileUrl = (rel: string, base: URL) => new URL(rel.split('/').map(encodeURIComponent).join('/'), base);

/** A path a manifest may name: inside the copy, a file the site serves (not one the copy writes itself). */
function isSafePath(key: string): boolean {
  if (!key.startsWith('/') || key.length > 1024 || /[\\\0]/.test(key)) return false;
  const rel = key.slice(1);
  return rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..') && isListed(rel);
}

/** A path as a case-insensitive, normalizing disk (macOS, Windows) sees it. */
const folded = (rel: string) => rel.normalize('NFC').toLowerCase();

/** Bytes of one path segment: common file systems take 255; a site's own names are far shorter. */
const MAX_SEGMENT_BYTES = 255;

/**
 * Files hosts read as configuration, never serve: a site lists none of them, under any case (a
 * case-insensitive disk takes `_Routes.json` for `_routes.json`), nor a dot file (`.htaccess`,
 * Apache's) or a folder of Cloudflare's worker (`_worker.js/index.js`).
 */
const HOST_READS = /^(_redirects|_headers|_routes\.json|_worker\.js|netlify\.toml|web\.config|vercel\.json|staticwebapp\.config\.json)(\/|$)|(^|\/)\./;

/** Why the file `rel` of a manifest cannot be in a copy, or null. */
function pathFault(rel: string): string | null {
  if (HOST_READS.test(folded(rel))) return 'a host reads it as configuration';
  if (rel.split('/').some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)) return `a part of it is longer than ${MAX_SEGMENT_BYTES} bytes`;
  return null;
}

/**
 * Fails when two of `rels` cannot coexist in one folder: one a file, the other inside it as a
 * folder (`a/1.json` and `a/1.json/inner.json`), or two that one disk takes for the same file
 * (`a.json`, `A.json`). The host files the copy writes itself count too.
 */
function requireCoexisting(rels: string[], refuse: (why: string) => never): void {
  const files = new Map<string, string>();
  for (const rel of rels) {
    const other = files.get(folded(rel));
    if (other !== undefined) refuse(`it lists ${JSON.stringify(other.slice(0, 200))} and ${JSON.stringify(rel.slice(0, 200))}, one file on a case-insensitive disk`);
    files.set(folded(rel), rel);
  }
  for (const rel of rels) {
    const parts = folded(rel).split('/');
    for (let end = 1; end < parts.length; end++) {
      const file = files.get(parts.slice(0, end).join('/'));
      if (file !== undefined) refuse(`it lists ${JSON.stringify(file.slice(0, 200))} as a file and ${JSON.stringify(rel.slice(0, 200))} inside it`);
    }
  }
}

const isEntry = (value: unknown): value is Entry => {
  const entry = value as Entry;
  return typeof entry?.sha256 === 'string' && /^[0-9a-f]{64}$/.test(entry.sha256) && Number.isSafeInteger(entry.bytes) && entry.bytes >= 0;
};

function parseManifest(bytes: Buffer, url: URL): FileManifestJson {
  const refuse = (why: string): never => {
    throw new UserError(`${url} is not a file manifest of this API: ${why}`);
  };
  let manifest: FileManifestJson;
  try {
    manifest = JSON.parse(bytes.toString('utf8')) as FileManifestJson;
  } catch (error) {
    return refuse(`not JSON (${(error as Error).message})`);
  }
  if (typeof manifest?.truth_version !== 'string' || typeof manifest.files !== 'object' || !manifest.files) refuse('no truth_version and files');
  const versionFault = truthVersionFault(manifest.truth_version);
  // Quoted as JSON: a control character in it never reaches the terminal.
  if (versionFault) refuse(`its truth_version ${JSON.stringify(manifest.truth_version.slice(0, 200))} cannot be one: ${versionFault}`);
  let total = 0;
  for (const [key, entry] of Object.entries(manifest.files)) {
    if (!isSafePath(key)) refuse(`it lists ${JSON.stringify(key.slice(0, 200))}, which is not a path a copy may hold`);
    const fault = pathFault(key.slice(1));
    if (fault) refuse(`it lists ${JSON.stringify(key.slice(0, 200))}, which a copy may not hold: ${fault}`);
    if (!isEntry(entry)) refuse(`${JSON.stringify(key.slice(0, 200))} has no sha256 (64 hex digits) and bytes`);
    total += entry.bytes;
  }
  requireCoexisting([...Object.keys(manifest.files).map((key) => key.slice(1)), ...hostConfigFiles(), MANIFEST], refuse);
  if (total > MAX_COPY_BYTES) throw new UserError(`${url} lists ${total} bytes of files, more than a mirror copies (${MAX_COPY_BYTES})`);
  return manifest;
}

/** The chunks of a response body, each within the idle timeout of the last; leaving the loop early cancels the rest. */
async function* chunksOf({ response, idle }: Fetched): AsyncGenerator<Uint8Array> {
  const reader = response.body?.getReader();
  let done = !reader;
  try {
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) {
      idle.arm();
      yield chunk.value;
    }
    done = true;
  } finally {
    idle.done();
    if (!done) await reader!.cancel();
  }
}

/** The response body, refused past `limit` bytes. */
async function readLimited(fetched: Fetched, limit: number, url: URL): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunksOf(fetched)) {
    size += chunk.length;
    if (size > limit) throw new UserError(`${url} is larger than ${limit} bytes; refusing it`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The response to GET `url`; null when the site has no such file (HTTP 404), any other failure status fails the mirror. */
async function getFound(source: Source, url: URL): Promise<Fetched | null> {
  const fetched = await get(url, source);
  const { status, ok } = fetched.response;
  if (ok) return fetched;
  await discard(fetched);
  if (status === 404) return null;
  throw new UserError(`GET ${url}: HTTP ${status}`);
}

async function getManifest(source: Source, url: URL): Promise<Fetched> {
  const fetched = await getFound(source, url);
  if (!fetched) throw new UserError(`${source.base} has no ${MANIFEST} (HTTP 404): it is not a site of this API, or one built before sites listed their files`);
  return fetched;
}

/** The site's manifest.blocks.json: its bytes and the manifest's digest it tells; null for a site that has none (built before it). */
async function fetchManifestBlocks(source: Source): Promise<{ bytes: Buffer; digest: FileDigest; sums: BlockSums } | null> {
  const url = new URL(MANIFEST_BLOCKS, source.base);
  const fetched = await getFound(source, url);
  if (!fetched) return null;
  const bytes = await readLimited(fetched, MAX_MANIFEST_BLOCKS_BYTES, url);
  let digest: (FileDigest & { block_size?: number }) | undefined;
  try {
    digest = JSON.parse(bytes.toString('utf8')) as FileDigest;
  } catch {
    // told below
  }
  const { min, max } = MANIFEST_BLOCK_SIZES;
  const blockSize = digest?.block_size;
  const sums = isEntry(digest) && digest.bytes <= MAX_MANIFEST_BYTES && Number.isSafeInteger(blockSize) && blockSize! >= min && blockSize! <= max
    ? BlockSums.parse(digest.blocks, digest.bytes, blockSize) : null;
  if (!sums) {
    throw new UserError(`${url} is not the block list of a manifest: it needs sha256 (64 hex digits), bytes (at most ${MAX_MANIFEST_BYTES}), block_size (${min} to ${max}) and the blocks of those bytes`);
  }
  return { bytes, digest: digest!, sums };
}

/** The site's manifest: from the copy's old one and byte ranges of what changed when the site tells its blocks, else whole. */
async function fetchManifest(source: Source, out: string) {
  const url = new URL(MANIFEST, source.base);
  const blocks = await fetchManifestBlocks(source);
  if (!blocks) {
    const bytes = await readLimited(await getManifest(source, url), MAX_MANIFEST_BYTES, url);
    return { manifest: parseManifest(bytes, url), bytes, blocks: null, fetched: bytes.length, reused: 0, ranges: 0 };
  }
  const bytes = Buffer.alloc(blocks.digest.bytes);
  const sink = new Assembly(blocks.digest, { write: async (chunk, position) => bytes.set(chunk, position) });
  await fetchInto(sink, blocks.sums, source, url, path.join(out, MANIFEST), () => getManifest(source, url));
  const mismatch = sink.mismatch();
  if (mismatch) throw new UserError(`hash mismatch: ${url} gave ${mismatch}, the site's ${MANIFEST_BLOCKS} lists ${blocks.digest.bytes} bytes with ${blocks.digest.sha256} (was the site deployed while the mirror ran?); nothing was published`);
  return { manifest: parseManifest(bytes, url), bytes, blocks: blocks.bytes, fetched: sink.fetched, reused: sink.reused, ranges: sink.ranges };
}

/** The files of the previous copy by root-relative path, from its own manifest; none when it has none. */
function copyManifest(out: string): Record<string, Entry> {
  try {
    const files = (JSON.parse(fs.readFileSync(path.join(out, MANIFEST), 'utf8')) as FileManifestJson).files;
    return typeof files === 'object' && files ? files : {};
  } catch {
    return {};
  }
}

/** `file` when its bytes are what `entry` names (read a chunk at a time), else null (absent, changed or unreadable). */
function verified(file: string, entry: Entry): string | null {
  try {
    if (fs.statSync(file).size !== entry.bytes) return null;
    return digestFile(file).sha256 === entry.sha256 ? file : null;
  } catch {
    return null;
  }
}

/** Bytes [start, end) of the file at `url` (of `total` bytes): a 206's body, or the whole file from a server that ignores Range (200). */
async function getRange(source: Source, url: URL, start: number, end: number, total: number): Promise<RangeAnswer> {
  // Offsets count the file's own bytes: no content coding.
  const fetched = await get(url, source, { bytes: end - start, headers: { range: `bytes=${start}-${end - 1}`, 'accept-encoding': 'identity' } });
  const { status, headers } = fetched.response;
  if (status === 200) return { whole: chunksOf(fetched) };
  const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/i.exec(headers.get('content-range') ?? '');
  if (status === 206 && range && Number(range[1]) === start && Number(range[2]) === end - 1 && (range[3] === '*' || Number(range[3]) === total)) {
    return { range: chunksOf(fetched) };
  }
  await discard(fetched);
  throw new UserError(`GET ${url} bytes ${start}-${end - 1}: HTTP ${status} ${headers.get('content-range') ?? 'without Content-Range'}, not those bytes of ${total}; nothing was published`);
}

/**
 * Writes the file at `url` into `sink`: from the blocks of `old` (the copy's version, when it
 * has one) and byte ranges of the others when the listing tells its block `sums`; else, or when
 * that does not give the listed bytes (a block sum that lied), the whole file `whole` answers.
 */
async function fetchInto(sink: Assembly, sums: BlockSums | null, source: Source, url: URL, old: string, whole: () => Promise<Fetched>): Promise<void> {
  const { expected } = sink;
  if (sums && fs.statSync(old, { throwIfNoEntry: false })?.isFile()) {
    await syncBlocks(old, sums, sink, (start, end) => getRange(source, url, start, end, expected.bytes), url, source.matching);
    if (!sink.mismatch()) return;
    sink.restart();
  }
  for await (const chunk of chunksOf(await whole())) if (!(await sink.add(chunk, 'site'))) break;
}

/** A GET of a file the manifest lists: a failure status fails the mirror. */
async function getListed(source: Source, url: URL, key: string, bytes: number): Promise<Fetched> {
  const fetched = await get(url, source, { bytes });
  const { status, ok } = fetched.response;
  // Hosts serve the JSON 404 body only as the answer to unknown /api/ paths, with status 404.
  if (!ok && !(key.slice(1) === NOT_FOUND_FILE && status === 404)) {
    await discard(fetched);
    throw new UserError(`GET ${url}: HTTP ${status}, though the site's manifest lists ${key}; nothing was published`);
  }
  return fetched;
}

/**
 * Downloads `key` into the cache as `<sha256>` (from the blocks of `old`, its version in the
 * copy, where it can): written through the hash into a `.part` file, refused past the listed
 * size, renamed only once size and hash match the manifest.
 */
async function download(source: Source, key: string, entry: Entry, cache: string, old: string): Promise<Assembly> {
  const url = fileUrl(key.slice(1), source.base);
  const part = path.join(cache, `${entry.sha256}.part`);
  // A new file, never an existing one or what a link there leads to (its folder is the user's own: publish/privateCache.ts).
  await fs.promises.rm(part, { force: true });
  const file = await fs.promises.open(part, 'wx');
  const store: Store = { write: (chunk, position) => file.write(chunk, 0, chunk.length, position) };
  const sink = new Assembly(entry, store);
  try {
    await fetchInto(sink, BlockSums.parse(entry.blocks, entry.bytes), source, url, old, () => getListed(source, url, key, entry.bytes));
  } finally {
    await file.close();
  }
  const mismatch = sink.mismatch();
  if (mismatch) {
    await fs.promises.rm(part, { force: true });
    throw new UserError(`hash mismatch: ${url} gave ${mismatch}, the site's manifest lists ${entry.bytes} bytes with ${entry.sha256}; nothing was published`);
  }
  await fs.promises.rename(part, path.join(cache, entry.sha256));
  return sink;
}

/** Runs `work` on every item, at most `limit` at once; the first failure stops the rest from starting. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      try {
        await work(items[next++]);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A file still to download: its site path, its manifest entry, and the copy's file likeliest to share its blocks. */
type Needed = { key: string; entry: Entry; old: string };

interface Plan {
  /** Files already at hand (in the copy or the cache) by site path: where they are. */
  have: Map<string, string>;
  /** One path per content still to download (paths with equal content share it). */
  need: Map<string, Needed>;
  fromCopy: number;
  fromCache: number;
}

/** A site path's folder and extension: a file renamed (such as a content-addressed one) keeps them. */
const kindOf = (key: string) => `${path.posix.dirname(key)}/*${path.posix.extname(key)}`;

/** How many blocks two listings' block sums share (each block's weak and strong sums, as the manifest lists them). */
function sharedBlocks(a: string, b: string | undefined): number {
  const records = (base64: string) => (base64.match(/.{16}/g) ?? []); // 12 bytes of sums per block: 16 base64 digits
  const theirs = new Set(records(b ?? ''));
  return records(a).filter((record) => theirs.has(record)).length;
}

/**
 * The copy's file whose blocks a new version of `key` likely shares: its own, else (a path the
 * copy lacks, such as a bulk part named by its content) the file of the same folder and extension
 * the site no longer lists that shares the most blocks with it, by the sums both manifests list
 * (a part cut by content keeps whole pages), ties to the nearest in size.
 */
function oldVersion(key: string, entry: Entry, previous: Record<string, Entry>, dropped: Map<string, string[]>, out: string): string {
  let basis = key;
  if (!previous[key] && entry.blocks) {
    const score = (old: string) => [sharedBlocks(entry.blocks!, previous[old].blocks), -Math.abs(previous[old].bytes - entry.bytes)];
    const better = (old: string, best: string) => {
      const [[shared, near], [bestShared, bestNear]] = [score(old), score(best)];
      return shared > bestShared || (shared === bestShared && near > bestNear);
    };
    basis = (dropped.get(kindOf(key)) ?? []).reduce((best, old) => (best === key || better(old, best) ? old : best), key);
  }
  return path.join(out, basis.slice(1));
}

function plan(manifest: FileManifestJson, out: string, cache: string): Plan {
  const previous = copyManifest(out);
  const dropped = new Map<string, string[]>();
  for (const key of Object.keys(previous)) {
    if (!manifest.files[key] && isSafePath(key) && isEntry(previous[key])) (dropped.get(kindOf(key)) ?? dropped.set(kindOf(key), []).get(kindOf(key))!).push(key);
  }
  const result: Plan = { have: new Map(), need: new Map(), fromCopy: 0, fromCache: 0 };
  for (const [key, entry] of Object.entries(manifest.files)) {
    const rel = key.slice(1);
    const local = previous[key]?.sha256 === entry.sha256 ? verified(path.join(out, rel), entry) : null;
    const cached = local ?? verified(path.join(cache, entry.sha256), entry);
    if (cached) {
      result.have.set(rel, cached);
      if (local) result.fromCopy++;
      else result.fromCache++;
    } else if (!result.need.has(entry.sha256)) {
      result.need.set(entry.sha256, { key, entry, old: oldVersion(key, entry, previous, dropped, out) });
    }
  }
  return result;
}

/** The items for which `test` holds, and the others. */
function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}

/**
 * Makes what it can of the `derivable` downloads from the site's other files (mirror/derived.ts);
 * returns how many. Making them is a saving, never a requirement: when it fails, the report says
 * so and they are downloaded.
 */
async function derive(file: SiteFile, copy: SiteFile, derivable: Needed[], downloads: string, scratch: string, report: BuildReport): Promise<number> {
  if (!derivable.length) return 0;
  try {
    const made = await deriveFiles(file, copy, new Map(derivable.map(({ key, entry }) => [key.slice(1), entry])), downloads, path.join(scratch, 'derived'));
    return made.size;
  } catch (error) {
    report.warn(`the bulk parts, card packs and histories could not be made from the site's own files (${(error as Error).message.slice(0, 200)}): downloaded instead`);
    return 0;
  }
}

/** Mirrors the site at `from` into `out`. A failure is a StageError naming its stage; `out` is then as it was. */
export async function mirror(options: MirrorOptions): Promise<MirrorResult> {
  const source: Source = {
    base: siteUrl(options.from),
    idleSeconds: options.idleSeconds ?? DEFAULT_IDLE_SECONDS,
    deadlineSeconds: options.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS,
    matching: new MatchBudget(),
  };
  const out = path.resolve(options.out);
  const report = new BuildReport(options.progress);
  const session = PublishSession.open(out);
  report.warnAll(session.recovered);
  const { downloads } = session.layout;
  const result: Omit<MirrorResult, 'truthVersion'> = { report, fetched: [], fetchedBytes: 0, reusedBytes: 0, ranges: 0, fromCopy: 0, fromCache: 0, derived: 0 };
  const count = (transfer: { fetched: number; reused: number; ranges: number }) => {
    result.fetchedBytes += transfer.fetched;
    result.reusedBytes += transfer.reused;
    result.ranges += transfer.ranges;
  };
  let truthVersion: string;
  try {
    const { manifest, bytes, blocks, ...transfer } = await report.stage('manifest', () => fetchManifest(source, out));
    count(transfer);
    truthVersion = manifest.truth_version;
    // The copy is a function of the site's manifest and this generator (its host files): equal fingerprints, nothing to do.
    const upToDate = session.begin(buildFingerprint(sha256(bytes), { mirror: true }));
    if (upToDate) report.replay(upToDate.report, upToDate.files);
    else {
      fs.mkdirSync(downloads, { recursive: true });
      const { have, need, fromCopy, fromCache } = await report.stage('compare', () => plan(manifest, out, downloads));
      Object.assign(result, { fromCopy, fromCache });
      const fetchAll = (items: Needed[]) => eachLimited(items, options.concurrency ?? DEFAULT_CONCURRENCY, async ({ key, entry, old }) => {
        count(await download(source, key, entry, downloads, old));
        result.fetched.push(key);
        report.advance(result.fetched.length, need.size);
      });
      const [derivable, fetched] = partition([...need.values()], ({ key }) => options.derive !== false && isDerived(key.slice(1)));
      await report.stage('fetch', async () => {
        report.advance(0, need.size);
        await fetchAll(fetched);
      });
      const siteFile = (rel: string) => {
        const entry = manifest.files[`/${rel}`];
        const file = have.get(rel) ?? (entry && path.join(downloads, entry.sha256));
        return file && fs.existsSync(file) ? fs.readFileSync(file) : null;
      };
      const copyFile = (rel: string) => (fs.existsSync(path.join(out, rel)) ? fs.readFileSync(path.join(out, rel)) : null);
      result.derived = await report.stage('derive', () => derive(siteFile, copyFile, derivable, downloads, session.layout.scratch, report));
      const underived = derivable.filter(({ entry }) => !fs.existsSync(path.join(downloads, entry.sha256)));
      if (underived.length) await report.stage('fetch underived', () => fetchAll(underived));
      const files = session.files((done, total) => report.advance(done, total));
      const sourceOf = (rel: string) => have.get(rel) ?? path.join(downloads, manifest.files[`/${rel}`].sha256);
      const listed = Object.keys(manifest.files).sort().map((key) => key.slice(1));
      for (const rel of listed) {
        const file = sourceOf(rel);
        // A file of the copy is carried on, unread where the copy's build record trusts it; any other is read in, one at a
        // time (the staging keeps no bytes).
        if (file === path.join(out, rel)) files.carry(rel, file);
        else files.set(rel, fs.readFileSync(file));
      }
      // Checked again either way, once hashed: a file changed since it was verified is not published.
      await files.settled();
      const changed = listed.find((rel) => files.digest(rel).sha256 !== manifest.files[`/${rel}`].sha256);
      if (changed !== undefined) throw new UserError(`${sourceOf(changed)} changed while the mirror ran; nothing was published`);
      renderHostRules(files);
      files.set(MANIFEST, bytes);
      if (blocks) files.set(MANIFEST_BLOCKS, blocks);
      report.countFiles(files.keys());
      await report.stage('write', async () => {
        Object.assign(report, await session.finishStaging(files));
        await session.publish(undefined, report.toJSON());
      });
    }
  } catch (error) {
    await session.close(report.toJSON(), error);
    throw error;
  }
  await session.close(report.toJSON());
  // Published: the verified downloads are in the copy now.
  fs.rmSync(downloads, { recursive: true, force: true });
  result.fetched.sort();
  return { ...result, truthVersion };
}
