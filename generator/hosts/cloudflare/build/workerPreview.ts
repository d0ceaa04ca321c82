/**
 * `npm run worker -- --dir <site> [--port <n>]`: any built site as a Cloudflare Worker with static
 * assets under `wrangler dev` (workerd, offline), configured from the repository's wrangler.json,
 * the one the site deploys with, with the site's folder in place of `public/`. wrangler reads one
 * configuration file and resolves its paths against it, so the configuration is written to a
 * temporary folder, naming the site by its real path (a build's output folder is a link to its
 * current version, which a later build replaces: the preview keeps the version it started on).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { endpoints } from '../../../contract/endpoints.ts';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const WORKER_FILE = '_worker.js';

/** wrangler.json with `dir` as the worker's folder: its `_worker.js` and its assets. */
export function previewConfig(dir: string): Record<string, unknown> {
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'wrangler.json'), 'utf8')) as { main: string; assets: Record<string, unknown> };
  return { ...config, main: path.join(dir, path.basename(config.main)), assets: { ...config.assets, directory: dir } };
}

/** The real folder of a built site, or one line saying why `given` is none. */
function siteFolder(given: string): string {
  const dir = path.resolve(given);
  if (!fs.existsSync(path.join(dir, endpoints.info.file())) || !fs.existsSync(path.join(dir, WORKER_FILE))) {
    throw new InvalidArgumentError(`${given} holds no built site (no ${endpoints.info.file()} and ${WORKER_FILE}); build one with npm run build -- --out ${given}`);
  }
  return fs.realpathSync(dir);
}

const parsePort = (value: string): number => {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) throw new InvalidArgumentError('expected a port number 1-65535');
  return port;
};

const program = new Command('worker')
  .description('Serve a built site as a Cloudflare Worker with static assets (wrangler dev, offline), as wrangler.json deploys it')
  .option('-d, --dir <dir>', 'the built site', 'public')
  .option('-p, --port <n>', 'port on 127.0.0.1', parsePort, 8787)
  .action(({ dir, port }: { dir: string; port: number }) => {
    let site: string;
    try {
      site = siteFolder(dir);
    } catch (error) {
      console.error(`worker: ${(error as Error).message}`);
      process.exitCode = 1;
      return;
    }
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sif-worker-'));
    const config = path.join(folder, 'wrangler.json');
    fs.writeFileSync(config, JSON.stringify(previewConfig(site), null, 2));
    const wrangler = path.join(ROOT, 'node_modules', '.bin', 'wrangler');
    const child = spawn(wrangler, ['dev', '--config', config, '--ip', '127.0.0.1', '--port', String(port)], { stdio: 'inherit' });
    const cleanUp = () => fs.rmSync(folder, { recursive: true, force: true });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    child.on('exit', (code) => {
      cleanUp();
      process.exitCode = code ?? 1;
    });
  });

// Run as the npm script; imported (the tests), it only lends previewConfig.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) program.parse();
