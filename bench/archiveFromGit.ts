/**
 * Lays out an archive of real exports (one folder per export, for the build's `--archive`
 * mode) from a git repository that kept the game's databases over time.
 *
 * `npx tsx bench/archiveFromGit.ts --git <bare git dir> --region <jp|ww|cn|tw|kr>
 *    --files <path in repo>[,<path>...] --out <archive folder>`
 *
 * For every commit (oldest first) that changes any of the named files, writes
 * `<out>/<region>-<YYYY-MM-DD>/` with each named file as it was at that commit (under its base
 * name; a file absent at that commit is skipped) and `meta.json` `{"region", "date"}`, the
 * date being the commit's author date as a day in the region's time. Of two commits on the
 * same day the later one is kept. Refuses an `--out` inside this repository.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';

const OFFSET_HOURS: Record<string, number> = { jp: 9, ww: 9, kr: 9, cn: 8, tw: 8 };
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Options { git: string; region: string; files: string; out: string }
interface Export { commit: string; day: string; subject: string }

function git(gitDir: string, args: string[]): { status: number | null; stdout: Buffer; stderr: string } {
  const r = spawnSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 2 ** 31 - 1 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

/** The real path of `p`, or of its nearest existing ancestor joined with the rest. */
function realish(p: string): string {
  const abs = path.resolve(p);
  if (fs.existsSync(abs)) return fs.realpathSync(abs);
  return path.join(realish(path.dirname(abs)), path.basename(abs));
}

function inside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function main(o: Options): void {
  const offset = OFFSET_HOURS[o.region];
  if (offset === undefined) throw new Error(`--region must be one of ${Object.keys(OFFSET_HOURS).join(', ')}`);
  const out = realish(o.out);
  if (inside(out, fs.realpathSync(REPO_ROOT))) throw new Error(`--out ${out} is inside the repository ${REPO_ROOT}: give a folder outside it`);
  if (inside(out, realish(o.git))) throw new Error(`--out ${out} is inside the git directory ${o.git}`);
  const files = o.files.split(',').map((f) => f.trim()).filter(Boolean);
  if (files.length === 0) throw new Error('--files names no file');

  const log = git(o.git, ['log', '--reverse', '--format=%H%x09%at%x09%s', '--', ...files]);
  if (log.status !== 0) throw new Error(`git log failed: ${log.stderr.trim()}`);
  const byDay = new Map<string, Export>();
  for (const line of log.stdout.toString().split('\n').filter(Boolean)) {
    const [commit, at, subject = ''] = line.split('\t');
    const day = new Date((Number(at) + offset * 3600) * 1000).toISOString().slice(0, 10);
    const earlier = byDay.get(day);
    if (earlier) console.log(`${o.region}-${day}: ${commit.slice(0, 7)} replaces ${earlier.commit.slice(0, 7)} of the same day`);
    byDay.set(day, { commit, day, subject });
  }

  for (const e of byDay.values()) {
    const dir = path.join(out, `${o.region}-${e.day}`);
    const written: string[] = [];
    let bytes = 0;
    for (const file of files) {
      const show = git(o.git, ['show', `${e.commit}:${file}`]);
      if (show.status !== 0) continue; // absent at this commit
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, path.basename(file)), show.stdout);
      written.push(`${path.basename(file)} ${show.stdout.length}`);
      bytes += show.stdout.length;
    }
    if (written.length === 0) {
      console.log(`${o.region}-${e.day}: ${e.commit.slice(0, 7)} has none of the files, skipped`);
      continue;
    }
    fs.writeFileSync(path.join(dir, 'meta.json'), JSON.stringify({ region: o.region, date: e.day }) + '\n');
    console.log(`${path.relative(process.cwd(), dir) || dir}  ${e.commit.slice(0, 7)}  ${(bytes / 1048576).toFixed(1)} MB  (${written.join(', ')})  "${e.subject}"`);
  }
}

const program = new Command('archiveFromGit')
  .requiredOption('--git <dir>', 'a (bare) git directory')
  .requiredOption('--region <region>', 'jp, ww, cn, tw or kr')
  .requiredOption('--files <paths>', 'comma-separated paths in the repository')
  .requiredOption('--out <dir>', 'the archive folder (outside this repository)')
  .action((o: Options) => main(o));
try {
  program.parse();
} catch (err) {
  console.error(`archiveFromGit: ${(err as Error).message}`);
  process.exit(1);
}
