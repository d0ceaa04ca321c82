// A staging writer (see staging.ts), on its own thread so that files are written while
// the main thread is still rendering the rest. Plain JavaScript: a worker runs outside the
// TypeScript loader of tsx and vitest.
//
// Messages: files {rels, hashes, ends, bytes} (the files' bytes end to end in one buffer,
// each ending at its `ends` entry) -> staged {records} ([rel, hash] for a kept file,
// [rel, hash, size, mtimeMs, ino] for a written one); link -> linked; any failure ->
// error {message, code}, after which the writer ignores everything. Each files message
// taken off the queue, staged or ignored, counts down the batches in flight (`inFlight`, shared with
// the main thread, which waits while too many are queued).
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ out: string, staging: string, old: [string, string | null][], inFlight: Int32Array }} */
const { out, staging, old, inFlight } = workerData;
/** Published files: their trusted content hash, or null when only a byte comparison can tell. */
const oldHashes = new Map(old);
/** Files this writer found unchanged, to be linked into the staged site. */
const kept = [];
const folders = new Set([staging]);
let failed = false;

function ensureFolder(file) {
  const dir = path.dirname(file);
  if (!folders.has(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    folders.add(dir);
  }
}

function isKept(rel, bytes, digest) {
  if (!oldHashes.has(rel)) return false;
  const known = oldHashes.get(rel);
  if (known !== null) return known === digest;
  const file = path.join(out, rel);
  return fs.statSync(file).size === bytes.length && fs.readFileSync(file).equals(bytes);
}

function stageFile(rel, bytes, digest) {
  if (isKept(rel, bytes, digest)) {
    kept.push(rel);
    return [rel, digest];
  }
  const file = `${staging}/${rel}`;
  ensureFolder(file);
  const fd = fs.openSync(file, 'w');
  try {
    for (let offset = 0; offset < bytes.length; ) offset += fs.writeSync(fd, bytes, offset);
    const { size, mtimeMs, ino } = fs.fstatSync(fd); // through the open file: no second path lookup
    return [rel, digest, size, mtimeMs, ino];
  } finally {
    fs.closeSync(fd);
  }
}

/** Unchanged files join the staged site as hard links: same inode, same modification time. */
function linkKept() {
  for (const rel of kept) {
    const file = path.join(staging, rel);
    ensureFolder(file);
    fs.linkSync(path.join(out, rel), file);
  }
}

function handle(message) {
  if (message.type === 'files') {
    const { rels, hashes, ends } = message;
    const records = rels.map((rel, i) => stageFile(rel, Buffer.from(message.bytes, ends[i - 1] ?? 0, ends[i] - (ends[i - 1] ?? 0)), hashes[i]));
    parentPort.postMessage({ type: 'staged', records });
  } else if (message.type === 'link') {
    linkKept();
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
    if (message.type === 'files') {
      Atomics.sub(inFlight, 0, 1);
      Atomics.notify(inFlight, 0);
    }
  }
});
