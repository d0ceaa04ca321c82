/** The build CLI as a user runs it (`npm run build -- ...`), without npx's start-up: node with tsx's loader. */
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SAMPLE_INPUT } from './globalSetup.ts';

export const ROOT = path.resolve(SAMPLE_INPUT, '..');
export const CLI_ARGS = ['--import', 'tsx', 'generator/cli.ts'];

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `generator/cli.ts` with `args` from the repository root; resolves with its exit code and output, never rejects. */
export function runCli(...args: string[]): Promise<CliResult> {
  return promisify(execFile)(process.execPath, [...CLI_ARGS, ...args], { cwd: ROOT })
    .then((r) => ({ code: 0, ...r }), (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }));
}
