/** The local server as `npm start` runs it (node with tsx's loader on generator/server/serve.ts), in its own process. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Starts the server on a free port; resolves once it prints its URL. */
export function startServerProcess(dir: string, args: string[] = []): Promise<{ url: URL; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'generator/server/serve.ts', '--port', '0', '--dir', dir, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
      if (url) resolve({ url: new URL(url), child });
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code, signal) => reject(new Error(`server exited with ${code ?? signal}: ${output}`)));
  });
}

/** The peak resident memory of a process, in MB (Linux). */
export function peakRssMb(pid: number): number {
  const line = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) / 1024 : NaN;
}

