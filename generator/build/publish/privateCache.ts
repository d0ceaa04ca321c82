/**
 * The builder's own files beside the output folder (`.cache/<kind>/<folder name>`, layout.ts)
 * are written without a second look: a report, a manifest, a download's `.part` file. Were one
 * of them a link, that write would land wherever the link leads; were a folder on the way
 * someone else's, they could plant one at any time (`--out /tmp/public` puts the cache in
 * `/tmp/.cache`). So before anything is written there, each folder on the way must be a real
 * folder (not a link) of this user that others cannot write to, and the folders the builder
 * keeps between runs must hold no link at all; anything else is refused in one line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import type { PublishLayout } from './layout.ts';

const refuse = (file: string, why: string): never => {
  throw new UserError(`${file} ${why}; the builder writes its own files there, so it refuses to (remove it, or choose another --out)`);
};

/** Fails unless `dir` (when it exists) is a real folder of this user that no other user can write to. */
function checkPrivateFolder(dir: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    return; // created by the builder itself, with the user's own permissions
  }
  if (stat.isSymbolicLink()) refuse(dir, 'is a link');
  if (!stat.isDirectory()) refuse(dir, 'is not a folder');
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) refuse(dir, `belongs to another user (uid ${stat.uid})`);
  if (stat.mode & 0o002) refuse(dir, 'can be written by any user');
}

/** The first link in the folder `dir` or below it, leaving out `skip` (the published versions, which are only renamed and read). */
function firstLink(dir: string, skip: string): string | null {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return null; // absent
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) return file;
    const inner = entry.isDirectory() && file !== skip ? firstLink(file, skip) : null;
    if (inner) return inner;
  }
  return null;
}

/** The builder's own folders: each folder from `.cache` down to them, and what they hold. */
const ownFolders = (layout: PublishLayout) => [layout.work, layout.images, layout.downloads];

/**
 * Before the lock is taken: every folder from `.cache` down to the builder's own ones is
 * private to this user, and the lock file is no link (SQLite would open its target).
 */
export function checkCacheFolders(layout: PublishLayout): void {
  const cache = path.dirname(path.dirname(layout.work));
  // The archive's folder holds its scratch site, whose output folder is a link: it is checked here, not by checkNoLinks.
  const folders = new Set([cache, ...[...ownFolders(layout), layout.archive].flatMap((own) => [path.dirname(own), own])]);
  for (const dir of folders) checkPrivateFolder(dir);
  const lock = fs.lstatSync(layout.lock, { throwIfNoEntry: false });
  if (lock?.isSymbolicLink()) refuse(layout.lock, 'is a link');
}

/**
 * Under the lock, once a killed build's leftovers (its link to the next site) are gone: the
 * builder's own folders hold no link, so no write of a report, a manifest or a download
 * follows one out of them.
 */
export function checkNoLinks(layout: PublishLayout): void {
  for (const own of ownFolders(layout)) {
    const link = firstLink(own, layout.sites);
    if (link) refuse(link, 'is a link, which the builder never makes there');
  }
}
