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
import { openRegularFile, readRegularBytes } from './inputFiles.ts';
import { MAX_INPUT_FILE_BYTES } from './limits.ts';

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

/** SQLite header bytes 18-19 (write and read format versions): 2 marks WAL mode, 1 rollback journal mode. */
const FORMAT_VERSIONS = 18;
const WAL = 2;
const ROLLBACK = 1;

/** The file's first bytes, as many as SQLite's header needs to tell plain SQLite and its journal mode. */
function headOf(file: string): Buffer {
  const head = Buffer.alloc(FORMAT_VERSIONS + 2);
  const { fd } = openRegularFile(file, MAX_INPUT_FILE_BYTES);
  try {
    return head.subarray(0, fs.readSync(fd, head, 0, head.length, 0));
  } finally {
    fs.closeSync(fd);
  }
}

const isPlainSqlite = (head: Buffer): boolean => head.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC);

/**
 * SQLite bytes opened from memory. A database in WAL mode (as an app's files may be) reads
 * there only as a rollback-journal database: its main file holds every checkpointed page.
 */
function openInMemory(sqlite: Buffer): Database.Database {
  if (sqlite[FORMAT_VERSIONS] === WAL && sqlite[FORMAT_VERSIONS + 1] === WAL) sqlite.fill(ROLLBACK, FORMAT_VERSIONS, FORMAT_VERSIONS + 2);
  return new Database(sqlite, { readonly: true });
}

/** The whole file: input/limits.ts bounds it, as the decrypted copy is held in memory (twice, briefly, while SQLite takes it over). */
const readWhole = (file: string): Buffer => readRegularBytes(file, MAX_INPUT_FILE_BYTES);

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
  const bytes = readWhole(file);
  const names = [...new Set([path.basename(file), clientName])];
  for (const name of names) {
    const { scheme } = detectScheme(bytes, name);
    if (!scheme) continue;
    const db = openInMemory(decryptClientFile(bytes, scheme, name));
    return { db, encryption: { scheme, name, description: describeScheme(scheme) } };
  }
  throw new UserError(`${file}: not a readable SQLite database (${bytes.length} bytes: ${whyUndecryptable(bytes, names)})`);
}

/**
 * Opens `file` read-only: in place when it is plain SQLite, else decrypted in memory as the
 * client file `clientName`. A plain file in WAL mode is read into memory too: opened in place,
 * SQLite would write -shm and -wal files beside the input.
 */
export function openDatabaseFile(file: string, clientName: string): OpenedFile {
  const head = headOf(file);
  if (!isPlainSqlite(head)) return openEncrypted(file, clientName);
  if (head[FORMAT_VERSIONS] === WAL) return { db: openInMemory(readWhole(file)), encryption: null };
  return { db: new Database(file, { readonly: true, fileMustExist: true }), encryption: null };
}
