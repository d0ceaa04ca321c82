/**
 * Charts' notes (docs/songs.md#notes): the input's note files matched to charts by name, checked
 * note by note, published as api/v1/notes/<live_setting_id>.json with live_t's statistics; hostile
 * files told in the report and their charts published without notes; the bulk file; the edge's
 * answers. How notes change from version to version: versionsInMemory.test.ts.
 */
import fs from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadSqlDump } from '../../generator/build/input/sqlDump.ts';
import { parseNotes, type ReadNotes } from '../../generator/build/input/noteFiles.ts';
import { MAX_NOTE_FILE_BYTES, MAX_NOTES_PER_FILE } from '../../generator/build/input/limits.ts';
import { noteStats } from '../../generator/build/model/notes.ts';
import { misfit } from '../../generator/build/render/check.ts';
import { Notes, type LiveJson, type NoteJson, type NotesJson } from '../../generator/contract/schemas.ts';
import { endpoints, NOTES } from '../../generator/contract/endpoints.ts';
import { packOf } from '../../generator/contract/format.ts';
import { handleRequest } from '../../generator/runtime/edge/handler.ts';
import { memorySite } from '../../generator/build/input/previousSite.ts';
import { BROKEN_NOTES } from '../../generator/build/sample/data.ts';
import { copySample, nextInMemory, packMembers, renderInMemory, SAMPLE_INPUT, tempDir, type RenderedInMemory } from '../helpers.ts';
import { MemoryFiles } from '../../generator/build/siteFiles.ts';

const rendered = await renderInMemory(SAMPLE_INPUT);

/** A member's JSON text exactly as a pack file of `files` holds it (at the pack's offsets), null when none. */
function packMember(files: ReadonlyMap<string, Buffer>, pack: string, id: number): string | null {
  const bytes = files.get(pack);
  if (!bytes) return null;
  return packMembers(bytes).get(String(id))?.toString('utf8') ?? null;
}
/** A chart's notes as published (what notes/<id>.json answers), as text; null when it has none. */
const notesText = (files: ReadonlyMap<string, Buffer>, id: number) => packMember(files, endpoints.notesPack.file(packOf(id)), id);
const notesOf = (files: ReadonlyMap<string, Buffer>, id: number) => JSON.parse(notesText(files, id) ?? 'null') as NotesJson | null;
const live = (site: RenderedInMemory, id: number) => site.object<LiveJson>('live_t', id)!;

/** Each chart's notes_setting_asset and s_rank_combo, from the sample's live.sql. */
function chartRows(input = SAMPLE_INPUT): { live_setting_id: number; notes_setting_asset: string; s_rank_combo: number }[] {
  const db = loadSqlDump(path.join(input, 'live.sql'));
  try {
    return db.prepare('SELECT live_setting_id, notes_setting_asset, s_rank_combo FROM live_setting_m').all() as never;
  } finally {
    db.close();
  }
}

/** The sample's note files that are whole, by chart. */
const sampleNotes = new Map(chartRows().flatMap((row) => {
  if (!row.notes_setting_asset || row.live_setting_id === BROKEN_NOTES.song * 10 + BROKEN_NOTES.difficulty || !live(rendered, row.live_setting_id)) return [];
  const file = path.join(SAMPLE_INPUT, 'notes', row.notes_setting_asset);
  try {
    return [[row.live_setting_id, { text: readFileSync(file, 'utf8'), combo: row.s_rank_combo }] as const];
  } catch {
    return [];
  }
}));

/** The statistics of notes as docs/songs.md defines them, computed here on their own. */
function statistics(notes: NoteJson[]) {
  const end = Math.max(...notes.map((n) => n.timing_sec + ([3, 13].includes(n.effect) ? n.effect_value : 0)));
  const duration = Math.round(end * 1000) / 1000;
  return {
    note_count: notes.length,
    star_notes: notes.filter((n) => n.effect === 4).length,
    hold_notes: notes.filter((n) => n.effect === 3 || n.effect === 13).length,
    swing_notes: notes.filter((n) => n.effect >= 11).length,
    duration_sec: duration,
    lane_counts: Array.from({ length: 9 }, (_, lane) => notes.filter((n) => n.position === lane + 1).length),
    nps: Math.round((notes.length / duration) * 100) / 100,
  };
}

