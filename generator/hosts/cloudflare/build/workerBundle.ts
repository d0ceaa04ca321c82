/**
 * generator/hosts/cloudflare/runtime/pagesWorker.ts and what it imports as one ES module (the Pages
 * `_worker.js`), kept between processes in the repository's `.cache/pages-worker.json`
 * (keptBundle.ts): a build whose sources are the same bytes takes the kept bundle instead of
 * starting esbuild.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type BuildOptions } from 'esbuild';
import { keep, keptValue, type KeptPlace } from '../../../build/keptBundle.ts';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const WORKER_ENTRY = 'generator/hosts/cloudflare/runtime/pagesWorker.ts';

/**
 * The edge loads no package, so the bundle holds only this repository's code; paths in its
 * comments are relative to the repository, so it is the same wherever the build runs.
 */
const OPTIONS: BuildOptions = {
  entryPoints: [WORKER_ENTRY],
  absWorkingDir: ROOT,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  write: false,
  banner: { js: `// Cloudflare Pages worker, bundled by npm run build from ${WORKER_ENTRY}.` },
};

const PLACE: KeptPlace = { file: path.join(ROOT, '.cache', 'pages-worker.json'), root: ROOT, options: OPTIONS };

function bundle(): Buffer {
  const started = Date.now();
  const { outputFiles, metafile } = buildSync({ ...OPTIONS, metafile: true });
  const code = Buffer.from(outputFiles![0].contents);
  keep(PLACE, metafile!, started, code.toString('utf8'));
  return code;
}

let worker: Buffer | undefined;

/** The bundle, made once per process: the kept one when its sources are unchanged, else esbuild's. */
export function pagesWorkerBundle(): Buffer {
  if (worker) return worker;
  const kept = keptValue<string>(PLACE);
  worker = kept === undefined ? bundle() : Buffer.from(kept, 'utf8');
  return worker;
}
