/** Failed builds keep the last site, output is deterministic, rebuilds touch only what changed. */
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Worker, type Transferable } from 'node:worker_threads';
import fs from 'fs-extra';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from '../../generator/build/build.ts';
import { BuildReport } from '../../generator/build/report.ts';
import { publishLayout } from '../../generator/build/publish/layout.ts';
import { Staging } from '../../generator/build/publish/staging.ts';
import { endpoints } from '../../generator/contract/endpoints.ts';
import { acquireLock } from '../../generator/build/publish/lock.ts';
import { StageError, UserError } from '../../generator/build/errors.ts';
import { packOf } from '../../generator/contract/format.ts';
import type { BulkIndexJson } from '../../generator/contract/schemas.ts';

type BulkEntry = BulkIndexJson['files'][number];
type BulkPart = NonNullable<BulkEntry['parts']>[number];
import { writeSampleExport } from '../../generator/build/sample/make-sample.ts';
import { buildSample, copySample, copySite, copyTree, publishedSample, readJson, SAMPLE_INPUT, tempDir } from '../helpers.ts';
import { cliArgs, ROOT, runCli as cli } from '../cli.ts';
import { editDump, contentDiff, dumpToClientDb, rewritten, snapshot, withoutChangelog } from '../exportEdits.ts';


afterEach(() => {
  vi.restoreAllMocks();
});

