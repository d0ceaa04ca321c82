/** A build only ever replaces the site it published, one build at a time, and says what it left behind. */
import path from 'node:path';
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';
import { build } from '../../generator/build/build.ts';
import { publishLayout } from '../../generator/build/publish/layout.ts';
import { StageError, failureLines } from '../../generator/build/errors.ts';
import { copySample, copyTree, once, publishedSample, recordStats, SAMPLE_INPUT, tempDir } from '../helpers.ts';
import { ROOT } from '../cli.ts';
import { compiled } from '../bin.ts';
import { processState } from '../serverProcess.ts';
import { contentDiff, editDump, snapshot, withoutChangelog } from '../exportEdits.ts';


/** The sample with every card's stats changed, made once for the file (read only): a build of it over the sample's site has files to write. */
const changedSample = once(async () => {
  const input = await copySample();
  await editDump(input, 'unit.sql', 'UPDATE unit_m SET smile_max = smile_max + 1;');
  return input;
});

/** Builds into `out`, expecting a refusal matching `says` that leaves `out` and its parent folder as they were. */
async function expectRefused(out: string, says: RegExp) {
  const parent = path.dirname(out);
  const before = { out: await snapshot(out), parent: await fs.readdir(parent) };
  await expect(build({ input: SAMPLE_INPUT, out })).rejects.toThrow(says);
  expect(await snapshot(out)).toEqual(before.out);
  expect(await fs.readdir(parent)).toEqual(before.parent); // no .cache beside a refused folder
}

