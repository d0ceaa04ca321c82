import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { defineConfig, defineProject } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite's tiers are the test folder's layout: test/<tier>/*.test.ts, every test file in exactly
 * one (checked below: a file outside them stops the run before it starts). `npx vitest run
 * --project <tier>` runs one tier as a vitest project; `npm test` (CI) runs them all (as two
 * projects, see `projects`); `npm run test:unit` the unit tier alone, the edit loop.
 * - unit: render in memory, read the shared sample build, or build small exports of their own;
 *   none of the repository's programs started as a process, no browser, server or host runtime;
 * - build: build sites on disk (publishing, pictures, changes, the contract on the 4,000-card
 *   site), with at most a system tool (sha256sum, mkfifo) beside them;
 * - hosts: start the programs and the host runtimes: the build CLI, the server, the mirror,
 *   Deno and workerd (the route suite), builds killed mid-way;
 * - browser: pages in Chromium.
 * Modules the tests share (helpers.ts, the host runtimes' harnesses...) sit in test/ itself.
 */
const TIERS = ['unit', 'build', 'hosts', 'browser'] as const;
type Tier = (typeof TIERS)[number];
const tierFiles = (tier: Tier) => `test/${tier}/*.test.ts`;

/** Stops the run when a test file is in no tier's folder (it would never run). */
function checkTiers(): void {
  const outside = fg.sync('test/**/*.test.ts').filter((file) => !TIERS.some((tier) => file.split('/').slice(0, -1).join('/') === `test/${tier}`));
  if (outside.length) throw new Error(`vitest.config.ts: ${outside.join(', ')} in no tier: a test file goes in test/unit, test/build, test/hosts or test/browser`);
}
checkTiers();

/**
 * Files that take longest (builds, child processes, a browser): started first, so no long file
 * starts last and leaves a CPU idle at the end. server.test.ts comes before publish.test.ts: most
 * of its seconds are a client waiting on a kept-alive connection, which cost no CPU while the
 * browser's files keep a third file running beside the two workers (after them, two such waits
 * at once left a CPU idle). vitest orders by its cached durations when it has them; a fresh clone
 * has none, so this order holds in any case. A project's files run together, in fresh workers
 * (see `isolate` below): projects start in the order of their first file here.
 */
const LONG_FILES = [
  'page', 'routes', 'server', 'publish', 'mirror', 'contract', 'changes', 'outFolder',
  // The unit tier's longest, in the order they take (a unit run alone started search.test.ts last and ended on it).
  'search', 'changesInMemory', 'sqlDump', 'songs', 'bulkInMemory', 'versionsInMemory', 'notes',
  // Its import graph is made while the file loads (the typescript package, every module read: about half a
  // second), time vitest's cached durations leave out: sorted by them, it came last, the other worker idle meanwhile.
  'imports',
].map((name) => `/${name}.test.ts`);

/**
 * The suite's temporary folders (sites, exports, wrangler state) on a memory filesystem when the
 * machine has one and TMPDIR does not choose another: the tests create and remove tens of
 * thousands of small files, which on a disk mounted with online discard cost more system time
 * than the tests themselves. Set here, in the main process, so workers and every child process
 * they start inherit it.
 */
const MEMORY_TMP = '/dev/shm';
if (!process.env.TMPDIR && isWritableFolder(MEMORY_TMP)) process.env.TMPDIR = MEMORY_TMP;

function isWritableFolder(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The modules test files import: the generator's (but the page's scripts, which run in the browser) and the shared test modules. */
const IMPORTED_MODULES = ['generator/**/*.{ts,js}', 'test/*.ts'];

/**
 * Starts transforming, all at once, the modules the test files of each project that runs two or
 * more of them import, and those files themselves (vite's warmupRequest; a failure is logged, and
 * the module transformed again when asked for). A worker imports a file's modules one after
 * another (vite's SSR transform awaits each import in turn), each transformed only when first
 * asked for: the workers' first files waited on the main process module by module, a CPU idle
 * meanwhile. The unit tier, alternated with and without: its first test file started 3.2-3.4 s
 * after the run did, against 3.5-4.1 s; the whole tier's time moves more than that with the
 * machine's load (docs/benchmark.md). Done here, where the files of the run are known: a run of
 * one file is left alone, most of the generator would be transformed for nothing (warmed as each
 * project's server started, a run of one small unit test file took 7.3 s instead of 3.8 s).
 */
