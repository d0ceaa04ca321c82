/**
 * The mirror's block sync (generator/build/blockSums.ts, generator/build/mirror/blockSync.ts): blocks found
 * in an old file at any offset, and a mirror of the sample's next version (one card changed,
 * so the files after it shift) onto a copy of the old one over real HTTP, with the bytes the
 * site sent counted on the wire by a proxy: http-server and npm start answering ranges (206),
 * a host that ignores Range (200), and a manifest whose block sums lie.
 */
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import fs from 'fs-extra';
import { afterEach, describe, expect, it } from 'vitest';
import { mirror } from '../../generator/build/mirror/mirror.ts';
import { MatchBudget, findBlocks, piecesOf } from '../../generator/build/mirror/blockSync.ts';
import { BlockSums, RollingSum, blockSums } from '../../generator/build/blockSums.ts';
import { BLOCK_SIZE, BLOCK_SUMS_MIN_BYTES } from '../../generator/contract/format.ts';
import { startServer } from '../../generator/hosts/node/runtime/server.ts';
import { byteRange } from '../../generator/runtime/edge/http.ts';
import { endpoints } from '../../generator/contract/endpoints.ts';
import type { FileManifestJson } from '../../generator/contract/schemas.ts';
import { build } from '../../generator/build/build.ts';
import { buildSample, copySample, copySite, once, tempDir } from '../helpers.ts';
import { contentDiff, editDump, snapshot, writeManifest } from '../exportEdits.ts';
import { serveStatic } from '../staticServer.ts';
import { netlifyStatic, serveHttp } from '../netlifyStatic.ts';

