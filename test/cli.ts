/** The build CLI as the tests run it: its bundle (test/bin.ts) under node, from the repository root. */
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SAMPLE_INPUT } from './globalSetup.ts';
import { compiled } from './bin.ts';

export const ROOT = path.resolve(SAMPLE_INPUT, '..');

/** The arguments for node that run the build CLI (then its own arguments). */
export const cliArgs = async (): Promise<string[]> => [await compiled('generator/build/cli.ts')];

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the build CLI with `args` from the repository root; resolves with its exit code and output, never rejects. */
export async function runCli(...args: string[]): Promise<CliResult> {
  return captured(process.execPath, [...(await cliArgs()), ...args]);
}

/** `npm run build -- <args>` itself, as a user types it (tsx compiling the sources as it loads them). */
export function runNpmBuild(...args: string[]): Promise<CliResult> {
  return captured('npm', ['run', '--silent', 'build', '--', ...args]);
}

function captured(command: string, args: string[]): Promise<CliResult> {
  return promisify(execFile)(command, args, { cwd: ROOT })
    .then((r) => ({ code: 0, ...r }), (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }));
}