describe('a failed build keeps the previous site byte for byte', () => {
  // One published site for the failures: each test checks that it is still exactly as built.
  let out: string;
  let before: Awaited<ReturnType<typeof snapshot>>;
  /** The sample with one card's stats changed, so a build that got through would have something to write. */
  let changed: string;
  beforeAll(async () => {
    ({ out, before } = await publishedSample());
    changed = await copySample();
    await fs.remove(path.join(changed, 'assets')); // no picture to copy in: they are no subject here
    await editDump(changed, 'unit.sql', 'UPDATE unit_m SET smile_max = smile_max + 1;');
  });

  /** Each case breaks a copy of the sample; `names` is what the error message must name. */
  const cases: { kind: string; breakInput: (input: string) => Promise<void>; names: RegExp }[] = [
    {
      kind: 'corrupt database',
      breakInput: async (input) => {
        const file = await dumpToClientDb(input, 'unit');
        const bytes = await fs.readFile(file);
        for (let page = 1; page * 4096 < bytes.length; page += 3) bytes.fill(0xff, page * 4096 + 100, page * 4096 + 400);
        await fs.writeFile(file, bytes);
      },
      names: /db[/\\]unit[/\\]unit\.db_: not a readable SQLite database \(damaged: /,
    },
    {
      kind: 'truncated database file',
      breakInput: async (input) => {
        const file = await dumpToClientDb(input, 'unit');
        await fs.truncate(file, Math.floor((await fs.stat(file)).size / 2));
      },
      names: /unit\.db_: not a readable SQLite database/,
    },
    {
      kind: 'truncated SQL dump (mid-statement)',
      breakInput: async (input) => {
        const file = path.join(input, 'unit.sql');
        await fs.truncate(file, Math.floor((await fs.stat(file)).size / 2));
      },
      names: /unit\.sql: not a loadable SQL dump/,
    },
    {
      kind: 'truncated SQL dump (at a line break)',
      breakInput: async (input) => {
        const file = path.join(input, 'unit.sql');
        const text = await fs.readFile(file, 'utf8');
        await fs.writeFile(file, text.slice(0, text.indexOf('\n', text.length / 2) + 1));
      },
      names: /unit\.sql: not a loadable SQL dump \(truncated: /,
    },
    {
      kind: 'missing required table',
      breakInput: (input) => editDump(input, 'unit.sql', 'DROP TABLE unit_level_up_pattern_m;'),
      names: /unit\.sql: required table unit_level_up_pattern_m is missing/,
    },
    {
      kind: 'empty input folder',
      breakInput: async (input) => fs.emptyDir(input),
      names: /no unit database found/,
    },
    {
      kind: 'invalid JSON in a curated file',
      breakInput: (input) => fs.writeFile(path.join(input, 'sets.json'), '[{"id": "summer", '),
      names: /sets\.json: not valid JSON/,
    },
  ];

  // Each a UserError: what the CLI prints as its one line, exit code 1 ('the CLI exits non-zero naming the file' below).
  for (const { kind, breakInput, names } of cases) {
    it(`${kind}: fails naming the culprit, as a user's error, site untouched`, async () => {
      const input = await copySample();
      await breakInput(input);
      const error = await build({ input, out }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StageError);
      expect((error as StageError).cause).toBeInstanceOf(UserError);
      expect((error as Error).message).toMatch(names);
      expect(await snapshot(out)).toEqual(before);
    });
  }

  for (const stage of ['check', 'read', 'model', 'images', 'render', 'changes', 'bulk', 'manifest', 'write']) {
    it(`a crash in the ${stage} stage leaves the site untouched and names the stage`, async () => {
      const stageOf = BuildReport.prototype.stage;
      vi.spyOn(BuildReport.prototype, 'stage').mockImplementation(function (this: BuildReport, name, run) {
        return stageOf.call(this, name, name === stage ? () => { throw new TypeError(`boom in ${name}`); } : run);
      });
      const error = await build({ input: changed, out }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StageError);
      expect(error).toMatchObject({ stage, sitePublished: false, cause: new TypeError(`boom in ${stage}`) });
      expect(await snapshot(out)).toEqual(before);
    });
  }

  it('a write that fails half way leaves the site untouched and no staging behind', async () => {
    const { out, before } = await publishedSample(); // its own site: the last build here changes it
    const input = changed;
    // A first file inside "card/1.json/" makes the card file itself unwritable: a real EISDIR in the writer.
    const files = Staging.prototype.files;
    vi.spyOn(Staging.prototype, 'files').mockImplementation(function (this: Staging) {
      const staged = files.call(this);
      staged.set(`${endpoints.card.file(1)}/blocker`, Buffer.from('x'));
      return staged;
    });
    await expect(build({ input, out })).rejects.toThrow(/writing .*staging: EISDIR.*card[/\\]1\.json/);
    expect(await snapshot(out)).toEqual(before);
    expect(await fs.pathExists(publishLayout(out).staging)).toBe(false);
    vi.restoreAllMocks();
    const report = await build({ input, out });
    expect(report.changed).toBeGreaterThan(0);
  });

  it('a writer thread that ends during the build fails it, the site untouched; the next build writes with a new one', async () => {
    const { out, before } = await publishedSample(); // its own site: the last build here changes it
    // The first batch sent ends its writer instead, as a thread killed or out of memory would end;
    // later batches to it go nowhere (ended once: each terminate() waits on the thread's exit).
    const postMessage = Worker.prototype.postMessage;
    const ended = new WeakSet<Worker>();
    vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, message: unknown, transfer?: readonly Transferable[]) {
      if ((message as { type?: string }).type !== 'files') return postMessage.call(this, message, transfer);
      if (!ended.has(this)) void this.terminate();
      ended.add(this);
    });
    await expect(build({ input: changed, out })).rejects.toThrow(/writing .*staging: the writer thread ended/);
    expect(await snapshot(out)).toEqual(before);
    vi.restoreAllMocks();
    expect((await build({ input: changed, out })).changed).toBeGreaterThan(0);
  });

  it('the CLI exits non-zero naming the file, without a stack trace, and keeps the site', async () => {
    const input = await copySample();
    await fs.writeFile(path.join(input, 'release_dates.json'), '{"1": ');
    const { code, stdout, stderr } = await cli('--input', input, '--out', out);
    expect(code).toBe(1);
    expect(stderr).toMatch(/build failed \(read stage\): .*release_dates\.json: not valid JSON/);
    expect(stderr).toContain(`${out} was left as it was`);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).toBe('');
    expect(await snapshot(out)).toEqual(before);
  });

  it('leaves a report naming the failure beside the site', async () => {
    const input = await copySample();
    await fs.writeFile(path.join(input, 'gachas.json'), 'not json');
    await expect(build({ input, out })).rejects.toThrow();
    const report = await fs.readJson(publishLayout(out).report);
    expect(report).toMatchObject({ ok: false, error: { stage: 'read', message: expect.stringMatching(/gachas\.json/) } });
  });
});

/** Turns a published site back into a plain folder, as builds before output folders were links left it (same inode, so its record still names it). */
async function asPlainFolder(out: string): Promise<void> {
  const version = await fs.realpath(out);
  await fs.remove(out);
  await fs.move(version, out);
}