const NO_STATISTICS = { notes_url: null, note_count: null, star_notes: null, hold_notes: null, swing_notes: null, duration_sec: null, lane_counts: null, nps: null };

describe('api/v1/notes/<live_setting_id>.json', () => {
  it('publishes the note file each chart names, its notes as the file has them, in order, fitting the Notes schema', () => {
    expect([...sampleNotes.keys()]).toEqual([11, 21, 31, 41, 51, 71]);
    expect(rendered.rendered.packed.notes.map((n) => n.live_setting_id)).toEqual([...sampleNotes.keys()]);
    for (const [id, { text }] of sampleNotes) {
      // The sample writes its files as the game does (compact, the fields in the published order): the notes are the file's bytes.
      expect(notesText(rendered.files, id), `chart ${id}`).toBe(`{"live_setting_id":${id},"notes":${text}}`);
      expect(misfit(Notes, notesOf(rendered.files, id)), `chart ${id}`).toBeNull();
    }
    // In the packs of their blocks of ids, as generic objects are: no file per chart.
    expect([...rendered.files.keys()].filter((rel) => rel.includes('/notes/'))).toEqual([endpoints.notesPack.file(0)]);
  });

  it('gives live_t the statistics of its notes, and a notes_url that resolves from every route live_t is answered at', () => {
    for (const [id, { text, combo }] of sampleNotes) {
      const chart = live(rendered, id);
      expect(chart, `chart ${id}`).toMatchObject({ notes_url: `../notes/${id}.json`, ...statistics(JSON.parse(text)) });
      expect(chart.note_count).toBe(combo);
      for (const route of [`live_t/${id}`, `live_t/${id}.json`, 'search/song', 'bulk/live_t.jsonl', `live_t/1,${id}`]) {
        expect(new URL(chart.notes_url!, `https://sif.test/api/v1/${route}`).pathname).toBe(`/api/v1/notes/${id}.json`);
      }
    }
    // The sample's notes hold every kind the statistics count.
    expect(live(rendered, 31)).toMatchObject({ swing_notes: expect.any(Number), hold_notes: expect.any(Number), star_notes: expect.any(Number) });
    expect(live(rendered, 31).swing_notes).toBeGreaterThan(0);
    expect(live(rendered, 11).lane_counts!.reduce((a, b) => a + b)).toBe(live(rendered, 11).note_count);
    // A hold's end counts: a chart whose last note is a hold ends after it.
    expect(noteStats([{ timing_sec: 1, notes_attribute: 1, notes_level: 1, effect: 3, effect_value: 2.5, position: 1 }, { timing_sec: 2, notes_attribute: 1, notes_level: 1, effect: 1, effect_value: 2, position: 9 }]))
      .toEqual({ count: 2, stars: 0, holds: 1, swings: 0, duration: 3.5, lanes: [1, 0, 0, 0, 0, 0, 0, 0, 1], perSecond: 0.57 });
    // Notes all at 0 s: no duration to count per second over.
    expect(noteStats([{ timing_sec: 0, notes_attribute: 1, notes_level: 1, effect: 1, effect_value: 0, position: 5 }]).perSecond).toBeNull();
  });

  it('publishes a chart without a readable note file with null statistics; the planted broken file is one warning naming it and its chart', () => {
    const broken = BROKEN_NOTES.song * 10 + BROKEN_NOTES.difficulty;
    expect(live(rendered, broken)).toMatchObject(NO_STATISTICS);
    expect(live(rendered, 12)).toMatchObject(NO_STATISTICS);
    expect(notesText(rendered.files, broken)).toBeNull();
    expect(rendered.report.warnings).toContain(`notes/0004_2.json: /2/position: 10, not a lane (1 to 9); not read: live_setting_id ${broken} published without notes`);
    expect(rendered.report.warningKinds['charts whose note file the input lacks (published without notes)'].examples[0]).toBe('live_setting_id 12: "0001_2.json"');
    expect(rendered.report.unreadFiles).toEqual([]);
  });
});

