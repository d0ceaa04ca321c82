/**
 * Build progress on stderr: a live bar on a terminal; on anything else (CI logs,
 * pipes) one quiet line per finished stage.
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
  if (!stream.isTTY) {
    return (event) => {
      if (event.kind === 'end') stream.write(`${event.stage}: ${event.ms} ms\n`);
    };
  }
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