/** A process that reads `rel` under `dir` in a loop until told to stop; resolves with what it saw. */
function readerProcess(dir: string, rel: string) {
  const script = `
    const fs = require('node:fs');
    const seen = {}; let reads = 0; const failures = [];
    const loop = () => {
      for (let i = 0; i < 200; i++) {
        try { const v = JSON.parse(fs.readFileSync(process.argv[1] + '/' + process.argv[2], 'utf8')).truth_version; seen[v] = (seen[v] || 0) + 1; reads++; }
        catch (e) { failures.push(e.code || e.message); }
      }
      setImmediate(loop);
    };
    process.on('message', () => { process.send({ reads, failures: failures.slice(0, 5), failed: failures.length, seen }); process.exit(0); });
    loop(); process.send('ready');`;
  const child = spawn(process.execPath, ['-e', script, dir, rel], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = new Promise((resolve) => child.once('message', resolve));
  const stop = () => new Promise<{ reads: number; failed: number; failures: string[]; seen: Record<string, number> }>((resolve) => {
    child.once('message', resolve as (m: unknown) => void);
    child.send('stop');
  });
  return { ready, stop };
}

describe('readers during a swap', () => {
  it('never find the site missing or half replaced: the output folder is a link to a version, replaced in one rename', async () => {
    const out = path.join(await tempDir(), 'public');
    const inputs = await Promise.all(['reader-a', 'reader-b'].map(async (version) => {
      const input = await copySample();
      await fs.remove(path.join(input, 'assets')); // fewer files to write: the swap is the subject
      await fs.writeJson(path.join(input, 'meta.json'), { ...(await fs.readJson(path.join(input, 'meta.json'))), truth_version: version });
      return input;
    }));
    await build({ input: inputs[0], out });
    const reader = readerProcess(out, endpoints.info.file());
    await reader.ready;
    const versions: string[] = [];
    for (let i = 1; i <= 4; i++) {
      await build({ input: inputs[i % 2], out });
      expect((await fs.lstat(out)).isSymbolicLink()).toBe(true);
      versions.push(await fs.realpath(out));
    }
    const { reads, failed, failures, seen } = await reader.stop();
    expect(failures).toEqual([]);
    expect(failed).toBe(0);
    expect(reads).toBeGreaterThan(100);
    expect(Object.keys(seen).sort()).toEqual(['reader-a', 'reader-b']);
    // Each build keeps the version it replaced for readers still in it, and deletes older ones.
    expect(new Set(versions).size).toBe(4);
    expect(await fs.readdir(publishLayout(out).sites)).toEqual(versions.slice(-2).map((v) => path.basename(v)).sort());
  });

  it('a site published as a plain folder (before output folders were links) becomes a link at its next change', async () => {
    const { out, before } = await publishedSample();
    await asPlainFolder(out);
    const input = await copySample();
    await editDump(input, 'unit.sql', 'UPDATE unit_m SET smile_max = smile_max + 1 WHERE unit_number = 1;');
    await build({ input, out });
    expect((await fs.lstat(out)).isSymbolicLink()).toBe(true);
    expect(contentDiff(before.files, (await snapshot(out)).files)).toContain(endpoints.card.file(1));
    expect(await fs.pathExists(publishLayout(out).previous)).toBe(false);
  });
});

describe('an interrupted build never breaks the next one', () => {
  it('cleans a stale staging folder and a half-removed old site', async () => {
    const { out } = await publishedSample();
    const layout = publishLayout(out);
    await fs.outputFile(path.join(layout.staging, 'api/v1/card/1.json'), 'half written');
    await fs.outputFile(path.join(layout.previous, 'api/v1/info.json'), 'old');
    const report = await build({ input: SAMPLE_INPUT, out, force: true });
    expect(report.changed).toBe(0);
    for (const leftover of [layout.staging, layout.previous]) expect(await fs.pathExists(leftover)).toBe(false);
  });

  it('restores the site when a build died moving a plain output folder aside (the one-time move to a link)', async () => {
    const { out, before } = await publishedSample();
    const layout = publishLayout(out);
    await asPlainFolder(out);
    await fs.move(out, layout.previous);
    await fs.outputFile(path.join(layout.staging, 'api/v1/info.json'), '{}');
    const report = await build({ input: SAMPLE_INPUT, out });
    expect(report.warnings).toContain(`${out} was restored from an interrupted build`);
    expect(report.changed).toBe(0);
    expect(await snapshot(out)).toEqual(before);
  });

  it('refuses to run while another build holds the output folder', async () => {
    const { out } = await publishedSample();
    const release = acquireLock(publishLayout(out).lock, out);
    await expect(build({ input: SAMPLE_INPUT, out })).rejects.toThrow(/another build is publishing/);
    release();
  });

  it('a build killed while writing leaves the old or the new site whole', async () => {
    const dir = await tempDir();
    const input = path.join(dir, 'input');
    // Large enough that the build still has stages to run once it has begun writing.
    await writeSampleExport(input, { cards: 300, accessories: 40, format: 'sqlite', images: false });
    const out = await copySite((await buildSample()).out);
    const old = await snapshot(out);
    const child = spawn(process.execPath, [...(await cliArgs()), '--input', input, '--out', out], { cwd: ROOT, stdio: 'ignore' });
    const writing = path.join(publishLayout(out).staging, 'api/v1/card'); // exists once the first files are written
    while (!(await fs.pathExists(writing)) && child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
    expect(child.exitCode).toBeNull();
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    const afterKill = await snapshot(out);
    const reference = path.join(dir, 'reference');
    await build({ input, out: reference });
    const fresh = await snapshot(reference);
    const sameAs = (a: typeof old) => withoutChangelog(contentDiff(a.files, afterKill.files)).length === 0;
    expect(sameAs(old) || sameAs(fresh)).toBe(true);
    await build({ input, out });
    expect(withoutChangelog(contentDiff((await snapshot(out)).files, fresh.files))).toEqual([]);
  });
});

describe('deterministic output', () => {
  it('two builds of the same input into two folders are byte-identical', async () => {
    // The run's sample build (another process, another folder) and one here.
    const { out: a } = await buildSample();
    const b = path.join(await tempDir(), 'b');
    await build({ input: SAMPLE_INPUT, out: b });
    const [first, second] = [await snapshot(a), await snapshot(b)];
    expect(first.files.size).toBeGreaterThan(30);
    expect(first.folders).toEqual(second.folders);
    expect([...first.files.keys()]).toEqual([...second.files.keys()]);
    expect(contentDiff(first.files, second.files)).toEqual([]);
  });
});

describe('rebuilds rewrite only what changed', () => {
  let out: string;
  let before: Awaited<ReturnType<typeof snapshot>>;
  beforeAll(async () => {
    ({ out, before } = await publishedSample());
  });

  it('unchanged input: up to date, 0 changed, every file keeps its inode and mtime', async () => {
    const report = await build({ input: SAMPLE_INPUT, out });
    expect(report).toMatchObject({ changed: 0, removed: 0, unchanged: before.files.size, upToDate: true });
    expect(Object.keys(report.timings)).toEqual(['check']);
    expect(report.counts.card).toBeGreaterThan(0); // the counts of the build that made the site
    expect(await snapshot(out)).toEqual(before);
  });

  it('a forced rebuild runs every stage and still rewrites nothing', async () => {
    const report = await build({ input: SAMPLE_INPUT, out, force: true });
    expect(report).toMatchObject({ changed: 0, removed: 0, unchanged: before.files.size, upToDate: false });
    expect(report.timings).toHaveProperty('render');
    expect(await snapshot(out)).toEqual(before);
  });

  it('an input file touched but not changed keeps the site up to date', async () => {
    const input = path.join(await tempDir(), 'input');
    copyTree(SAMPLE_INPUT, input); // the sample as it is, its marker included
    await fs.utimes(path.join(input, 'unit.sql'), new Date(), new Date(Date.now() + 5000));
    expect((await build({ input, out })).upToDate).toBe(true); // the fingerprint is the content, wherever it lies
    expect(await snapshot(out)).toEqual(before);
  });

  it('repairs a published file edited by hand, a deleted one and a stray one, touching nothing else', async () => {
    const edited = endpoints.card.file(1);
    const deleted = endpoints.cardList.file();
    await fs.appendFile(path.join(out, edited), ' ');
    await fs.remove(path.join(out, deleted));
    await fs.outputFile(path.join(out, 'api/v1/stray.json'), '{}');
    const report = await build({ input: SAMPLE_INPUT, out });
    expect(report).toMatchObject({ changed: 2, removed: 1, upToDate: false });
    const after = await snapshot(out);
    expect(contentDiff(before.files, after.files)).toEqual([]);
    expect(rewritten(before.files, after.files)).toEqual([deleted, edited].sort());
    before = after;
  });

  it("editing one card's row rewrites exactly the files showing that card's stats", async () => {
    const card = await readJson(out, endpoints.card.file(5));
    const { id, sets } = card.cards[0] as { id: number; sets: string[] };
    const inPair = (await readJson(out, endpoints.pairList.file())).pairs.some((p: { unit_ids: number[] }) => p.unit_ids.includes(id));
    const input = await copySample();
    await editDump(input, 'unit.sql', 'UPDATE unit_m SET smile_max = smile_max + 7 WHERE unit_number = 5;');
    const bulkBefore = await readJson(out, endpoints.bulkIndex.file());
    const report = await build({ input, out });
    const after = await snapshot(out);
    const bulkAfter = await readJson(out, endpoints.bulkIndex.file());
    // The parts of a bulk file whose bytes changed: named by their content, new files (and the old ones gone). One part of each JSON Lines file holding the card.
    const partPaths = (index: { files: BulkEntry[] }, name: string): string[] => index.files.find((f) => f.name === name)!.parts.map((p: BulkPart) => p.path.slice(1));
    const changedParts = (name: string) => partPaths(bulkAfter, name).filter((rel) => !partPaths(bulkBefore, name).includes(rel));
    const goneParts = (name: string) => partPaths(bulkBefore, name).filter((rel) => !partPaths(bulkAfter, name).includes(rel));
    const jsonlKinds = ['cards', 'card_t', ...(sets.length ? ['sets'] : []), ...(inPair ? ['pairs'] : [])];
    for (const kind of jsonlKinds) expect(changedParts(`${kind}.jsonl`)).toHaveLength(1);
    // A part two files hold (card_t.jsonl's are cards.jsonl's in the sample) is one file, counted once.
    const expected = [...new Set([
      // card_t's pack names the card's ordinal only: unchanged.
      endpoints.card.file(5), endpoints.cardPack.file(packOf(5)),
      ...sets.map((set) => endpoints.set.file(set)),
      // The change list of the same truth version now shows the new stats too.
      endpoints.latestChanges.file(), endpoints.changeIndex.file(), endpoints.changes.file('sample-2026.11'),
      // The parts of the bulk files holding the card (pairs.jsonl when it is in a pair), their checksums, their index and the file manifest.
      ...jsonlKinds.flatMap((kind) => [...changedParts(`${kind}.jsonl`), endpoints.bulkChecksum.file(`${kind}.jsonl`)]),
      ...changedParts('sif.sqlite'), endpoints.bulkChecksum.file('sif.sqlite'),
      endpoints.bulkIndex.file(), endpoints.fileManifest.file(), endpoints.manifestBlocks.file(),
      // The card search's index (its stats).
      endpoints.searchIndex.file('card'),
      // The card's history (card_t's is the same, answered by the edge) and the version list, which both say this version changed it.
      endpoints.history.file('card', 5), endpoints.versions.file(),
    ])].sort();
    const bulkFiles = [...jsonlKinds.map((kind) => `${kind}.jsonl`), 'sif.sqlite'];
    const gone = [...new Set(bulkFiles.flatMap(goneParts))];
    expect(gone.length).toBe(new Set(bulkFiles.flatMap(changedParts)).size);
    expect(report).toMatchObject({ changed: expected.length, removed: gone.length, unchanged: after.files.size - expected.length });
    expect(rewritten(before.files, after.files)).toEqual(expected);
    expect(contentDiff(before.files, after.files)).toEqual([...expected, ...gone].sort());
    expect((await readJson(out, endpoints.card.file(5))).cards[0].smile.at(-1)).toBe(card.cards[0].smile.at(-1) + 7);
  });
});

describe('where the build keeps its own files', () => {
  it('manifest, report and cache live in .cache/build/<name> beside the site, never inside it', async () => {
    const { out, before } = await publishedSample();
    const layout = publishLayout(out);
    expect(layout.work).toBe(path.join(path.dirname(out), '.cache', 'build', 'public'));
    const manifest = await fs.readJson(layout.manifest);
    expect(Object.keys(manifest.files).sort()).toEqual([...before.files.keys()].sort());
    // The manifests inside are the published file list (api/v1/manifest.json) and its block sums, not the builder's record.
    expect([...before.files.keys()].filter((rel) => /manifest|report|staging|lock/.test(rel))).toEqual([endpoints.manifestBlocks.file(), endpoints.fileManifest.file()]);
  });

  it('refuses to replace a folder that is not a site it built', async () => {
    const out = path.join(await tempDir(), 'documents');
    await fs.outputFile(path.join(out, 'thesis.txt'), 'precious');
    await expect(build({ input: SAMPLE_INPUT, out })).rejects.toThrow(/not a site built here/);
    expect(await fs.readFile(path.join(out, 'thesis.txt'), 'utf8')).toBe('precious');
  });
});
