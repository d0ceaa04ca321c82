/**
 * Builds at hostile scale: a generated export of N cards (default 200,000, the scale an attack
 * on the build used) built by the CLI in its own process, measured with /usr/bin/time: wall
 * time, CPU time (user and kernel, every thread: what a loaded machine moves least), peak
 * resident memory and the site's size, so memory can be compared with the output.
 *
 * `npx tsx bench/scale.ts [cards ...]` (several counts show how memory grows with the output).
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { writeSampleExport } from '../generator/build/sample/make-sample.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Files and bytes under `dir` (following the output folder's link). */
function siteSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

/** The options `npm run build` gives node (package.json's build script, before `--import`): the bench builds as the CLI does. */
export function buildNodeOptions(): string[] {
  const words = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { build: string } }).scripts.build.split(/\s+/);
  return words.slice(1, words.indexOf('--import'));
}

export async function measureScale(cards: number, root: string) {
  const input = path.join(root, `input-${cards}`);
  const out = path.join(root, `site-${cards}`, 'public');
  await writeSampleExport(input, { cards, accessories: Math.ceil(cards / 7), format: 'sqlite', images: false });
  const start = performance.now();
  // /usr/bin/time -f: peak resident set size in KiB and CPU seconds, on stderr's last line.
  // The CLI's build, with its node options, against no host's limits (bench/scaleBuild.ts): Cloudflare Free refuses sites past about 20,000 cards.
  const { stdout, stderr, status } = spawnSync('/usr/bin/time', ['-f', 'peak_kib=%M user_s=%U sys_s=%S', process.execPath, ...buildNodeOptions(), '--import', 'tsx', 'bench/scaleBuild.ts', input, out], {
    cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024,
  });
  if (status !== 0) throw new Error(`the build of ${cards} cards failed: ${stderr.trim().split('\n').slice(-3).join(' / ')}`);
  const seconds = (performance.now() - start) / 1000;
  const peakMiB = Number(/peak_kib=(\d+)/.exec(stderr)?.[1]) / 1024;
  const [, user, system] = /user_s=([\d.]+) sys_s=([\d.]+)/.exec(stderr)!.map(Number);
  const site = siteSize(fs.realpathSync(out));
  const siteMiB = site.bytes / 2 ** 20;
  fs.rmSync(path.join(root, `site-${cards}`), { recursive: true, force: true });
  fs.rmSync(input, { recursive: true, force: true });
  const timings = /^timings: .*$/m.exec(stdout)?.[0] ?? '';
  return { cards, seconds, user, system, peakMiB, siteMiB, files: site.files, timings };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sif-scale-'));
  try {
    for (const cards of (process.argv.length > 2 ? process.argv.slice(2) : ['200000']).map(Number)) {
      const r = await measureScale(cards, root);
      console.log(`scale: ${r.cards} cards built in ${r.seconds.toFixed(1)} s (cpu ${r.user.toFixed(1)} s user, ${r.system.toFixed(1)} s kernel; load ${os.loadavg()[0].toFixed(1)}), site ${r.files} files ${r.siteMiB.toFixed(0)} MiB, peak rss ${r.peakMiB.toFixed(0)} MiB (${(r.peakMiB / r.siteMiB).toFixed(2)} x the site); ${r.timings}`);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
