// A staging writer (see staging.ts), on its own thread so that files are written while
// the main thread is still rendering the rest. Plain JavaScript: a worker runs outside the
// TypeScript loader of tsx and vitest. A writer serves one build after another (staging.ts
// keeps idle writers for the next build of the process).
//
// Messages: begin {out, staging, old, inFlight, blockSize, blockSumsMinBytes} (the build to serve
// from now on) -> nothing; end (the build is done with this writer: its state goes, the published
// hashes with it) -> nothing; files {rels, units, ends, bytes, known?} (the files' bytes end to
// end in one buffer, each ending at its `ends` entry; `known`: a file's SHA-256 where the build
// already took it) -> staged {stats, hashes, blocks} (per file of the batch, in its
// order: three numbers, size, mtimeMs, ino of a written file, -1 and two zeros for a kept one; its
// SHA-256 in hex; its block sums in base64, null below blockSumsMinBytes; no path, which the build
// has); keep {rels} (published files carried on: linked into the staged site now, while the build
// goes on) -> nothing; link -> linked; sync -> linked (every message before it handled); any
// failure -> error {message, code},
// after which the writer ignores everything (it is ended, never given another build). Each
// files message taken off the queue, staged or ignored, counts down the build's batches in
// flight by its `units` (`inFlight`, shared with the main thread, which waits while too many are queued).
import fs from 'node:fs';
import path from 'node:path';
import { hash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { blockSumBytes } from '../blockSumBytes.js';

/**
 * The build served now (none between builds): its folders, the published files' trusted content hash (null when
 * only a byte comparison can tell), the files found unchanged (linked into the staged site
 * at the end), the folders made so far.
 * @type {{ out: string, staging: string, oldHashes: Map<string, string | null>, kept: string[], folders: Set<string>, inFlight: Int32Array, blockSize: number, blockSumsMinBytes: number }}
 */
let build;
let failed = false;

/** @param {{ out: string, staging: string, old: [string, string | null][], inFlight: Int32Array, blockSize: number, blockSumsMinBytes: number }} message */
function begin({ out, staging, old, inFlight, blockSize, blockSumsMinBytes }) {
  build = { out, staging, inFlight, blockSize, blockSumsMinBytes, oldHashes: new Map(old), kept: [], folders: new Set([staging]) };
}

/** A file's block sums (base64), null when it is too small to be listed with them. */
const blocksOf = (bytes) => (bytes.length < build.blockSumsMinBytes ? null : blockSumBytes(bytes, build.blockSize).toString('base64'));

function ensureFolder(file) {
  const dir = path.dirname(file);
  if (!build.folders.has(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    build.folders.add(dir);
  }
}

function isKept(rel, bytes, digest) {
  if (!build.oldHashes.has(rel)) return false;
  const known = build.oldHashes.get(rel);
  if (known !== null) return known === digest;
  const file = path.join(build.out, rel);
  return fs.statSync(file).size === bytes.length && fs.readFileSync(file).equals(bytes);
}

/** Stages one file and puts its stats at `at` of `stats` (see the messages above). */
function stageFile(rel, bytes, digest, stats, at) {
  if (isKept(rel, bytes, digest)) {
    build.kept.push(rel);
    stats[at] = -1;
    return;
  }
  const file = `${build.staging}/${rel}`;
  ensureFolder(file);
  const fd = fs.openSync(file, 'w');
  try {
    for (let offset = 0; offset < bytes.length; ) offset += fs.writeSync(fd, bytes, offset);
    const { size, mtimeMs, ino } = fs.fstatSync(fd); // through the open file: no second path lookup
    [stats[at], stats[at + 1], stats[at + 2]] = [size, mtimeMs, ino];
  } finally {
    fs.closeSync(fd);
  }
}

/** Unchanged files join the staged site as hard links: same inode, same modification time. */
function linkKept(rels) {
  for (const rel of rels) {
    const file = path.join(build.staging, rel);
    ensureFolder(file);
    fs.linkSync(path.join(build.out, rel), file);
  }
}

function handle(message) {
  if (message.type === 'begin') {
    begin(message);
  } else if (message.type === 'end') {
    build = undefined;
  } else if (message.type === 'files') {
    const { rels, ends } = message;
    const stats = new Float64Array(3 * rels.length);
    const hashes = [];
    const blocks = [];
    rels.forEach((rel, i) => {
      const bytes = Buffer.from(message.bytes, ends[i - 1] ?? 0, ends[i] - (ends[i - 1] ?? 0));
      hashes.push(message.known?.[i] ?? hash('sha256', bytes, 'hex'));
      blocks.push(blocksOf(bytes));
      stageFile(rel, bytes, hashes[i], stats, 3 * i);
    });
    parentPort.postMessage({ type: 'staged', stats, hashes, blocks }, [stats.buffer]);
  } else if (message.type === 'keep') {
    linkKept(message.rels);
  } else if (message.type === 'link') {
    linkKept(build.kept);
    parentPort.postMessage({ type: 'linked' });
  } else if (message.type === 'sync') {
    parentPort.postMessage({ type: 'linked' });
  }
}

parentPort.on('message', (message) => {
  try {
    if (!failed) handle(message);
  } catch (error) {
    failed = true;
    parentPort.postMessage({ type: 'error', message: error.message, code: error.code });
  } finally {
    if (message.type === 'files' && build) {
      Atomics.sub(build.inFlight, 0, message.units);
      Atomics.notify(build.inFlight, 0);
    }
  }
});
