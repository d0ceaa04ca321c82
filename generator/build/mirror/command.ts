/** The commander program of `npm run mirror` (generator/build/mirrorCli.ts runs it): its options, and the summary or failure it prints. */
import { Command, InvalidArgumentError } from 'commander';
import { mirror, type MirrorResult } from './mirror.ts';
import { failureLines } from '../errors.ts';
import { progressDisplay } from '../progress.ts';
import { publishLayout } from '../publish/layout.ts';

const mebibytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function summary(result: MirrorResult, out: string): string {
  const { report } = result;
  if (report.upToDate) return `mirror: ${out} is already a copy of this site (truth_version ${result.truthVersion}); nothing fetched`;
  return [
    `mirror: ${result.fetched.length} files fetched, ${result.derived} made from the site's other files, ${result.fromCopy} kept from the copy, ${result.fromCache} from earlier downloads; ${report.changed} changed, ${report.removed} removed`,
    `${mebibytes(result.fetchedBytes)} received (${result.ranges} byte ranges among them), ${mebibytes(result.reusedBytes)} reused from blocks of the copy's old files`,
    `${out} is a copy of the site at truth_version ${result.truthVersion}`,
    `timings: ${Object.entries(report.timings).map(([k, v]) => `${k}=${v}ms`).join(' ')}`,
  ].join('\n');
}

/** A whole number of at least 1 (`--concurrency`); anything else is one line from commander, exit 1. */
function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('expected a whole number of at least 1');
  return Number(value);
}

/** The longest wait a timer takes (Node fires a longer one at once). */
const MAX_SECONDS = 86_400;

/** A number of seconds above 0 and at most a day (`--idle-timeout`, `--deadline`), such as 30 or 0.5. */
function seconds(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0 || number > MAX_SECONDS) {
    throw new InvalidArgumentError(`expected a number of seconds above 0 and at most ${MAX_SECONDS}, such as 30 or 0.5`);
  }
  return number;
}

/** The command `npm run mirror` parses its arguments with (mirrorCli.ts); tests parse with it in-process. */
export function mirrorCommand(): Command {
  return new Command('mirror')
    .description('Copy a deployed site of this API into a folder, fetching only missing or changed files')
    .requiredOption('--from <url>', 'the site\'s address')
    .requiredOption('-o, --out <dir>', 'the copy (replaced atomically; only a folder this tool or the build published)')
    .option('-j, --concurrency <n>', 'downloads at once', wholeNumber, 8)
    .option('--idle-timeout <seconds>', 'give up when the site sends nothing for this long', seconds, 60)
    .option('--deadline <seconds>', 'give up when one file takes longer than this (plus a second per 64 KiB of it)', seconds, 300)
    .option('--no-derive', 'download the bulk parts, card packs and histories too, instead of making them from the site\'s other files')
    .action(async ({ idleTimeout, deadline, ...options }: { from: string; out: string; concurrency: number; idleTimeout: number; deadline: number; derive: boolean }) => {
      const { out } = publishLayout(options.out);
      try {
        const result = await mirror({ ...options, idleSeconds: idleTimeout, deadlineSeconds: deadline, progress: progressDisplay(process.stderr) });
        console.log(summary(result, out));
      } catch (error) {
        console.error(failureLines('mirror', error, out));
        process.exitCode = 1;
      }
    });
}
