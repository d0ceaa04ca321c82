/**
 * `npm run mirror`: copies of the sample site served over real HTTP (the local server of
 * `npm start`, in-process; a slow static host for the kill), checked byte for byte, with
 * a changed file, a file that does not match the manifest, a mirror killed halfway, and
 * bad input.
 */
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StageError, UserError } from '../../generator/build/errors.ts';
import fs from 'fs-extra';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mirror } from '../../generator/build/mirror/mirror.ts';
import { mirrorCommand } from '../../generator/build/mirror/command.ts';
import type { CommanderError } from 'commander';
import { startServer, type RunningServer } from '../../generator/hosts/node/runtime/server.ts';
import { publishLayout } from '../../generator/build/publish/layout.ts';
import { endpoints } from '../../generator/contract/endpoints.ts';
import type { BulkIndexJson, FileManifestJson } from '../../generator/contract/schemas.ts';
import { buildSample, copySite, copyTree, expectUpdatedInCarried, nextSampleVersion, tempDir } from '../helpers.ts';
import { build } from '../../generator/build/build.ts';
import { contentDiff, snapshot, writeManifest } from '../exportEdits.ts';
import { netlifyStatic, serveHttp } from '../netlifyStatic.ts';
import { ROOT } from '../cli.ts';
import { compiled } from '../bin.ts';
import { withBlockSums } from '../../generator/build/blockSums.ts';

const MANIFEST = endpoints.fileManifest.file();
const MANIFEST_BLOCKS = endpoints.manifestBlocks.file();
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let sample: string;
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

beforeAll(async () => {
  ({ out: sample } = await buildSample());
});

/** `dir` served by the local server of `npm start`, stopped after the test. */
async function serve(dir: string): Promise<RunningServer> {
  const server = await startServer(dir, 0);
  running.push(server);
  return server;
}

/** A copy of the sample site that a test may change (the shared build is read-only). */
async function siteCopy(): Promise<string> {
  const dir = path.join(await tempDir(), 'site');
  copyTree(await fs.realpath(sample), dir); // the site, not its link (docs/builds.md "Layout")
  return dir;
}

/** Changes files of a site and lists their new bytes in its manifest. */
async function changeFiles(site: string, edits: Record<string, Buffer>): Promise<void> {
  const manifest: FileManifestJson = await fs.readJson(path.join(site, MANIFEST));
  for (const [rel, bytes] of Object.entries(edits)) {
    await fs.writeFile(path.join(site, rel), bytes);
    manifest.files[`/${rel}`] = withBlockSums({ sha256: sha256(bytes), bytes: bytes.length }, bytes);
  }
  await writeManifest(site, manifest);
}

/** The site path of the first part of the bulk file `name`, as the bulk index lists it. */
const firstPart = (index: BulkIndexJson, name: string) => index.files.find((file) => file.name === name)!.parts![0].path;

/** The file with a newline added: still valid JSON, other bytes. */
const edited = async (site: string, rel: string) => Buffer.concat([await fs.readFile(path.join(site, rel)), Buffer.from('\n')]);

const newCopy = async () => path.join(await tempDir(), 'copy');

let mirrored: Promise<string> | undefined;

/**
 * A copy of the sample as a mirror made it, the previous copy that a test's mirror updates: mirrored
 * once for the file (by the first test, else by the first that asks), each test taking a copy of its
 * own (helpers.ts copySite).
 */
async function mirroredCopy(): Promise<string> {
  mirrored ??= (async () => {
    const server = await startServer(sample, 0);
    try {
      const out = await newCopy();
      await mirror({ from: server.url, out });
      return out;
    } finally {
      await server.close();
    }
  })();
  return copySite(await mirrored);
}

