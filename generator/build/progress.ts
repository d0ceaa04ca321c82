/**
 * Build progress on stderr: a live bar on a terminal, cleared as each stage ends; nothing on
 * anything else (CI logs, pipes), where the summary's `timings:` line says how long each
 * stage took, once.
 */
import type { ProgressEvent, ProgressListener } from './report.ts';

const WIDTH = 24;
/** Redraws at most this often, so a fast stage does not flood the terminal. */
const REDRAW_MS = 80;

const bar = (done: number, total: number): string => {
  const filled = total > 0 ? Math.min(WIDTH, Math.round((done / total) * WIDTH)) : 0;
  return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${done}/${total}`;
};

export function progressDisplay(stream: NodeJS.WritableStream & { isTTY?: boolean }): ProgressListener {
  if (!stream.isTTY) return () => {};
  let drawnAt = 0;
  const draw = (line: string) => stream.write(`\r\x1b[K${line}`);
  return (event: ProgressEvent) => {
    if (event.kind === 'start') draw(`${event.stage}...`);
    else if (event.kind === 'end') draw('');
    else if (performance.now() - drawnAt >= REDRAW_MS) {
      drawnAt = performance.now();
      draw(`${event.stage} ${bar(event.done, event.total)}`);
    }
  };
}