describe('--out: only a folder this builder recorded as its site is replaced', () => {
  it('a project folder with an entry named "api" (a plain file) is refused, nothing written beside it', async () => {
    const out = path.join(await tempDir(), 'project');
    await fs.outputFile(path.join(out, 'api'), 'notes');
    await fs.outputFile(path.join(out, 'src/main.ts'), 'precious');
    await fs.outputFile(path.join(out, '.git/HEAD'), 'ref: refs/heads/main');
    await expectRefused(out, /--out .*project holds files that are not a site built here .*; refusing to replace it/);
  });

  it('a folder that looks like a site (api/v1/...) but was not built here is refused', async () => {
    const out = path.join(await tempDir(), 'public');
    await fs.outputFile(path.join(out, 'api/v1/info.json'), '{}');
    await fs.outputFile(path.join(out, 'thesis.tex'), 'precious');
    await expectRefused(out, /not a site built here/);
  });

  it('a site whose record is gone is refused', async () => {
    const { out } = await publishedSample();
    await fs.remove(publishLayout(out).manifest);
    await expect(build({ input: SAMPLE_INPUT, out })).rejects.toThrow(/not a site built here/);
  });

  it('another folder moved to where the site was is refused: the record names the site folder itself', async () => {
    const { out } = await publishedSample();
    await fs.move(out, `${out}.old`);
    await fs.outputFile(path.join(out, 'api/v1/info.json'), 'mine');
    await expect(build({ input: SAMPLE_INPUT, out })).rejects.toThrow(/not a site built here/);
    expect(await fs.readFile(path.join(out, 'api/v1/info.json'), 'utf8')).toBe('mine');
  });

  it('a site an earlier builder recorded (manifest format 1, without the folder) is taken over when its files are the recorded ones', async () => {
    const { out, before } = await publishedSample();
    const layout = publishLayout(out);
    const { folder, ...rest } = await fs.readJson(layout.manifest);
    expect(folder).toBe((await fs.stat(out)).ino);
    await fs.writeJson(layout.manifest, { ...rest, format: 1 });
    const report = await build({ input: SAMPLE_INPUT, out });
    expect(report.upToDate).toBe(true);
    expect(await snapshot(out)).toEqual(before);
  });

  it('a format 1 record is no proof for a folder whose files it does not know', async () => {
    const { out } = await publishedSample();
    const layout = publishLayout(out);
    const { folder: _, ...rest } = await fs.readJson(layout.manifest);
    await fs.writeJson(layout.manifest, { ...rest, format: 1 });
    await fs.move(out, `${out}.old`);
    copyTree(await fs.realpath(`${out}.old`), out); // the same names, other inodes
    await expect(build({ input: SAMPLE_INPUT, out })).rejects.toThrow(/not a site built here/);
  });

  it('a file is refused', async () => {
    const out = path.join(await tempDir(), 'notes.txt');
    await fs.writeFile(out, 'precious');
    await expect(build({ input: SAMPLE_INPUT, out })).rejects.toThrow(/notes\.txt is not a folder; refusing/);
    expect(await fs.readdir(path.dirname(out))).toEqual(['notes.txt']);
  });

  it('a mount point is refused up front (the site is swapped in by renames), nothing written beside it', async () => {
    await expect(build({ input: SAMPLE_INPUT, out: '/proc' })).rejects.toThrow(/--out \/proc is a mount point/);
    expect(await fs.pathExists('/.cache/build/proc')).toBe(false);
  });

  it('a folder named .cache (absent or empty) is refused, nothing written: the build keeps its own files in .cache beside its output', async () => {
    const parent = await tempDir();
    const out = path.join(parent, '.cache');
    await expect(build({ input: SAMPLE_INPUT, out })).rejects.toThrow(/--out .*\.cache would hold the build's own files \(.*\.cache\/build\/\.cache\); choose an output folder not named \.cache/);
    expect(await fs.readdir(parent)).toEqual([]);
    await fs.mkdir(out);
    await expectRefused(out, /would hold the build's own files/);
  });

  it('an empty folder is built into (an absent one is what most builds here start from)', async () => {
    const empty = path.join(await tempDir(), 'empty');
    await fs.mkdir(empty);
    await build({ input: SAMPLE_INPUT, out: empty });
    expect(await fs.pathExists(path.join(empty, 'api/v1/card_list.json'))).toBe(true);
  });
});

describe('links beside the output: nothing is written outside the output folder and its cache', () => {
  /** A file outside everything the build owns, that a planted link points at. */
  async function target(): Promise<string> {
    const file = path.join(await tempDir(), 'precious.txt');
    await fs.writeFile(file, 'precious');
    return file;
  }

  for (const own of ['report.json', 'manifest.json.tmp', 'lock.db', 'snapshots/x.tsv'] as const) {
    it(`a link planted at .cache/build/<out>/${own} is refused in one line; its target is untouched`, async () => {
      const out = path.join(await tempDir(), 'public');
      const victim = await target();
      const planted = path.join(publishLayout(out).work, own);
      await fs.ensureDir(path.dirname(planted));
      await fs.symlink(victim, planted);
      const error = await build({ input: SAMPLE_INPUT, out }).then(() => null, (e: unknown) => e as Error);
      expect(error?.message).toMatch(new RegExp(`${planted.replace(/[./]/g, '\\$&')} is a link.*; the builder writes its own files there, so it refuses to`));
      expect(error?.message).not.toMatch(/\n/);
      expect(await fs.readFile(victim, 'utf8')).toBe('precious');
      expect(await fs.pathExists(out)).toBe(false);
    });
  }

  it('a .cache folder that any user can write to, or that is a link, is refused before anything is written in it', async () => {
    const out = path.join(await tempDir(), 'public');
    const cache = path.join(path.dirname(out), '.cache');
    await fs.ensureDir(cache);
    await fs.chmod(cache, 0o777); // /tmp/.cache made by someone else, for one
    await expect(build({ input: SAMPLE_INPUT, out })).rejects.toThrow(`${cache} can be written by any user; the builder writes its own files there`);
    expect(await fs.readdir(cache)).toEqual([]);
    await fs.remove(cache);
    const elsewhere = await tempDir();
    await fs.symlink(elsewhere, cache);
    await expect(build({ input: SAMPLE_INPUT, out })).rejects.toThrow(`${cache} is a link`);
    expect(await fs.readdir(elsewhere)).toEqual([]);
  });
});

describe('one build at a time', () => {
  it('of two builds started together, exactly one publishes; the other is refused and the site is whole', async () => {
    const { out } = await publishedSample();
    const input = await changedSample();
    const results = await Promise.allSettled([build({ input, out }), build({ input, out })]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(String((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason)).toMatch(/another build is publishing/);
    const reference = path.join(await tempDir(), 'reference');
    await build({ input, out: reference });
    expect(withoutChangelog(contentDiff((await snapshot(out)).files, (await snapshot(reference)).files))).toEqual([]);
  });

  it('the lock of a killed builder is free at once, even while the dead builder is a zombie', async () => {
    const { out } = await publishedSample();
    // sh starts the holder, then becomes `sleep`, which never reaps it: killed, the holder stays a zombie.
    const parent = spawn('sh', ['-c', `"$0" "$1" "$2" & echo $!; exec sleep 600`, process.execPath, await compiled('test/lockHolder.ts'), out], { cwd: ROOT });
    const lines = readline.createInterface({ input: parent.stdout })[Symbol.asyncIterator]();
    const holder = Number((await lines.next()).value);
    try {
      expect((await lines.next()).value).toBe('held');
      await expect(build({ input: SAMPLE_INPUT, out })).rejects.toThrow(/another build is publishing/);
      process.kill(holder, 'SIGKILL');
      // A zombie: every thread gone (the last one to exit closes the files), the leader left unreaped.
      const zombie = async () => (await fs.readdir(`/proc/${holder}/task`)).length === 1 && processState(holder) === 'Z';
      while (!(await zombie())) await new Promise((r) => setTimeout(r, 10));
      expect((await build({ input: SAMPLE_INPUT, out })).upToDate).toBe(true);
    } finally {
      // Also when a step above failed: the holder would otherwise wait for ever.
      for (const pid of [holder, parent.pid!]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {} // already gone
      }
    }
  });
});

describe('after the swap: the true state, a consistent site', () => {
  it('a failure after publishing says the new site is live, and the next build finds it up to date', async () => {
    const { out } = await publishedSample();
    const input = await changedSample();
    const layout = publishLayout(out);
    await fs.remove(layout.report);
    await fs.outputFile(path.join(layout.report, 'blocker'), ''); // report.json cannot be written: EISDIR
    // What the CLI prints of the failure (failureLines; its exit code 1 on any failure: test/hosts/publish.test.ts).
    const error = await build({ input, out }).catch((e: unknown) => e);
    expect(error).toMatchObject({ sitePublished: true });
    const stderr = failureLines('build', error, publishLayout(out).out);
    expect(stderr).toMatch(/EISDIR.*report\.json/);
    expect(stderr).toMatch(/holds the new site, published before the failure/);
    expect(stderr).not.toMatch(/left as it was/);
    await fs.remove(layout.report);
    const report = await build({ input, out });
    expect(report.upToDate).toBe(true);
  });

  it('a build killed after its swap, before its manifest was renamed, leaves a site the next build recognises', async () => {
    const { out, before } = await publishedSample();
    const layout = publishLayout(out);
    const manifest = await fs.readJson(layout.manifest);
    await fs.writeJson(layout.nextManifest, manifest); // the new site's manifest...
    await fs.writeJson(layout.manifest, { ...manifest, folder: manifest.folder + 1 }); // ...and the old site's
    expect((await build({ input: SAMPLE_INPUT, out })).upToDate).toBe(true);
    expect(await snapshot(out)).toEqual(before);
    expect(await fs.pathExists(layout.nextManifest)).toBe(false);
  });

  it('says a failure after the swap came after the new site was published', async () => {
    const { out } = await publishedSample();
    const input = await changedSample();
    await fs.remove(publishLayout(out).report);
    await fs.outputFile(path.join(publishLayout(out).report, 'blocker'), '');
    const error = await build({ input, out }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StageError);
    expect(error).toMatchObject({ stage: 'report', sitePublished: true });
  });
});

describe('--force', () => {
  it('repairs a published file edited in place with its size and modification time kept', async () => {
    const { out } = await publishedSample();
    const rel = 'api/v1/card/1.json';
    const file = path.join(out, rel);
    // A whole-millisecond mtime can be set back exactly; the builder's record takes it, as a rebuild would.
    const mtime = new Date(Math.floor((await fs.stat(file)).mtimeMs));
    await fs.utimes(file, mtime, mtime);
    await recordStats(out);
    const original = await fs.readFile(file);
    const smile = /"smile":\[(\d)/.exec(original.toString())!;
    const edited = Buffer.from(original);
    edited[smile.index + smile[0].length - 1] = smile[1] === '9' ? 0x38 : 0x39; // one digit changed in place
    await fs.writeFile(file, edited);
    await fs.utimes(file, mtime, mtime);
    const { size, mtimeMs, ino } = await fs.stat(file);
    const recorded = (await fs.readJson(publishLayout(out).manifest)).files[rel];
    expect({ size, mtimeMs, ino }).toEqual({ size: recorded.size, mtimeMs: recorded.mtimeMs, ino: recorded.ino });
    expect(await fs.readFile(file)).not.toEqual(original);
    expect((await build({ input: SAMPLE_INPUT, out })).upToDate).toBe(true); // stats match the record: trusted
    const report = await build({ input: SAMPLE_INPUT, out, force: true });
    expect(report.changed).toBe(1);
    expect(await fs.readFile(file)).toEqual(original);
  });
});
