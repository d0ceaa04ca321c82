/** Reading a picture from input/assets at the asset path a database names. */
import path from 'node:path';
import fs from 'fs-extra';

export type SourceProblem = { ok: false; problem: 'missing' | 'unreadable'; detail: string };
export type SourceResult = { ok: true; bytes: Buffer } | SourceProblem;

/**
 * Client asset paths start with `assets/` (`assets/image/units/...`) and are taken relative
 * to the input folder; paths without that prefix are taken relative to input/assets.
 * Either way the file must lie inside input/assets.
 */
export function assetFile(input: string, asset: string): string | null {
  const clean = asset.replace(/\\/g, '/').replace(/^\/+/, '');
  const assets = path.join(input, 'assets');
  const file = clean.startsWith('assets/') ? path.join(input, clean) : path.join(assets, clean);
  const rel = path.relative(assets, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? file : null;
}

export async function readSource(input: string, asset: string | null): Promise<SourceResult> {
  if (asset === null) return { ok: false, problem: 'missing', detail: 'the database names no asset' };
  const file = assetFile(input, asset);
  if (file === null) return { ok: false, problem: 'unreadable', detail: `${asset}: outside input/assets` };
  try {
    return { ok: true, bytes: await fs.readFile(file) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: 'missing', detail: asset };
    return { ok: false, problem: 'unreadable', detail: `${asset}: ${code ?? (error as Error).message}` };
  }
}
