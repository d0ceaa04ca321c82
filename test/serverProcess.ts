/**
 * The local server in its own process, the one starter of the tests: generator/hosts/node/runtime/serve.ts's
 * bundle under node (test/bin.ts), or `npm start` itself where the npm script is the subject.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compiled } from './bin.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ServerProcess {
  url: URL;
  child: ChildProcess;
  /** What the process printed so far. */
  output(): string;
  /** Ends the process and what it started (npm -> sh -> node), and waits for it. */
  stop(): Promise<void>;
}

/**
 * Runs `command` as the leader of its own process group (so stopping it stops what it started:
 * npm -> sh -> node, wrangler -> workerd); resolves once it prints a 127.0.0.1 URL, rejects with
 * its output if it exits before.
 */
export function startProcess(command: string, args: string[], { env = {}, cwd = ROOT }: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<ServerProcess> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  };
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0];
      if (url) resolve({ url: new URL(`${url}/`), child, output: () => output, stop });
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code, signal) => reject(new Error(`${command} exited with ${code ?? signal}: ${output}`)));
  });
}

/** Starts the server on `dir` on a free port (`args` after it may choose another). */
export async function startServerProcess(dir: string, args: string[] = [], { viaNpm = false } = {}): Promise<ServerProcess> {
  const serverArgs = ['--port', '0', '--dir', dir, ...args];
  return viaNpm
    ? startProcess('npm', ['start', '--', ...serverArgs])
    : startProcess(process.execPath, [await compiled('generator/hosts/node/runtime/serve.ts'), ...serverArgs]);
}

/** The peak resident memory of a process, in MB (Linux). */
export function peakRssMb(pid: number): number {
  const line = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) / 1024 : NaN;
}

/** /proc's clock ticks per second (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/** Process `pid`'s name and the fields of its /proc stat line after the name (its state first; Linux). */
function procStat(pid: number | string): { name: string; fields: string[] } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const end = stat.lastIndexOf(')');
  return { name: stat.slice(stat.indexOf('(') + 1, end), fields: stat.slice(end + 2).split(' ') };
}

/** A process's state letter (R running, S sleeping, Z a zombie...; Linux). */
export const processState = (pid: number): string => procStat(pid).fields[0];

/** The CPU time (user and kernel, ms, in 10 ms ticks) a process has taken so far (Linux). */
export function cpuMs(pid: number): number {
  const { fields } = procStat(pid);
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
}

/** The processes named `name` this process started, as their pids (Linux). */
export function childProcesses(name: string): number[] {
  return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((entry) => {
    try {
      const { name: command, fields } = procStat(entry);
      return command === name && Number(fields[1]) === process.pid ? [Number(entry)] : [];
    } catch {
      return []; // ended meanwhile
    }
  });
}