describe('npm run mirror', () => {
  it('copies a site served by npm start byte for byte (binary files too), and a second run fetches nothing', async () => {
    const server = await serve(sample);
    const out = await newCopy();
    const first = await mirror({ from: server.url, out });
    const [site, copy] = [await snapshot(sample), await snapshot(out)];
    expect([...copy.files.keys()]).toEqual([...site.files.keys()]);
    expect(contentDiff(site.files, copy.files)).toEqual([]);
    const manifest: FileManifestJson = await fs.readJson(path.join(sample, MANIFEST));
    // Every file fetched once, but those made from the site's other files (bulk parts, card packs, histories).
    expect(first.fetched.length + first.derived).toBe(new Set(Object.values(manifest.files).map((f) => f.sha256)).size);
    expect(first.derived).toBeGreaterThan(0);
    const picture = Object.keys(manifest.files).find((key) => key.endsWith('.png'))!;
    expect(first.fetched).toEqual(expect.arrayContaining([picture, '/api/404.json', '/api/v1/card/1.json']));
    expect(first.fetched).not.toContain(firstPart(await fs.readJson(path.join(sample, endpoints.bulkIndex.file())), 'sif.sqlite'));
    expect(await fs.pathExists(publishLayout(out).downloads)).toBe(false);
    const second = await mirror({ from: server.url, out });
    expect(second.fetched).toEqual([]);
    expect(second.report.upToDate).toBe(true);
    // Untouched by the second run, the copy stands as a mirror made it: the tests below copy it instead of mirroring anew.
    mirrored ??= Promise.resolve(out);
  });

  it('fetches only the file that changed, and the copy equals the site again', async () => {
    const site = await siteCopy();
    const server = await serve(site);
    const out = await mirroredCopy();
    await changeFiles(site, { 'api/v1/card/1.json': await edited(site, 'api/v1/card/1.json') });
    const update = await mirror({ from: server.url, out });
    expect(update.fetched).toEqual(['/api/v1/card/1.json']);
    expect(update.fromCopy).toBe(Object.keys((await fs.readJson(path.join(site, MANIFEST))).files).length - 1);
    expect(contentDiff((await snapshot(site)).files, (await snapshot(out)).files)).toEqual([]);
  });

  it('never publishes a file whose bytes do not match the manifest: the previous copy stays as it was', async () => {
    const site = await siteCopy();
    const server = await serve(site);
    const out = await mirroredCopy();
    const card = 'api/v1/card/2.json';
    const listed = await edited(site, card);
    await changeFiles(site, { 'api/v1/card/1.json': await edited(site, 'api/v1/card/1.json'), [card]: listed });
    await fs.writeFile(path.join(site, card), Buffer.concat([listed, Buffer.from(' ')])); // served bytes differ from the listed ones
    const before = await snapshot(out);
    await expect(mirror({ from: server.url, out })).rejects.toThrow(/hash mismatch: http:\/\/127\.0\.0\.1:\d+\/api\/v1\/card\/2\.json gave .* nothing was published/);
    expect(await snapshot(out)).toEqual(before);
  });

  it('killed halfway, leaves the previous copy whole; the next run keeps what was verified and fetches the rest', async () => {
    const site = await siteCopy();
    const out = await mirroredCopy();
    const cards = (await fs.readdir(path.join(site, 'api/v1/card'))).filter((name) => /^\d+\.json$/.test(name)).map((name) => `api/v1/card/${name}`);
    await changeFiles(site, Object.fromEntries(await Promise.all(cards.map(async (rel) => [rel, await edited(site, rel)]))));
    // Every answer held back 100 ms: the mirror below downloads two files at a time for well over a second.
    const slow = await serveHttp(await netlifyStatic(site), 100);
    running.push(slow);
    const before = await snapshot(out);
    const { downloads } = publishLayout(out);
    const verifiedDownloads = async () => (await fs.readdir(downloads).catch(() => [])).filter((name) => !name.endsWith('.part'));
    const child = spawn(process.execPath, [await compiled('generator/build/mirrorCli.ts'), '--from', slow.url, '--out', out, '--concurrency', '2'], { cwd: ROOT, stdio: 'ignore' });
    while ((await verifiedDownloads()).length < 3 && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
    expect(child.exitCode).toBeNull();
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    expect(await snapshot(out)).toEqual(before);
    const kept = (await verifiedDownloads()).length;
    expect(kept).toBeGreaterThanOrEqual(3);
    expect(kept).toBeLessThan(cards.length);
    const resumed = await mirror({ from: slow.url, out, concurrency: 8 });
    expect(resumed.fromCache).toBe(kept);
    expect(resumed.fetched.length).toBe(cards.length - kept);
    expect(contentDiff((await snapshot(site)).files, (await snapshot(out)).files)).toEqual([]);
  });
});

describe('npm run mirror: links beside the copy', () => {
  it('a link planted at .cache/mirror/<out>/<sha256>.part is refused in one line; the mirror never writes through it', async () => {
    const site = await siteCopy();
    const server = await serve(site);
    const out = await mirroredCopy();
    const bytes = await edited(site, 'api/v1/card/1.json');
    await changeFiles(site, { 'api/v1/card/1.json': bytes });
    const victim = path.join(await tempDir(), 'precious.txt');
    await fs.writeFile(victim, 'precious');
    const part = path.join(publishLayout(out).downloads, `${sha256(bytes)}.part`);
    await fs.ensureDir(path.dirname(part));
    await fs.symlink(victim, part);
    const before = await snapshot(out);
    await expect(mirror({ from: server.url, out })).rejects.toThrow(`${part} is a link, which the builder never makes there; the builder writes its own files there, so it refuses to`);
    expect(await fs.readFile(victim, 'utf8')).toBe('precious');
    expect(await snapshot(out)).toEqual(before);
    // Removed, the mirror runs; a link planted while it runs is never followed either (the .part file is created new).
    await fs.remove(part);
    await mirror({ from: server.url, out });
    expect(contentDiff((await snapshot(site)).files, (await snapshot(out)).files)).toEqual([]);
  });
});

/** A site answering `answer` (after its own headers) on every path, stopped after the test; its URL and the paths asked. */
async function hostileSite(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createHttpServer((req, res) => {
    asked.push(req.url!);
    answer(req, res);
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  running.push({ close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) });
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, asked };
}

/** A site whose manifest is `manifest` (the files it lists are never reached: the manifest is refused first). */
/** A site whose manifest is `manifest` and which has nothing else (no manifest.blocks.json, which a mirror asks for first). */
const manifestSite = (manifest: unknown) => hostileSite((req, res) => (req.url === `/${MANIFEST}`
  ? res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(manifest))
  : res.writeHead(404).end()));

