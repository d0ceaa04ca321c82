/** Reading a picture from input/assets at the asset path a database names. */
import path from 'node:path';
import { readRegularBytes, type InputFolder } from '../input/inputFiles.ts';
import { MAX_PICTURE_BYTES } from '../input/limits.ts';
import { UserError } from '../errors.ts';

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
  // path.join has resolved any `..`; a string test is much cheaper than path.relative for thousands of assets.
  const inside = file.startsWith(assets + path.sep) && file.length > assets.length + 1 && !file.endsWith(path.sep);
  return inside ? file : null;
}

/**
 * Every file under input/assets, listed once: exports often miss thousands of pictures,
 * and one listing is cheaper than a failing lookup for each. Links leading outside the
 * input folder are left out, so they are never read.
 */
export function listAssets(input: InputFolder): Set<string> {
  return new Set(input.files((rel) => rel.startsWith('assets/'), { hidden: true }).map((rel) => path.join(input.root, rel)));
}

/**
 * Why the picture at `asset` cannot be read without looking at the disk (none named, outside
 * input/assets, not listed), or null when it is listed: most pictures of an export are missing,
 * and telling those costs no promise each.
 */
export function sourceProblem(input: string, asset: string | null, present: Set<string>): SourceProblem | null {
  if (asset === null) return { ok: false, problem: 'missing', detail: 'the database names no asset' };
  const file = assetFile(input, asset);
  if (file === null) return { ok: false, problem: 'unreadable', detail: `${asset}: outside input/assets` };
  if (!present.has(file)) return { ok: false, problem: 'missing', detail: asset };
  return null;
}

/** The picture at `asset`; `present` is listAssets(input). */
export async function readSource(input: string, asset: string | null, present: Set<string>): Promise<SourceResult> {
  const absent = sourceProblem(input, asset, present);
  if (absent || asset === null) return absent!;
  const file = assetFile(input, asset)!;
  try {
    return { ok: true, bytes: readRegularBytes(file, MAX_PICTURE_BYTES) };
  } catch (error) {
    if (error instanceof UserError) return { ok: false, problem: 'unreadable', detail: error.message };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: 'missing', detail: asset };
    return { ok: false, problem: 'unreadable', detail: `${asset}: ${code ?? (error as Error).message}` };
  }
}
