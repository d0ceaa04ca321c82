/**
 * A chart's notes (its beatmap): the note file its live_setting_m row names (notes_setting_asset,
 * such as `Live_0001.json`), found by base name in any case among the input's note files
 * (input/noteFiles.ts, which reads and checks one). Each file is read once however many charts
 * name it, within the limits on all note files together (input/limits.ts), and its statistics are
 * derived once. What the reader finds is told once per kind: files not read (each naming its
 * charts, which are published without notes), charts whose file the input lacks, note counts that
 * are not the chart's s_rank_combo, and note files no chart names (as files not read).
 */
import { HOLD_EFFECTS, LANES, STAR_EFFECTS, SWING_EFFECTS } from '../../contract/format.ts';
import type { NoteJson } from '../../contract/schemas.ts';
import { noteFileSize, noteName, readNoteFile, type NoteFiles } from '../input/noteFiles.ts';
import { MAX_NOTE_BYTES, MAX_NOTE_FILES } from '../input/limits.ts';
import type { Findings } from '../findings.ts';
import type { ChartNotes, NoteStats } from './types.ts';
import { assetPath, groupBy } from './values.ts';

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * What notes add up to: how many, stars (effect 4), holds (3, 13), swings (11-13), the end of the
 * last one (a hold ends at its timing plus its length; rounded to the millisecond, the files'
 * precision), notes per lane, and notes per second over that duration (two decimals; null for a
 * duration of 0).
 */
export function noteStats(notes: readonly NoteJson[]): NoteStats {
  const lanes = new Array<number>(LANES).fill(0);
  let [stars, holds, swings, end] = [0, 0, 0, 0];
  for (const note of notes) {
    const hold = HOLD_EFFECTS.includes(note.effect);
    lanes[note.position - 1]++;
    if (hold) holds++;
    if (STAR_EFFECTS.includes(note.effect)) stars++;
    if (SWING_EFFECTS.includes(note.effect)) swings++;
    end = Math.max(end, note.timing_sec + (hold ? note.effect_value : 0));
  }
  const duration = round(end, 3);
  return { count: notes.length, stars, holds, swings, duration, lanes, perSecond: duration > 0 ? round(notes.length / duration, 2) : null };
}

/** A note file as the reader took it: its notes (null when not read, and why), and the charts that name it. */
interface FileTaken {
  notes: ChartNotes | null;
  problem: string | null;
  otherFields: string[];
  charts: number[];
}

const KINDS = {
  bad: 'note files not read (their charts are published without notes)',
  other: 'note files with fields no note publishes (left out)',
  missing: 'charts whose note file the input lacks (published without notes)',
  combo: 'charts whose note count is not their s_rank_combo',
};
/** Chart ids a warning names at most. */
const CHARTS_NAMED = 10;

/** Reads the note files the charts of a live database name, each once; tells what it found when finished. */
export class ChartNotesReader {
  private readonly taken = new Map<string, FileTaken>();
  /** The names (noteName) of the files rows name, read or not (a chart left out names one too). */
  private readonly named = new Set<string>();
  private readonly missing: string[] = [];
  private bytes = 0;
  /** The note files of each name (noteName), in path order: the first is the one read. */
  private readonly byName: ReadonlyMap<string, string[]>;

  constructor(private readonly files: NoteFiles, private readonly findings: Findings) {
    this.byName = groupBy([...files.all], noteName);
  }

  /** The name `asset` (a notes_setting_asset) gives a note file, null for none; marked as named. */
  private nameOf(asset: unknown): string | null {
    const path = assetPath(asset);
    if (path === null) return null;
    const name = noteName(path);
    this.named.add(name);
    return name;
  }

  /** Marks the file a row of a chart that is left out names as accounted for (not a file no chart names). */
  passOver(asset: unknown): void {
    this.nameOf(asset);
  }

  /** The notes of chart `id`, whose row names `asset`; `combo` its s_rank_combo (null: none to compare with). */
  notesOf(id: number, asset: unknown, combo: number | null): ChartNotes | null {
    const name = this.nameOf(asset);
    if (name === null) return null;
    const rel = this.byName.get(name)?.[0];
    if (rel === undefined) {
      this.missing.push(`live_setting_id ${id}: ${JSON.stringify((asset as string).slice(0, 80))}`);
      return null;
    }
    let file = this.taken.get(rel);
    if (!file) this.taken.set(rel, (file = this.take(rel)));
    file.charts.push(id);
    const count = file.notes?.stats.count;
    if (count !== undefined && combo !== null && count !== combo) this.findings.warn(`live_setting_id ${id} (${rel}): ${count} notes, s_rank_combo ${combo}`, KINDS.combo);
    return file.notes;
  }

  /** Reads `rel`, unless that would pass the limits on note files read in all. */
  private take(rel: string): FileTaken {
    const refused = (problem: string): FileTaken => ({ notes: null, problem, otherFields: [], charts: [] });
    if (this.taken.size >= MAX_NOTE_FILES) return refused(`past the ${MAX_NOTE_FILES.toLocaleString('en')} note files a build reads`);
    const size = noteFileSize(this.files, rel) ?? 0;
    if (this.bytes + size > MAX_NOTE_BYTES) return refused(`past the ${MAX_NOTE_BYTES / 1024 ** 2} MiB of note files a build reads in all`);
    this.bytes += size;
    const read = readNoteFile(this.files, rel);
    if ('problem' in read) return refused(read.problem);
    return { notes: { file: rel, notes: read.notes, stats: noteStats(read.notes) }, problem: null, otherFields: read.otherFields, charts: [] };
  }

  /**
   * Tells what the reader found: the files not read with their charts, other fields, the charts whose
   * file is missing (when the input has note files at all), and each note file no chart took as a
   * file not read. `noCharts`: why no chart was read at all (no live database), else null.
   */
  finish(noCharts: string | null = null): void {
    for (const [rel, { problem, otherFields, charts }] of this.taken) {
      const ids = `${charts.slice(0, CHARTS_NAMED).join(', ')}${charts.length > CHARTS_NAMED ? ', ...' : ''}`;
      if (problem) this.findings.warn(`${rel}: ${problem}; not read: live_setting_id ${ids} published without notes`, KINDS.bad);
      if (otherFields.length) this.findings.warn(`${rel}: fields no note publishes, left out: ${otherFields.join(', ')}`, KINDS.other);
    }
    if (this.files.all.length) for (const chart of this.missing) this.findings.warn(chart, KINDS.missing);
    this.findings.noteUnreadFiles(this.files.all.filter((rel) => !this.taken.has(rel)).map((file) => {
      const name = noteName(file);
      const first = this.byName.get(name)![0];
      if (first !== file && this.taken.has(first)) return { file, reason: `a second note file named ${name}; ${first} is read instead` };
      if (noCharts) return { file, reason: `a note file, but ${noCharts}` };
      return { file, reason: this.named.has(name) ? 'a note file only charts left out name' : 'a note file no readable chart names (live_setting_m notes_setting_asset)' };
    }));
  }
}