describe('a note file is checked note by note, field by field', () => {
  const note = { timing_sec: 6.664, notes_attribute: 1, notes_level: 1, effect: 3, effect_value: 2.286, position: 5 };
  const with_ = (fields: Record<string, unknown>) => JSON.stringify([note, { ...note, ...fields }]);
  const problem = (text: string) => (parseNotes(text) as { problem?: string }).problem ?? null;

  it('reads a list of notes, their fields in the published order; other fields are left out and named', () => {
    const read = parseNotes(`\ufeff[{"position":5,"effect_value":0.5,"effect":3,"notes_level":1,"notes_attribute":2,"timing_sec":1,"vanish":1,"x\\u001b":2}]`) as Extract<ReadNotes, { notes: unknown }>;
    expect(JSON.stringify(read.notes)).toBe('[{"timing_sec":1,"notes_attribute":2,"notes_level":1,"effect":3,"effect_value":0.5,"position":5}]');
    expect(read.otherFields).toEqual(['"vanish"', '"x\\u001b"']);
    expect(problem(JSON.stringify([note]))).toBeNull();
  });

  it('refuses every value a note cannot have, naming the note and field', () => {
    const cases: [string, string][] = [
      ['[{"timing_sec": NaN}]', 'not valid JSON'],
      ['[{"timing_sec": 1,', 'not valid JSON'],
      ['{"notes": []}', 'an object, not a list of notes (a JSON array)'],
      ['"Live_0001"', 'the text "Live_0001", not a list of notes (a JSON array)'],
      ['[]', 'an empty list: no notes'],
      [with_({ timing_sec: -0.001 }), '/1/timing_sec: -0.001, below 0'],
      [with_({ timing_sec: 86401 }), '/1/timing_sec: 86401, past 86,400 seconds (a day)'],
      [with_({ effect_value: -1 }), '/1/effect_value: -1, below 0'],
      [with_({ position: 0 }), '/1/position: 0, not a lane (1 to 9)'],
      [with_({ position: 10 }), '/1/position: 10, not a lane (1 to 9)'],
      [with_({ position: 4.5 }), '/1/position: 4.5, not a lane (1 to 9)'],
      [with_({ effect: 5 }), '/1/effect: 5, not an effect the game has (1, 2, 3, 4, 11, 12, 13)'],
      [with_({ notes_attribute: 1.5 }), '/1/notes_attribute: 1.5, not a whole number from 0'],
      [with_({ notes_level: -1 }), '/1/notes_level: -1, not a whole number from 0'],
      [with_({ notes_level: '1' }), '/1/notes_level: the text "1", not a finite number'],
      [with_({ effect: null }), '/1/effect: null, not a finite number'],
      [with_({ position: [5] }), '/1/position: a list, not a finite number'],
      [with_({ effect_value: undefined }), '/1/effect_value: missing'],
      [JSON.stringify([note, 5]), '/1: 5, not a note (an object)'],
      [JSON.stringify([note, null]), '/1: null, not a note (an object)'],
      [with_({ timing_sec: 1 }).replace(/"timing_sec":1\b/, '"timing_sec":1e999'), '/1/timing_sec: Infinity, not a finite number'],
    ];
    for (const [text, expected] of cases) expect(problem(text), text).toBe(expected);
  });

  it('takes a list nested 200,000 deep as a value like any other (no recursion, no stack to overflow), and counts the notes', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(problem(deep)).toBe('/0: a list, not a note (an object)');
    expect(problem(`[${JSON.stringify(note).replace('6.664', deep)}]`)).toBe('/0/timing_sec: a list, not a finite number');
    expect(problem(JSON.stringify(Array(MAX_NOTES_PER_FILE).fill(note)))).toBeNull();
    expect(problem(JSON.stringify(Array(MAX_NOTES_PER_FILE + 1).fill(note)))).toBe('10001 notes; a note file may hold at most 10,000');
  });
});

