/**
 * `npm run build`: the commander CLI, run as a user runs it (once through npm and tsx, else its bundle: test/bin.ts).
 * A process where the process is the subject (its options, exit code and what it prints); what a
 * failed build's message says is checked on in-process builds (test/hosts/publish.test.ts, test/unit/input.test.ts).
 */
import path from 'node:path';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';
import { build } from '../../generator/build/build.ts';
import { UserError } from '../../generator/build/errors.ts';
import { buildSummary } from '../../generator/build/summary.ts';
import { PLANS } from '../../generator/hosts/all/build/hostLimits.ts';
import { publishLayout } from '../../generator/build/publish/layout.ts';
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

  // A failed build's exit code, its one line and no stack trace: test/hosts/publish.test.ts ('the CLI exits non-zero naming the file').
  it('a missing --input, or a file given as one, is one line naming it', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'unit.db');
    await fs.writeFile(file, '');
    const nowhere = path.join(dir, 'nowhere');
    const { code, stderr } = await cli('--input', nowhere, '--out', path.join(dir, 'out'));
    expect(code).toBe(1);
    expect(stderr).toBe(`build failed: --input ${nowhere}: no such folder\n`);
    // The CLI prints any such refusal as the line above: the file's is checked on the build itself.
    const error = await build({ input: file, out: path.join(dir, 'out') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe(`--input ${file}: not a folder (give the folder that holds the export)`);
  });

  it('takes a host plan by name (--plan) and refuses an unknown one', async () => {
    const unknown = await cli('--input', SAMPLE_INPUT, '--out', path.join(await tempDir(), 'out'), '--plan', 'enterprise');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/--plan.*enterprise.*free, cloudflare-paid/);
    // The CLI hands build() the plan of that name (PLANS[name]); the summary it prints for it, from an in-process build.
    const { out } = await publishedSample();
    const paid = buildSummary(await build({ input: SAMPLE_INPUT, out, plan: PLANS['cloudflare-paid'] }), publishLayout(out).report);
    expect(paid).toMatch(/^host: Cloudflare Paid: \d+ of 100,000 files;/m);
  });
});
