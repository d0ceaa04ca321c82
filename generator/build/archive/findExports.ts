/**
 * The exports of an archive folder (docs/archive.md): every folder under it laid out as an
 * `--input` folder is (a `meta.json`, or a unit database at its top or in the client's
 * `db/unit/`), at any depth of grouping folders; an export's own folders are not searched for
 * more. Links are not followed (an archive is untrusted input like any export).
 */
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';

/** The names a unit database goes by (input/discover.ts reads the same). */
const UNIT_FILE = /^unit\.(db_|db|sqlite|db\.sql|sql)$/i;

/** How deep grouping folders may nest (`jp/2018/jp-2018-09-20/`): a bound on the walk, not a layout rule. */
const MAX_DEPTH = 6;

function isExport(dir: string): boolean {
  const has = (rel: string) => fs.existsSync(path.join(dir, rel));
  if (has('meta.json')) return true;
  const unitIn = (folder: string) => has(folder) && fs.readdirSync(path.join(dir, folder)).some((name) => UNIT_FILE.test(name));
  return unitIn('.') || unitIn('db/unit');
}

const subFolders = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();

/** The exports under `root`, relative to it ('/'-separated), in name order. */
export function findExports(root: string, given = root): string[] {
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UserError(`--archive ${given}: no such folder`);
  if (isExport(root)) throw new UserError(`--archive ${given}: this folder is one export; give the folder that holds the exports, one sub-folder each (or build it alone with --input)`);
  const found: string[] = [];
  const walk = (rel: string, depth: number) => {
    for (const name of subFolders(path.join(root, rel))) {
      const child = rel ? `${rel}/${name}` : name;
      if (isExport(path.join(root, child))) found.push(child);
      else if (depth < MAX_DEPTH) walk(child, depth + 1);
    }
  };
  walk('', 1);
  if (!found.length) throw new UserError(`--archive ${given}: no export in it (an export is a folder with a meta.json or a unit database)`);
  return found;
}