describe('note files of an export', () => {
  const note = (i: number, fields: Record<string, unknown> = {}) => ({ timing_sec: 1 + i, notes_attribute: 1, notes_level: 1, effect: 1, effect_value: 2, position: (i % 9) + 1, ...fields });
  const notes = (n: number, fields: Record<string, unknown> = {}) => JSON.stringify(Array.from({ length: n }, (_, i) => note(i, fields)));
  /** Hostile files, each named by a chart of the sample (live_setting_m: `<song>_<difficulty>.json`). */
  const HOSTILE: Record<number, string> = {
    12: `${notes(3)}${' '.repeat(MAX_NOTE_FILE_BYTES)}`,
    13: '[{"timing_sec":NaN,"notes_attribute":1,"notes_level":1,"effect":1,"effect_value":2,"position":1}]',
    14: notes(3, { timing_sec: -1 }),
    16: notes(3, { position: 0 }),
    22: notes(3, { position: 10 }),
    23: notes(3, { effect: 7 }),
    24: '{"notes": []}',
    25: `[${'['.repeat(200_000)}${']'.repeat(200_000)}]`,
    32: notes(MAX_NOTES_PER_FILE + 1),
  };
  const assetOf = (id: number) => `${String(Math.floor(id / 10)).padStart(4, '0')}_${id % 10}.json`;

  it('publishes the charts of bad files without notes, one warning line for them all; matches names in any case, under notes/ or livejson/; tells the files no chart takes', async () => {
    const input = await copySample();
    for (const [id, text] of Object.entries(HOSTILE)) await fs.writeFile(path.join(input, 'notes', assetOf(Number(id))), text);
    // Chart 33: three good notes where s_rank_combo says 270; chart 34: notes with a field no note publishes.
    await fs.writeFile(path.join(input, 'notes', assetOf(33)), notes(3));
    await fs.writeFile(path.join(input, 'notes', assetOf(34)), notes(2, { vanish: 1 }));
    // Chart 21's file under livejson/ in another case; a second file of chart 11's name; a file no chart names.
    await fs.mkdir(path.join(input, 'livejson', 'sub'), { recursive: true });
    await fs.rename(path.join(input, 'notes', '0002_1.json'), path.join(input, 'livejson', 'sub', '0002_1.JSON'));
    await fs.mkdir(path.join(input, 'notes', 'extra'));
    await fs.copyFile(path.join(input, 'notes', '0001_1.json'), path.join(input, 'notes', 'extra', '0001_1.json'));
    await fs.writeFile(path.join(input, 'notes', '9999_9.json'), notes(1));
    const site = await renderInMemory(input);

    for (const id of [...Object.keys(HOSTILE).map(Number), 42]) {
      expect(live(site, id), `chart ${id}`).toMatchObject(NO_STATISTICS);
      expect(notesText(site.files, id)).toBeNull();
    }
    const bad = site.report.warningKinds['note files not read (their charts are published without notes)'];
    expect(bad.count).toBe(Object.keys(HOSTILE).length + 1);
    expect(bad.examples[0]).toBe(`notes/0001_2.json: ${(MAX_NOTE_FILE_BYTES + notes(3).length).toLocaleString('en')} bytes; a note file may have at most 4 MiB; not read: live_setting_id 12 published without notes`);
    expect(site.report.warnings.filter((w) => w.startsWith('note files not read'))).toHaveLength(1);
    expect(site.report.warningKinds['charts whose note count is not their s_rank_combo'].examples)
      .toEqual(['live_setting_id 33 (notes/0003_3.json): 3 notes, s_rank_combo 270', 'live_setting_id 34 (notes/0003_4.json): 2 notes, s_rank_combo 450']);
    expect(site.report.warnings).toContain('notes/0003_4.json: fields no note publishes, left out: "vanish"');
    expect(notesOf(site.files, 34)!.notes).toEqual([note(0), note(1)]);
    expect(live(site, 33)).toMatchObject({ note_count: 3, s_rank_combo: 270 });
    expect(notesText(site.files, 21)).toBe(notesText(rendered.files, 21));
    expect(notesText(site.files, 11)).toBe(notesText(rendered.files, 11));
    expect(site.report.unreadFiles).toEqual([
      { file: 'notes/9999_9.json', reason: 'a note file no readable chart names (live_setting_m notes_setting_asset)' },
      { file: 'notes/extra/0001_1.json', reason: 'a second note file named 0001_1.json; notes/0001_1.json is read instead' },
    ]);
  });

  it('without a live database, every note file is a file not read, saying why', async () => {
    const input = await copySample();
    await fs.rm(path.join(input, 'live.sql'));
    const site = await renderInMemory(input);
    expect(site.rendered.packed.notes).toEqual([]);
    expect(site.report.unreadFiles.map((f) => f.reason)).toEqual(Array(7).fill('a note file, but the export has no live database'));
  });

  it('a notes file in place of the notes folder fails the build in one line', async () => {
    const input = await copySample();
    await fs.rm(path.join(input, 'notes'), { recursive: true });
    writeFileSync(path.join(input, 'notes'), '[]');
    await expect(renderInMemory(input)).rejects.toThrow(/notes: expected a folder/);
  });
});