const ENTRY = { sha256: '0'.repeat(64), bytes: 1 };

describe('npm run mirror: what a hostile site cannot make it do', () => {
  const refusals: [string, Record<string, typeof ENTRY>, string][] = [
    ['Apache\'s .htaccess', { '/.htaccess': ENTRY }, 'it lists "/.htaccess", which a copy may not hold: a host reads it as configuration'],
    ['_Routes.json', { '/_Routes.json': ENTRY }, 'it lists "/_Routes.json", which a copy may not hold: a host reads it as configuration'],
    ['_worker.JS', { '/_worker.JS': ENTRY }, 'it lists "/_worker.JS", which a copy may not hold: a host reads it as configuration'],
    ['a _worker.js folder', { '/_worker.js/index.js': ENTRY }, 'it lists "/_worker.js/index.js", which a copy may not hold: a host reads it as configuration'],
    ['a file and a folder of one name', { '/api/v1/card/1.json': ENTRY, '/api/v1/card/1.json/inner.json': ENTRY }, 'it lists "api/v1/card/1.json" as a file and "api/v1/card/1.json/inner.json" inside it'],
    ['two names one disk takes for one file', { '/api/v1/a.json': ENTRY, '/api/v1/A.json': ENTRY }, 'it lists "api/v1/a.json" and "api/v1/A.json", one file on a case-insensitive disk'],
    ['a folder named as the manifest', { '/api/v1/manifest.json/x.json': ENTRY }, 'it lists "api/v1/manifest.json" as a file and "api/v1/manifest.json/x.json" inside it'],
    ['a 300-byte name', { [`/api/${'x'.repeat(300)}.json`]: ENTRY }, 'a part of it is longer than 255 bytes'],
  ];
  for (const [what, files, says] of refusals) {
    it(`refuses a manifest listing ${what}, in one line`, async () => {
      const site = await manifestSite({ truth_version: 'v1', files });
      const out = await newCopy();
      const error = await mirror({ from: site.url, out }).then(() => null, (e: unknown) => (e as StageError).cause as Error);
      expect(error).toBeInstanceOf(UserError);
      expect(error!.message).toContain(says);
      expect(error!.message).not.toMatch(/\n/);
      expect(site.asked).toEqual([`/${MANIFEST_BLOCKS}`, `/${MANIFEST}`]);
      expect(await fs.pathExists(out)).toBe(false);
    });
  }

  it('refuses a truth_version with control characters, quoting it: nothing raw reaches the terminal or the copy', async () => {
    const site = await manifestSite({ truth_version: '\u001b[2J\u001b[Hmirror: all good', files: {} });
    const error = await mirror({ from: site.url, out: await newCopy() }).then(() => null, (e: unknown) => (e as StageError).cause as Error);
    expect(error).toBeInstanceOf(UserError);
    expect(error!.message).toContain('its truth_version "\\u001b[2J\\u001b[Hmirror: all good" cannot be one: it is not 1-128 characters that can name a file');
    expect(error!.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    for (const version of ['Index', 'v1\u009b31m']) {
      const other = await manifestSite({ truth_version: version, files: {} });
      await expect(mirror({ from: other.url, out: await newCopy() })).rejects.toThrow(/its truth_version ".*" cannot be one/);
    }
  });

  it('follows no redirect to another host or port; one within the site is followed', async () => {
    const elsewhere = await hostileSite((_req, res) => res.end('{}'));
    const site = await hostileSite((_req, res) => res.writeHead(302, { location: `${elsewhere.url}${MANIFEST}` }).end());
    // The mirror asks for the manifest's block list first.
    await expect(mirror({ from: site.url, out: await newCopy() })).rejects.toThrow(`${site.url}${MANIFEST_BLOCKS} redirects to another host or port (${elsewhere.url.slice(0, -1)}); a mirror reads only from ${site.url.slice(0, -1)}, nothing was published`);
    expect(elsewhere.asked).toEqual([]);
    // Every path redirected to /moved/<path>, which answers the sample's file there.
    const within = await hostileSite((req, res) => {
      if (!req.url!.startsWith('/moved/')) return void res.writeHead(307, { location: `/moved${req.url}` }).end();
      fs.readFile(path.join(sample, req.url!.slice('/moved/'.length))).then((bytes) => res.end(bytes), () => res.writeHead(404).end());
    });
    const out = await newCopy();
    await mirror({ from: within.url, out });
    expect(contentDiff((await snapshot(sample)).files, (await snapshot(out)).files)).toEqual([]);
  });

  it('gives up on a file that trickles in for longer than its deadline, though bytes keep coming within the idle timeout', async () => {
    const site = await hostileSite((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(drip));
    });
    const out = await newCopy();
    await expect(mirror({ from: site.url, out, idleSeconds: 5, deadlineSeconds: 0.3 })).rejects.toThrow(`${site.url}${MANIFEST_BLOCKS} took more than 0.3 s; nothing was published (a new run resumes)`);
  });
});