const MANIFEST = endpoints.fileManifest.file();

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** A TCP proxy in front of `target` that counts the bytes the site sends through it: status lines, headers and bodies. */
async function countingProxy(target: string): Promise<{ url: string; received: () => number }> {
  const { hostname, port } = new URL(target);
  let received = 0;
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const site = connect(Number(port), hostname);
    site.on('data', (chunk: Buffer) => (received += chunk.length));
    client.pipe(site).pipe(client);
    for (const socket of [client, site]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => [client, site].forEach((s) => s.destroy()));
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  running.push({
    close: () => new Promise((resolve) => {
      sockets.forEach((socket) => socket.destroy());
      proxy.close(() => resolve());
    }),
  });
  return { url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}/`, received: () => received };
}

/** Bytes with a few edits: some inserted, some removed, some changed in place. */
function edited(bytes: Buffer): Buffer {
  return Buffer.concat([
    bytes.subarray(0, 20_000), Buffer.from('an insertion'), // shifts everything after it
    bytes.subarray(20_000, 90_000), bytes.subarray(90_100, 150_000), // 100 bytes removed
    Buffer.from('X'), bytes.subarray(150_001), // one changed in place
  ]);
}

describe('block sums', () => {
  it('are published as documented: per block, b << 16 | a (big-endian), then the first 8 bytes of its SHA-256', () => {
    const bytes = randomBytes(BLOCK_SIZE + 100);
    const sums = Buffer.from(blockSums(bytes), 'base64');
    expect(sums.length).toBe(2 * 12);
    for (const [index, block] of [bytes.subarray(0, BLOCK_SIZE), bytes.subarray(BLOCK_SIZE)].entries()) {
      const a = block.reduce((sum, byte) => sum + byte, 0) % 65536;
      const b = block.reduce((sum, byte, i) => sum + (block.length - i) * byte, 0) % 65536;
      expect(sums.readUInt32BE(index * 12)).toBe(b * 65536 + a);
      expect(sums.subarray(index * 12 + 4, index * 12 + 12)).toEqual(createHash('sha256').update(block).digest().subarray(0, 8));
    }
  });

  it('roll: the sum of a window slid by one byte is the sum computed afresh', () => {
    const bytes = randomBytes(BLOCK_SIZE * 3);
    const rolling = new RollingSum().reset(bytes, 0, BLOCK_SIZE);
    for (let start = 1; start <= BLOCK_SIZE * 2; start++) {
      rolling.roll(bytes[start - 1], bytes[start - 1 + BLOCK_SIZE], BLOCK_SIZE);
      if (start % 997 === 0 || start === BLOCK_SIZE * 2) expect(rolling.value, `at ${start}`).toBe(new RollingSum().reset(bytes, start, start + BLOCK_SIZE).value);
    }
  });

  it('finds the new file\'s blocks in the old one at any offset: only blocks touched by an edit are left to fetch', async () => {
    const old = randomBytes(BLOCK_SIZE * 30 + 1234);
    const next = edited(old);
    const file = path.join(await tempDir(), 'old');
    await fs.writeFile(file, old);
    const sums = BlockSums.parse(blockSums(next), next.length)!;
    const pieces = piecesOf(findBlocks(file, sums), sums);
    const fetched = pieces.filter((p) => p.from === 'site');
    // Three edits touch at most two blocks each; the short last block is found at the old file's end.
    expect(fetched.length).toBeLessThanOrEqual(3);
    expect(fetched.reduce((n, p) => n + p.end - p.start, 0)).toBeLessThanOrEqual(6 * BLOCK_SIZE);
    const last = pieces.at(-1)!;
    expect(last.from === 'site' ? 'fetched' : last.from + last.end - last.start).toBe(old.length);
    // Rebuilt from the pieces, the bytes are the new file's.
    const rebuilt = Buffer.concat(pieces.map((p) => (p.from === 'site' ? next.subarray(p.start, p.end) : old.subarray(p.from, p.from + p.end - p.start))));
    expect(rebuilt.equals(next)).toBe(true);
  });

  it('sums that lie about the old file\'s zero runs cost a bounded scan, per file and over a mirror', async () => {
    const file = path.join(await tempDir(), 'old');
    await fs.writeFile(file, Buffer.alloc(2 * 1024 * 1024)); // zeros, as SQLite pages hold
    // Every block said to have the weak sum of an all-zero window (0), with strong sums no window has.
    const blocks = 64;
    const lying = Buffer.alloc(blocks * 12);
    for (let i = 0; i < blocks; i++) randomBytes(8).copy(lying, i * 12 + 4);
    const sums = BlockSums.parse(lying.toString('base64'), blocks * BLOCK_SIZE)!;
    const started = performance.now();
    const budget = new MatchBudget();
    expect(findBlocks(file, sums, budget).every((offset) => offset < 0)).toBe(true);
    // A strong sum at each of 2 Mi positions took 20 s and more; one per block and 64 more, milliseconds.
    expect(budget.spent).toBeLessThanOrEqual((blocks + 64) * BLOCK_SIZE);
    expect(performance.now() - started).toBeLessThan(1000);
    // Over a mirror: once its bytes are spent, no old file is scanned.
    const small = new MatchBudget(BLOCK_SIZE * 10);
    findBlocks(file, sums, small);
    expect(small.spent).toBe(BLOCK_SIZE * 10);
    findBlocks(file, sums, small);
    expect(small.spent).toBe(BLOCK_SIZE * 10);
    // An honest file is still found whole.
    const honest = BlockSums.parse(blockSums(Buffer.alloc(blocks * BLOCK_SIZE)), blocks * BLOCK_SIZE)!;
    expect(findBlocks(file, honest, new MatchBudget()).every((offset) => offset >= 0)).toBe(true);
  });

  it('a list that is not the sums of that many bytes is refused', () => {
    const sums = blockSums(randomBytes(BLOCK_SIZE * 2 + 1));
    expect(BlockSums.parse(sums, BLOCK_SIZE * 2 + 1)?.count).toBe(3);
    expect(BlockSums.parse(sums, BLOCK_SIZE * 2)).toBeNull();
    expect(BlockSums.parse(`${sums}=`, BLOCK_SIZE * 2 + 1)).toBeNull();
    expect(BlockSums.parse(42, BLOCK_SIZE * 2 + 1)).toBeNull();
  });
});

describe('byte ranges of static /api/ files (npm start, the Pages worker)', () => {
  const file = Buffer.from('0123456789');
  const answer = async (range: string, ifRange?: string) => {
    const request = new Request('http://site/api/v1/bulk/x.jsonl', { headers: { range, ...(ifRange ? { 'if-range': ifRange } : {}) } });
    const response = await byteRange(request, new Response(file, { headers: { etag: '"e"' } }));
    return [response.status, response.headers.get('content-range'), await response.text()];
  };

  it('one range: 206 with those bytes; several, a malformed one or another If-Range: 200 whole; past the end: 416', async () => {
    expect(await answer('bytes=2-4')).toEqual([206, 'bytes 2-4/10', '234']);
    expect(await answer('bytes=7-')).toEqual([206, 'bytes 7-9/10', '789']);
    expect(await answer('bytes=-3')).toEqual([206, 'bytes 7-9/10', '789']);
    expect(await answer('bytes=8-99')).toEqual([206, 'bytes 8-9/10', '89']);
    expect(await answer('bytes=2-4', '"e"')).toEqual([206, 'bytes 2-4/10', '234']);
    for (const whole of ['bytes=0-1,4-5', 'bytes=4-2', 'items=0-1', 'bytes=-']) expect(await answer(whole), whole).toEqual([200, null, '0123456789']);
    expect(await answer('bytes=2-4', '"other"')).toEqual([200, null, '0123456789']);
    expect(await answer('bytes=10-')).toEqual([416, 'bytes */10', '']);
  });
});

/**
 * The sample (the old version) and its next version, built --since it: one card's smile a digit
 * longer, so every file holding it shifts after it.
 */
const nextVersion = once(async () => {
  const { out: old } = await buildSample();
  const input = await copySample();
  await fs.writeJson(path.join(input, 'meta.json'), { truth_version: 'next', region: 'jp' });
  await editDump(input, 'unit.sql', "UPDATE unit_m SET smile_max = 12530 WHERE unit_number = 10;");
  const out = path.join(await tempDir(), 'public');
  await build({ input, out, since: old });
  const [before, after]: FileManifestJson[] = await Promise.all([fs.readJson(path.join(old, MANIFEST)), fs.readJson(path.join(out, MANIFEST))]);
  // Files whose bytes changed, and bulk parts new under their content's name.
  const changed = Object.entries(after.files).filter(([key, entry]) => before.files[key]?.sha256 !== entry.sha256 && (before.files[key] || key.includes('/bulk/parts/')));
  return { old, out, changed };
});

/** Mirrors `site` (its URL) onto a copy of the old version, through a counting proxy. */
async function mirrorOntoOld(site: string) {
  const { old } = await nextVersion();
  const proxy = await countingProxy(site);
  const out = await copySite(old);
  // The files the mirror would make itself (mirror/derived.ts) are fetched here: the block sync is the subject.
  const result = await mirror({ from: proxy.url, out, derive: false });
  return { out, result, wire: proxy.received() };
}

describe('npm run mirror of an update: only the blocks that changed', () => {
  it.each([
    ['http-server (a plain static host)', serveStatic],
    ['npm start', (site: string) => startServer(site, 0)],
  ])('through %s, which answers ranges: a copy equal to the new site, for a fraction of the changed files\' bytes', async (name, serve) => {
    const { out: site, changed } = await nextVersion();
    const large = changed.filter(([, entry]) => entry.blocks);
    expect(large.map(([key]) => key)).toEqual(expect.arrayContaining(['/api/v1/pack/card/0.json']));
    expect(large.some(([key]) => key.startsWith('/api/v1/bulk/parts/cards.jsonl/'))).toBe(true);
    const server = await serve(site);
    running.push(server);
    const { out, result, wire } = await mirrorOntoOld(server.url);
    expect(contentDiff((await snapshot(site)).files, (await snapshot(out)).files)).toEqual([]);
    const changedBytes = changed.reduce((n, [, entry]) => n + entry.bytes, 0) + (await fs.stat(path.join(site, MANIFEST))).size;
    console.log(`mirror of a one-card update of the sample through ${name}: ${wire} bytes on the wire (${result.fetchedBytes} received in bodies, ${result.ranges} ranges, ${result.reusedBytes} reused); changed files ${changedBytes} bytes`);
    expect(result.ranges).toBeGreaterThan(large.length); // each large file and the manifest in ranges
    expect(result.reusedBytes).toBeGreaterThan(large.reduce((n, [, entry]) => n + entry.bytes, 0) / 2);
    expect(wire).toBeGreaterThanOrEqual(result.fetchedBytes);
    expect(wire).toBeLessThan(changedBytes / 4);
  });

  it('through a server that ignores Range (200 with the whole file: the Netlify-like host of the host tests): the same copy, for the whole files', async () => {
    const { out: site, changed } = await nextVersion();
    const server = await serveHttp(await netlifyStatic(site));
    running.push(server);
    const { out, result } = await mirrorOntoOld(server.url);
    expect(contentDiff((await snapshot(site)).files, (await snapshot(out)).files)).toEqual([]);
    expect([result.ranges, result.reusedBytes]).toEqual([0, 0]);
    // Every changed content whole (paths with equal bytes share one download).
    const contents = new Map(changed.map(([, entry]) => [entry.sha256, entry.bytes]));
    expect(result.fetchedBytes).toBeGreaterThanOrEqual([...contents.values()].reduce((n, bytes) => n + bytes, 0));
  });

  it('block sums that lie fail the assembled file\'s check: that file is fetched whole, and the copy is still the site', async () => {
    const { out: built, old } = await nextVersion();
    const site = await copySite(built);
    const key = '/api/v1/pack/card/0.json';
    const manifest: FileManifestJson = await fs.readJson(path.join(site, MANIFEST));
    const entry = manifest.files[key];
    // Each block the old file lacks is said to be the old file's block at its index: the old bytes are taken for it, wrongly.
    const [oldSums, newSums] = [blockSums(await fs.readFile(path.join(old, key))), entry.blocks!].map((b) => Buffer.from(b, 'base64'));
    const lying = Buffer.from(newSums);
    const full = Math.floor(Math.min(oldSums.length, newSums.length) / 12) - 1;
    for (let i = 0; i < full; i++) if (!lying.subarray(i * 12, i * 12 + 12).equals(oldSums.subarray(i * 12, i * 12 + 12))) oldSums.copy(lying, i * 12, i * 12, i * 12 + 12);
    expect(lying.equals(newSums)).toBe(false);
    manifest.files[key] = { ...entry, blocks: lying.toString('base64') };
    await writeManifest(site, manifest);
    const server = await serveStatic(site);
    running.push(server);
    const { out, result } = await mirrorOntoOld(server.url);
    expect(contentDiff((await snapshot(site)).files, (await snapshot(out)).files)).toEqual([]);
    expect(result.fetched).toContain(key);
    expect(result.fetchedBytes).toBeGreaterThan(entry.bytes);
    expect(entry.bytes).toBeGreaterThanOrEqual(BLOCK_SUMS_MIN_BYTES);
  });
});