describe('notes in the bulk downloads, the history and the edge', () => {
  it('bulk/notes.jsonl: each line a chart\'s notes file byte for byte, in id order; sif.sqlite leaves notes out', async () => {
    const site = await nextInMemory(SAMPLE_INPUT, null);
    const entry = site.bulk!.files.find((f) => f.name === 'notes.jsonl')!;
    expect(entry).toMatchObject({ type: NOTES, format: 'jsonl', count: sampleNotes.size });
    const joined = Buffer.concat(entry.parts!.map((part) => site.files.get(part.path.slice(1))!));
    expect(joined.toString('utf8')).toBe([...sampleNotes.keys()].map((id) => `${notesText(site.files, id)}\n`).join(''));
    const sqlite = site.bulk!.files.find((f) => f.name === 'sif.sqlite')!;
    const file = path.join(await tempDir(), 'sif.sqlite');
    await fs.writeFile(file, Buffer.concat(sqlite.parts!.map((part) => site.files.get(part.path.slice(1))!)));
    const db = new Database(file, { readonly: true });
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
      expect(tables).toContain('live_t');
      expect(tables).not.toContain(NOTES);
      expect(db.prepare('SELECT note_count, notes_url FROM live_t WHERE id = 11').get()).toEqual({ note_count: 120, notes_url: '../notes/11.json' });
    } finally {
      db.close();
    }
    expect(sqlite.count).toBe(site.bulk!.files.filter((f) => f.format === 'jsonl' && f.name !== 'notes.jsonl').reduce((n, f) => n + f.count, 0));
    // A first version's history of each chart's notes, added whole, in the history pack of its block (no file per chart).
    expect(JSON.parse(packMember(site.files, endpoints.historyPack.file(NOTES, 0), 11)!)).toEqual({
      type: NOTES, id: 11, versions: [{ truth_version: site.truthVersion, date: expect.any(Number), change: 'added', patch: [{ op: 'add', path: '', value: notesOf(site.files, 11) }] }],
    });
    expect([...site.files.keys()].filter((rel) => rel.startsWith('api/v1/history/notes/'))).toEqual([endpoints.historyPack.file(NOTES, 0)]);
  });

  it('a previous site read back (--since) whose notes history pack is not one this builder publishes fails the build in one line naming it; an older builder\'s pack is made again', async () => {
    const first = await nextInMemory(SAMPLE_INPUT, null, { bulk: false });
    const rel = endpoints.historyPack.file(NOTES, 0);
    const pack = JSON.parse(first.files.get(rel)!.toString('utf8'));
    pack.objects['11'].id = 12;
    const damaged = new MemoryFiles(first.files);
    damaged.set(rel, Buffer.from(JSON.stringify(pack)));
    await expect(nextInMemory(SAMPLE_INPUT, { ...first, files: damaged }, { readBack: true, bulk: false }))
      .rejects.toThrow(`${rel}: the previous site's history pack is not one this builder publishes (member 11: it is the history of notes 12, not of notes 11)`);
    // Whole, it is read back, checked, and made again with this builder's offsets.
    const next = await nextInMemory(SAMPLE_INPUT, first, { readBack: true, bulk: false });
    expect(next.files.get(rel)!.equals(first.files.get(rel)!)).toBe(true);
    // An older builder's pack (offsets without sums) is made again with them, byte for byte this builder's.
    const older = JSON.parse(first.files.get(rel)!.toString('utf8'));
    older.offsets = Object.fromEntries(Object.entries(older.offsets as Record<string, number[]>).map(([id, [start, end]]) => [id, [start, end]]));
    const olderSite = new MemoryFiles(first.files);
    olderSite.set(rel, Buffer.from(JSON.stringify(older)));
    const again = await nextInMemory(SAMPLE_INPUT, { ...first, files: olderSite }, { readBack: true, bulk: false });
    expect(again.files.get(rel)!.equals(first.files.get(rel)!)).toBe(true);
  });

  it('a previous site read back (--since) whose notes pack lacks the notes a chart names, or is gone, fails the build in one line naming the pack', async () => {
    const first = await nextInMemory(SAMPLE_INPUT, null, { bulk: false });
    const rel = endpoints.notesPack.file(packOf(11));
    const pack = JSON.parse(first.files.get(rel)!.toString('utf8'));
    delete pack.objects['11'];
    const damaged = new MemoryFiles(first.files);
    damaged.set(rel, Buffer.from(JSON.stringify(pack)));
    await expect(nextInMemory(SAMPLE_INPUT, { ...first, files: damaged }, { readBack: true, bulk: false }))
      .rejects.toThrow(`${rel}: no notes of live_t 11, which names it in notes_url`);
    // The whole pack gone: the same line, for the first chart it held.
    const lost = new MemoryFiles(first.files);
    lost.delete(rel);
    await expect(nextInMemory(SAMPLE_INPUT, { ...first, files: lost }, { readBack: true, bulk: false }))
      .rejects.toThrow(`${rel}: no notes of live_t 11, which names it in notes_url`);
  });

  it('the edge: a chart\'s notes sliced out of their pack byte for byte, a leading zero alike, ?keys= shaping the notes; errors', async () => {
    const memory = memorySite(rendered.files);
    const site = { read: memory.read, readBytes: memory.readBytes };
    const ask = (route: string) => handleRequest(new Request(`https://sif.test/api/v1/${route}`), site);
    for (const route of ['notes/11.json', 'notes/011.json']) {
      const answer = (await ask(route))!;
      expect([answer.status, answer.headers.get('content-type'), await answer.text()]).toEqual([200, 'application/json; charset=utf-8', notesText(rendered.files, 11)]);
    }
    const shaped = await (await ask('notes/11.json?keys=timing_sec,POSITION'))!.json();
    expect(shaped.live_setting_id).toBe(11);
    expect(shaped.notes[0]).toEqual({ timing_sec: 2, position: 5 });
    const missing = (await ask('notes/042.json'))!;
    expect([missing.status, (await missing.json()).error]).toEqual([404, 'no notes of chart 42']);
    expect((await ask('notes/11.json?version=nothing'))!.status).toBe(400);
    const list = (await ask('notes/11,21.json'))!;
    expect([list.status, (await list.json()).error]).toEqual([400, 'notes/<live_setting_id>.json takes one chart id, not 2']);
    expect((await ask('notes/x.json'))!.status).toBe(400);
  });
});
