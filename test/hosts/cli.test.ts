/** `npm run build`: the commander CLI, run as a user runs it (once through npm and tsx, else its bundle: test/bin.ts). */
import path from 'node:path';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';
import { SAMPLE_INPUT, publishedSample, tempDir } from '../helpers.ts';
import { runCli as cli, runNpmBuild } from '../cli.ts';

// Concurrent: each test is a process of its own on its own folders, mostly spent starting up.
describe.concurrent('build CLI', () => {
  it('documents --input and --out in --help', async () => {
    const { code, stdout } = await cli('--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/--input <dir>/);
    expect(stdout).toMatch(/--out <dir>/);
  });

  it('builds the sample with exit code 0 and a summary (npm run build itself)', async () => {
    const out = path.join(await tempDir(), 'site');
    const { code, stdout } = await runNpmBuild('--input', SAMPLE_INPUT, '--out', out);
    expect(code).toBe(0);
    expect(stdout).toMatch(/changed/);
    expect(await fs.pathExists(path.join(out, 'api/v1/card/1.json'))).toBe(true);
  });

  it('exits non-zero with a message naming the problem and no stack trace', async () => {
    const dir = await tempDir();
    const input = path.join(dir, 'input');
    await fs.ensureDir(input);
    // out inside the temporary folder too: the failed build still leaves its report beside it.
    const { code, stderr } = await cli('--input', input, '--out', path.join(dir, 'out'));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/no unit database found/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a missing --input, or a file given as one, is one line naming it', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'unit.db');
    await fs.writeFile(file, '');
    for (const [input, problem] of [[path.join(dir, 'nowhere'), 'no such folder'], [file, 'not a folder (give the folder that holds the export)']]) {
      const { code, stderr } = await cli('--input', input, '--out', path.join(dir, 'out'));
      expect(code).toBe(1);
      expect(stderr).toBe(`build failed: --input ${input}: ${problem}\n`);
    }
  });

  it('takes a host plan by name (--plan) and refuses an unknown one', async () => {
    const { out } = await publishedSample();
    const paid = await cli('--input', SAMPLE_INPUT, '--out', out, '--plan', 'cloudflare-paid');
    expect(paid.stdout).toMatch(/^host: Cloudflare Paid: \d+ of 100,000 files;/m);
    const unknown = await cli('--input', SAMPLE_INPUT, '--out', out, '--plan', 'enterprise');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/--plan.*enterprise.*free, cloudflare-paid/);
  });
});