describe('npm run mirror: what it makes instead of fetching', () => {
  it('makes the next version\'s bulk parts, card packs and histories from the site\'s own files, byte for byte', async () => {
    const copy = await mirroredCopy();
    const next = path.join(await tempDir(), 'public');
    await build({ input: await nextSampleVersion(), out: next, since: copy });
    const update = await mirror({ from: (await serve(next)).url, out: copy });
    expect(contentDiff((await snapshot(next)).files, (await snapshot(copy)).files)).toEqual([]);
    // Card 5's stats changed: its history, its pack, and the part of each bulk file holding it changed, and none was fetched.
    const [before, after]: FileManifestJson[] = await Promise.all([fs.readJson(path.join(await mirrored!, MANIFEST)), fs.readJson(path.join(next, MANIFEST))]);
    const made = [`/${endpoints.history.file('card', 5)}`, `/${endpoints.cardPack.file(0)}`, firstPart(await fs.readJson(path.join(next, endpoints.bulkIndex.file())), 'cards.jsonl')];
    for (const key of made) expect(before.files[key]?.sha256, key).not.toBe(after.files[key].sha256);
    for (const key of made) expect(update.fetched).not.toContain(key);
    expect(update.derived).toBeGreaterThanOrEqual(made.length);
    expect(update.fetched).toContain(`/${endpoints.card.file(5)}`);
  });

  it('fetches a derived file that the site\'s own files do not make (another builder\'s), and the copy equals the site', async () => {
    const site = await siteCopy();
    const out = await mirroredCopy();
    const part = firstPart(await fs.readJson(path.join(site, endpoints.bulkIndex.file())), 'cards.jsonl').slice(1);
    await changeFiles(site, { [part]: await edited(site, part) });
    const update = await mirror({ from: (await serve(site)).url, out });
    expect(update.fetched).toEqual([`/${part}`]);
    expect(update.derived).toBe(0);
    expect(contentDiff((await snapshot(site)).files, (await snapshot(out)).files)).toEqual([]);
  });
});

describe('a mirrored copy is a site like any other', () => {
  it('a build of the next version --since the copy carries updated_in of the bulk files that did not change', async () => {
    const copy = await mirroredCopy();
    const out = path.join(await tempDir(), 'public');
    await build({ input: await nextSampleVersion(), out, since: copy });
    const before: BulkIndexJson = await fs.readJson(path.join(copy, endpoints.bulkIndex.file()));
    expectUpdatedInCarried(before, await fs.readJson(path.join(out, endpoints.bulkIndex.file())));
  });
});

