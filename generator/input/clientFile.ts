/**
 * Opens a database file as people copy it: plain SQLite (read in place), or a file the game
 * client encrypted (input/fileCipher.ts), decrypted in memory and opened from there, so no
 * decrypted copy ever lies beside the input.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  CLIENT_REGIONS, SQLITE_MAGIC, decryptClientFile, describeScheme, detectScheme, regionLabel, type FileScheme,
} from './fileCipher.ts';
import { UserError } from '../errors.ts';

/** A decrypted copy is held in memory (twice, briefly, while SQLite takes it over): larger files are refused. */
export const MAX_CLIENT_FILE_BYTES = 512 * 1024 ** 2;

/**
 * Base names of the client's databases (db/<group>/<name>): a file encrypted under one of
 * these but renamed is recognised, so the message can say which name its key needs.
 */
const CLIENT_FILES = [
  'unit', 'event_common', 'item', 'card', 'live', 'achievement', 'album', 'banner', 'battle', 'challenge', 'exchange',
  'festival', 'game_mater', 'login', 'marathon', 'multi_unit', 'museum', 'navigation', 'quest', 'scenario', 'secretbox',
  'subscenario', 'team_duty', 'user', 'award', 'background', 'costume', 'emblem', 'effort', 'common',
].map((name) => `${name}.db_`);

export interface ClientEncryption {
  scheme: FileScheme;
  /** The base name the key was derived from (the client's name for the file). */
  name: string;
  /** "JP V3": region and version. */
  description: string;
}

export interface OpenedFile {
  db: Database.Database;
  /** How the file was encrypted; null for plain SQLite. */
  encryption: ClientEncryption | null;
}

function startsWithMagic(file: string): boolean {
  const head = Buffer.alloc(SQLITE_MAGIC.length);
  const fd = fs.openSync(file, 'r');
  try {
    return fs.readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_MAGIC);
  } finally {
    fs.closeSync(fd);
  }
}

/** Why nothing decrypted the file: a renamed client file names the name its key needs. */
function whyUndecryptable(bytes: Buffer, tried: string[]): string {
  for (const name of CLIENT_FILES.filter((n) => !tried.includes(n))) {
    const found = detectScheme(bytes, name);
    if (found.scheme) return `a ${describeScheme(found.scheme)} client file encrypted under the name ${name}; its key depends on that name, so give the file that name`;
  }
  const unknown = tried.flatMap((name) => {
    const found = detectScheme(bytes, name);
    return found.scheme ? [] : found.unknown;
  })[0];
  if (unknown) return `a ${regionLabel(unknown.region)} client file whose header names encryption sub-version ${unknown.subVersion}, which no public description covers (V1 to V6 are read)`;
  const regions = CLIENT_REGIONS.map(regionLabel).join(', ');
  return `not plain SQLite, and no client encryption opens it: tried versions V1 to V6 with the ${regions} keys for the name ${tried.join(' and ')}; `
    + 'the key depends on the name the client stores the file under, such as unit.db_';
}

/** Decrypts a client file in memory; `clientName` is the client's own name for it, tried after the file's base name. */
function openEncrypted(file: string, clientName: string): OpenedFile {
  const size = fs.statSync(file).size;
  if (size > MAX_CLIENT_FILE_BYTES) {
    throw new UserError(`${file}: not a readable SQLite database (${size} bytes: not plain SQLite, and encrypted client files over ${MAX_CLIENT_FILE_BYTES / 1024 ** 2} MiB are refused, as they are decrypted in memory)`);
  }
  const bytes = fs.readFileSync(file);
  const names = [...new Set([path.basename(file), clientName])];
  for (const name of names) {
    const { scheme } = detectScheme(bytes, name);
    if (!scheme) continue;
    const db = new Database(decryptClientFile(bytes, scheme, name), { readonly: true });
    return { db, encryption: { scheme, name, description: describeScheme(scheme) } };
  }
  throw new UserError(`${file}: not a readable SQLite database (${size} bytes: ${whyUndecryptable(bytes, names)})`);
}

/** Opens `file` read-only: in place when it is plain SQLite, else decrypted in memory as the client file `clientName`. */
export function openDatabaseFile(file: string, clientName: string): OpenedFile {
  if (startsWithMagic(file)) return { db: new Database(file, { readonly: true, fileMustExist: true }), encryption: null };
  return openEncrypted(file, clientName);
}
