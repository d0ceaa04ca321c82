/**
 * Note files: a chart's notes (its beatmap) as the game's client downloads them and community
 * archives keep them, one JSON array of notes per file (`Live_0001.json`), under `notes/` or
 * `livejson/` (also `live_json/`, as archives name it) anywhere below the input folder's top. They
 * are found here by name; the model reads the ones its charts name (model/notes.ts). Each is
 * untrusted: read within the limits of limits.ts and checked note by note, field by field, so
 * that a bad file is one reason naming it, never a failed build or a note that breaks its schema.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { NoteJson } from '../../contract/schemas.ts';
import { LANES, NOTE_EFFECTS } from '../../contract/format.ts';
import type { InputFolder } from './inputFiles.ts';
import { readRegularBytes } from './inputFiles.ts';
import { MAX_NOTE_FILE_BYTES, MAX_NOTES_PER_FILE } from './limits.ts';

/** Top folders of the input (in any case) whose .json files, at any depth, are note files. */
export const NOTE_FOLDERS: readonly string[] = ['notes', 'livejson', 'live_json'];

/** The note files of an input folder. */
export interface NoteFiles {
  root: string;
  /** Every note file, relative to the root ('/'-separated), in path order. */
  all: readonly string[];
}

/** The name a note file or a chart's notes_setting_asset is matched by: its base name, in lower case. */
export const noteName = (file: string): string => file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1).toLowerCase();

const isNoteFile = (rel: string) => NOTE_FOLDERS.includes(rel.slice(0, rel.indexOf('/')).toLowerCase()) && rel.toLowerCase().endsWith('.json');

/** The note files of `input`, found by name (nothing is read). */
export const noteFiles = (input: InputFolder): NoteFiles => ({ root: input.root, all: input.files(isNoteFile).sort() });

/** A note file read: its notes in the published shape and the fields it had that no note publishes; or why it is not read. */
export type ReadNotes = { notes: NoteJson[]; otherFields: string[] } | { problem: string };

/** The fields of a note, in the order they are published. */
const FIELDS = ['timing_sec', 'notes_attribute', 'notes_level', 'effect', 'effect_value', 'position'] as const;
const KNOWN = new Set<string>(FIELDS);
/** The latest time a note may have (timing_sec, and a hold's effect_value): a day, in seconds. Songs last minutes. */
export const MAX_NOTE_SECONDS = 86_400;

/** Other field names kept for the warning, and how much of each. */
const OTHER_FIELDS_KEPT = 5;
const NAME_CHARS = 40;

/** A value as a message tells it: never the whole of it (a hostile file nests lists a million deep), never a control character. */
function described(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.slice(0, NAME_CHARS))}${value.length > NAME_CHARS ? '...' : ''}`;
  if (Array.isArray(value)) return 'a list';
  if (value === null || typeof value !== 'object') return String(value);
  return 'an object';
}

/** Why `value` cannot be field `field` of a note, or null. */
function fieldProblem(field: (typeof FIELDS)[number], value: unknown): string | null {
  if (value === undefined) return 'missing';
  if (typeof value !== 'number' || !Number.isFinite(value)) return `${described(value)}, not a finite number`;
  switch (field) {
    case 'timing_sec':
    case 'effect_value':
      return value < 0 ? `${value}, below 0` : value > MAX_NOTE_SECONDS ? `${value}, past ${MAX_NOTE_SECONDS.toLocaleString('en')} seconds (a day)` : null;
    case 'position':
      return Number.isInteger(value) && value >= 1 && value <= LANES ? null : `${value}, not a lane (1 to ${LANES})`;
    case 'effect':
      return Object.hasOwn(NOTE_EFFECTS, value) ? null : `${value}, not an effect the game has (${Object.keys(NOTE_EFFECTS).join(', ')})`;
    default:
      return Number.isSafeInteger(value) && value >= 0 ? null : `${value}, not a whole number from 0`;
  }
}

/**
 * The notes of a note file's text: a JSON array of 1 to MAX_NOTES_PER_FILE objects, each with
 * the six fields of a note (finite numbers; timing_sec and effect_value from 0 to a day; effect a
 * known code; position a lane; the other codes whole numbers from 0), published in this order.
 * Other fields are left out and named. Nothing recurses into the values: a list nested a million
 * deep is a value of the wrong kind like any other.
 */
export function parseNotes(text: string): ReadNotes {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    // The parser's message quotes the text: not for the report.
    return { problem: 'not valid JSON' };
  }
  if (!Array.isArray(value)) return { problem: `${described(value)}, not a list of notes (a JSON array)` };
  if (!value.length) return { problem: 'an empty list: no notes' };
  if (value.length > MAX_NOTES_PER_FILE) return { problem: `${value.length} notes; a note file may hold at most ${MAX_NOTES_PER_FILE.toLocaleString('en')}` };
  const other = new Set<string>();
  const notes: NoteJson[] = [];
  for (let i = 0; i < value.length; i++) {
    const entry: unknown = value[i];
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return { problem: `/${i}: ${described(entry)}, not a note (an object)` };
    const fields = entry as Record<string, unknown>;
    for (const field of FIELDS) {
      const problem = fieldProblem(field, Object.hasOwn(fields, field) ? fields[field] : undefined);
      if (problem) return { problem: `/${i}/${field}: ${problem}` };
    }
    if (other.size < OTHER_FIELDS_KEPT) for (const key of Object.keys(fields)) if (!KNOWN.has(key) && other.size < OTHER_FIELDS_KEPT) other.add(key.slice(0, NAME_CHARS));
    notes.push({
      timing_sec: fields.timing_sec as number,
      notes_attribute: fields.notes_attribute as number,
      notes_level: fields.notes_level as number,
      effect: fields.effect as NoteJson['effect'],
      effect_value: fields.effect_value as number,
      position: fields.position as number,
    });
  }
  return { notes, otherFields: [...other].map((name) => JSON.stringify(name)) };
}

/** The size of the note file `rel`, for the limit on all of them together; null when it cannot be read. */
export function noteFileSize(files: NoteFiles, rel: string): number | null {
  try {
    return fs.statSync(path.join(files.root, rel)).size;
  } catch {
    return null;
  }
}

/** Reads and checks the note file `rel` (at most MAX_NOTE_FILE_BYTES). */
export function readNoteFile(files: NoteFiles, rel: string): ReadNotes {
  const file = path.join(files.root, rel);
  const size = noteFileSize(files, rel);
  if (size !== null && size > MAX_NOTE_FILE_BYTES) {
    return { problem: `${size.toLocaleString('en')} bytes; a note file may have at most ${MAX_NOTE_FILE_BYTES / 1024 ** 2} MiB` };
  }
  let bytes: Buffer;
  try {
    bytes = readRegularBytes(file, MAX_NOTE_FILE_BYTES);
  } catch (error) {
    const message = (error as Error).message;
    return { problem: `unreadable (${message.startsWith(file) ? message.slice(file.length + 2) : message})` };
  }
  return parseNotes(bytes.toString('utf8'));
}