function warmTransforms(files: TestSpecification[]): void {
  const modules = fg.sync(IMPORTED_MODULES, { ignore: ['generator/web/page/**', '**/*.d.ts'], absolute: true });
  for (const project of new Set(files.map((file) => file.project))) {
    const own = files.filter((file) => file.project === project).map((file) => file.moduleId);
    if (own.length < 2) continue;
    const { root } = project.vite.config;
    for (const file of [...modules, ...own]) void project.vite.environments.ssr.warmupRequest(`/${path.relative(root, file)}`);
  }
}

class LongFilesFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    warmTransforms(files);
    const rank = (file: TestSpecification) => {
      const at = LONG_FILES.findIndex((suffix) => file.moduleId.endsWith(suffix));
      return at === -1 ? LONG_FILES.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/** Test files run at once: one per CPU. */
const WORKERS = os.availableParallelism();

/** Options every project takes alike (a project of its own does not inherit the root's `test`). */
const PROJECT_OPTIONS = {
  // Removes each file's temporary folders after it; resets what a file sets globally.
  setupFiles: ['test/setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

/**
 * A project running the test files of `tiers`: the browser tier in a pool of its own (threads,
 * one file at a time) beside the others, so that its longest file (page.test.ts) runs alongside
 * them rather than after them; every other tier in processes (forks).
 */
const project = (name: string, tiers: Tier[]) => defineProject({
  test: {
    ...PROJECT_OPTIONS,
    name,
    include: tiers.map(tierFiles),
    pool: tiers.includes('browser') ? 'threads' : 'forks',
  },
});

/** Whether the command line names a tier as a project (`--project unit`, `--project=hosts`). */
function tierAsked(argv: string[]): boolean {
  const asked = argv.flatMap((arg, i) => (arg === '--project' ? [argv[i + 1]] : arg.startsWith('--project=') ? [arg.slice('--project='.length)] : []));
  return asked.some((name) => (TIERS as readonly string[]).includes(name));
}

/**
 * The projects of a run. A tier asked for by name (`npx vitest run --project unit`) is a project
 * of its own. The whole run (`npm test`, CI) runs the unit, build and hosts tiers as ONE project
 * beside the browser's: vitest 3 runs a pool's projects one after another, waiting for the last
 * file of one before it starts the next, each in fresh workers that load the generator again.
 * Measured on two CPUs: about 11 s of CPU and 6 s of wall more for the same files as four
 * projects than as two.
 */
const projects = tierAsked(process.argv)
  ? TIERS.map((tier) => project(tier, [tier]))
  : [project('processes', ['unit', 'build', 'hosts']), project('browser', ['browser'])];

export default defineConfig({
  test: {
    projects,
    // Builds the sample once for the whole run, every project's files reading it (the projects inherit what it provides).
    globalSetup: ['test/globalSetup.ts'],
    // One file per CPU (vitest's default leaves one idle): the files wait on disks, child processes
    // and browsers much of the time, so on two CPUs this takes about a third off the run.
    maxWorkers: WORKERS,
    // As many kept as started: tinypool ends workers idle beyond minWorkers, and ending a worker of
    // this pool (isolate: false) failed the run with "Terminating worker thread" after every test
    // passed (on three CPUs or more, or under load). Fewer workers: --maxWorkers=N --minWorkers=N.
    minWorkers: WORKERS,
    // Workers that keep the modules they loaded from one file to the next: each file no longer
    // loads the generator anew (test/setup.ts resets what a file sets globally); vitest still gives
    // each project fresh workers. Processes for every tier but the browser's (`project`): a thread
    // pool running every file once ended a run with "Terminating worker thread" after a failed
    // test; the browser tier's one thread, kept from its first file to its last, ends with the run.
    isolate: false,
    poolOptions: { threads: { maxThreads: 1, minThreads: 1 } },
    sequence: { sequencer: LongFilesFirst },
  },
});