describe('npm run mirror: bad input, one clear line', () => {
  it('an unreachable URL (the CLI: one line, exit 1, the copy untouched)', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const out = await newCopy();
    const child = spawn(process.execPath, [await compiled('generator/build/mirrorCli.ts'), '--from', `http://127.0.0.1:${port}/`, '--out', out], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.split('\n').filter((line) => line.startsWith('mirror failed'))).toEqual([
      `mirror failed (manifest stage): cannot reach http://127.0.0.1:${port} (ECONNREFUSED) for /${MANIFEST_BLOCKS}; check --from and the network`,
    ]);
    expect(stderr).toContain(`${out} was left as it was.`);
    expect(await fs.pathExists(out)).toBe(false);
  });

  it('options that are not numbers, or not in range: one line each, exit 1, nothing started', async () => {
    const out = await newCopy();
    // An address nothing listens on: the options are refused before any request.
    const args = (options: string[]) => ['--from', 'http://127.0.0.1:9/', '--out', out, ...options];
    const cases: [string[], string][] = [
      [['--concurrency', '0'], "error: option '-j, --concurrency <n>' argument '0' is invalid. expected a whole number of at least 1"],
      [['--concurrency', '-2'], "error: option '-j, --concurrency <n>' argument '-2' is invalid. expected a whole number of at least 1"],
      [['--concurrency', 'many'], "error: option '-j, --concurrency <n>' argument 'many' is invalid. expected a whole number of at least 1"],
      [['--idle-timeout', 'abc'], "error: option '--idle-timeout <seconds>' argument 'abc' is invalid. expected a number of seconds above 0 and at most 86400, such as 30 or 0.5"],
      [['--deadline', '-1'], "error: option '--deadline <seconds>' argument '-1' is invalid. expected a number of seconds above 0 and at most 86400, such as 30 or 0.5"],
    ];
    // The CLI itself for one: its exit code and its whole stderr.
    const [[options, line], ...others] = cases;
    const child = spawn(process.execPath, [await compiled('generator/build/mirrorCli.ts'), ...args(options)], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect([code, stderr], options.join(' ')).toEqual([1, `${line}\n`]);
    // The others through the same command in-process (mirror/command.ts, what mirrorCli.ts runs): the line it
    // writes and the exit code it would end the process with, had exitOverride not stopped it.
    for (const [options, line] of others) {
      let written = '';
      const command = mirrorCommand().exitOverride().configureOutput({ writeErr: (text) => (written += text), writeOut: () => {} });
      const error = await command.parseAsync(args(options), { from: 'user' }).then(() => null, (e: unknown) => e);
      expect([(error as CommanderError | null)?.exitCode, written], options.join(' ')).toEqual([1, `${line}\n`]);
    }
    expect(await fs.pathExists(out)).toBe(false);
  });

  it('a site that stops answering', async () => {
    const silent = createServer(() => undefined).listen(0, '127.0.0.1'); // takes connections, never answers
    await new Promise((resolve) => silent.once('listening', resolve));
    running.push({ close: () => new Promise<void>((resolve) => silent.close(() => resolve())) });
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/`;
    const sockets: { destroy(): void }[] = [];
    silent.on('connection', (socket) => sockets.push(socket));
    running.push({ close: async () => sockets.forEach((socket) => socket.destroy()) });
    await expect(mirror({ from: url, out: await newCopy(), idleSeconds: 0.2 })).rejects.toThrow(`${url}${MANIFEST_BLOCKS} sent nothing for 0.2 s; nothing was published`);
  });

  it('a site without a manifest', async () => {
    const empty = await tempDir();
    await fs.outputFile(path.join(empty, 'index.html'), '<!doctype html>');
    const server = await serve(empty);
    await expect(mirror({ from: server.url, out: await newCopy() })).rejects.toThrow(`${server.url} has no ${MANIFEST} (HTTP 404)`);
  });

  it('an --out that is not a site', async () => {
    const server = await serve(sample);
    const out = await newCopy();
    await fs.outputFile(path.join(out, 'notes.txt'), 'mine');
    await expect(mirror({ from: server.url, out })).rejects.toThrow(/holds files that are not a site built here.*refusing to replace it/);
    expect(await fs.readdir(out)).toEqual(['notes.txt']);
  });

  it('a manifest naming a path outside the copy', async () => {
    const site = await siteCopy();
    const manifest: FileManifestJson = await fs.readJson(path.join(site, MANIFEST));
    manifest.files['/../escape.json'] = { sha256: '0'.repeat(64), bytes: 1 };
    await writeManifest(site, manifest);
    const server = await serve(site);
    await expect(mirror({ from: server.url, out: await newCopy() })).rejects.toThrow(/is not a file manifest of this API: it lists "\/\.\.\/escape\.json"/);
  });
});
