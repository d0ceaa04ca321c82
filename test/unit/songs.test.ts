/**
 * Songs and charts from the live database: every value of song_t and live_t against the
 * sample's own tables, each form the database comes in, older exports' shapes, an export
 * without one, the song search on the edge, and the changelog and history of the song types.
 */
import { rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlDump } from '../../generator/build/input/sqlDump.ts';
import { MemoryFiles } from '../../generator/build/siteFiles.ts';
import { handleRequest, type EdgeSite } from '../../generator/runtime/edge/handler.ts';
import { diskReader } from '../../generator/hosts/node/runtime/diskSite.ts';
import { DIFFICULTIES } from '../../generator/web/search/words.js';
import type { LiveJson, SongJson } from '../../generator/contract/schemas.ts';
import { buildSample, copySample, nextInMemory, readJson, renderInMemory, SAMPLE_INPUT } from '../helpers.ts';
import { dumpToClientDb, editDump } from '../exportEdits.ts';

type Row = Record<string, unknown>;

/** The rows of a table of the sample's live.sql as stored (encrypted rows included). */
function sampleRows(table: string, dump = path.join(SAMPLE_INPUT, 'live.sql')): Row[] {
  const db = loadSqlDump(dump);
  try {
    return db.prepare(`SELECT * FROM ${table}`).all() as Row[];
  } finally {
    db.close();
  }
}

/** Rows stored in the clear: no release payload (NULL or the text None). */
const plain = (rows: Row[]) => rows.filter((r) => r.release_tag === null || r.release_tag === 'None');

const rendered = await renderInMemory(SAMPLE_INPUT);
const songs = rendered.json<{ result: { id: number }[] }>('api/v1/list/song_t.json').result.map((s) => rendered.object<SongJson>('song_t', s.id)!);
const lives = rendered.json<{ result: { id: number }[] }>('api/v1/list/live_t.json').result.map((l) => rendered.object<LiveJson>('live_t', l.id)!);
const song = (id: number) => songs.find((s) => s.id === id);
const live = (id: number) => lives.find((l) => l.id === id);

describe('song_t and live_t from the live database', () => {
  it('publish every readable song and chart with the values of its own row', () => {
    const tracks = plain(sampleRows('live_track_m'));
    expect(tracks.length).toBeGreaterThan(3);
    for (const row of tracks) {
      const s = song(row.live_track_id as number)!;
      expect(s, `song ${row.live_track_id}`).toBeDefined();
      expect([s.name, s.name_kana, s.member_category, s.unit_type_id]).toEqual([row.name, row.name_kana, row.member_category, row.unit_type_id]);
    }
    const times = new Map(sampleRows('live_time_m').map((r) => [r.live_track_id, r.live_time]));
    for (const s of songs) expect(s.length, `song ${s.id}`).toBe(times.get(s.id) ?? null);
    const settings = plain(sampleRows('live_setting_m')).filter((r) => song(r.live_track_id as number));
    expect(settings.length).toBeGreaterThan(20);
    for (const row of settings) {
      const l = live(row.live_setting_id as number)!;
      expect(l, `chart ${row.live_setting_id}`).toBeDefined();
      expect([l.song_id, l.difficulty, l.stars, l.attribute, l.swing_flag, l.ac_flag, l.lane_count])
        .toEqual([row.live_track_id, row.difficulty, row.stage_level, row.attribute_icon_id, row.swing_flag, row.ac_flag, row.lane_count]);
      for (const rank of ['c', 'b', 'a', 's']) {
        for (const what of ['score', 'combo']) expect(l[`${rank}_rank_${what}` as keyof LiveJson], `${row.live_setting_id} ${rank} ${what}`).toBe(row[`${rank}_rank_${what}`]);
      }
      expect(l.name).toBe(song(l.song_id)!.name);
    }
  });

  it('list each song\'s charts by difficulty, and each chart\'s plays with their cost from normal, special and free lives', () => {
    for (const s of songs) {
      const own = lives.filter((l) => l.song_id === s.id).sort((a, b) => a.difficulty! - b.difficulty! || a.id - b.id);
      expect(s.live_ids).toEqual(own.map((l) => l.id));
    }
    const plays = ['normal_live_m', 'special_live_m', 'free_live_m'].flatMap((table) => sampleRows(table).map((row) => ({ table, row })));
    for (const { table, row } of plays) {
      const l = live(row.live_setting_id as number);
      if (!l) continue;
      const play = l.plays.find((p) => p.live_difficulty_id === row.live_difficulty_id)!;
      expect(play.kind).toBe(table.replace('_live_m', ''));
      expect([play.capital_type, play.capital_value]).toEqual([row.capital_type ?? null, row.capital_value ?? null]);
    }
    const rotated = new Set(sampleRows('special_live_rotation_m').map((r) => r.live_difficulty_id));
    for (const l of lives) for (const p of l.plays) expect(p.rotation_group_ids.length > 0, `play ${p.live_difficulty_id}`).toBe(rotated.has(p.live_difficulty_id));
    expect(lives.some((l) => l.plays.length === 0)).toBe(true);
  });

  it('decrypt rows with the release keys, read rows marked None, and leave out (and count) rows still locked, with their charts', () => {
    const encrypted = sampleRows('live_track_m').filter((r) => r.release_tag !== null && r.release_tag !== 'None');
    expect(encrypted.map((r) => [r.live_track_id, r._encryption_release_id])).toEqual([[5, 7], [6, 8]]);
    expect(song(5)).toMatchObject({ name: '未来のメロディ', member_category: 1, length: 131 });
    expect(live(56)).toMatchObject({ difficulty: 6, stars: 12, ac_flag: 1 });
    expect(song(6)).toBeUndefined();
    expect(lives.filter((l) => l.song_id === 6)).toEqual([]);
    expect(live(53)).toBeUndefined();
    expect(song(7)).toMatchObject({ name: 'いつもの帰り道', unit_type_id: 101 });
    expect(live(34)).toBeDefined();
    expect([rendered.report.unreadable.live_track_m, rendered.report.unreadable.live_setting_m]).toEqual([1, 1]);
    expect(rendered.report.warnings.filter((w) => w.includes('live_setting_id 6'))).toHaveLength(1);
  });

  it('take English names from the English client, else the name_en column, never Japanese script; the group from its characters\' tag', () => {
    expect(song(1)!.name_en).toBe('Song of Beginnings');
    expect(song(2)!.name_en).toBe('Starry Step');
    expect(song(4)!.name_en).toBeNull();
    expect(live(11)!.name_en).toBe('Song of Beginnings');
    expect([song(1)!.group_name, song(1)!.group_name_en, song(3)!.group_name_en]).toEqual(['ステラ', 'Stella', 'Nova']);
  });

  it('brief lists carry what the page filters by', () => {
    const list = rendered.json('api/v1/list/live_t.json').result;
    expect(list[0]).toEqual({ id: 11, name: 'はじまりの歌', name_en: 'Song of Beginnings', song_id: 1, difficulty: 1, stars: 3, attribute: 1, ref: '/api/v1/live_t/11' });
    expect(rendered.json('api/v1/list/song_t.json').result.map((s: { id: number }) => s.id)).toEqual([1, 2, 3, 4, 5, 7]);
  });
});

/** The sample with `edit` applied to a copy of it, rendered in memory. */
async function editedSample(edit: (input: string) => Promise<unknown>) {
  const input = await copySample();
  await edit(input);
  return renderInMemory(input);
}

describe('the forms and generations of the live database', () => {
  it('a plain SQLite file in the client layout gives the same songs as the dump', async () => {
    const site = await editedSample((input) => dumpToClientDb(input, 'live'));
    for (const file of ['api/v1/list/song_t.json', 'api/v1/list/live_t.json']) expect(site.json(file), file).toEqual(rendered.json(file));
    expect([site.object('live_t', 56), site.object('song_t', 2)]).toEqual([rendered.object('live_t', 56), rendered.object('song_t', 2)]);
  });

  it('an older export without live_time_m, name_en, swing_flag, ac_flag, lane_count, free lives or rotations publishes nulls, not zeros', async () => {
    const site = await editedSample((input) => editDump(input, 'live.sql', [
      'DROP TABLE live_time_m', 'DROP TABLE free_live_m', 'DROP TABLE special_live_rotation_m',
      ...['name_en', 'name_kana', 'unit_type_id'].map((c) => `ALTER TABLE live_track_m DROP COLUMN ${c}`),
      ...['swing_flag', 'ac_flag', 'lane_count'].map((c) => `ALTER TABLE live_setting_m DROP COLUMN ${c}`),
    ].join(';')));
    const two = site.object('song_t', 2);
    expect([two.name_en, two.name_kana, two.length, two.unit_type_id]).toEqual([null, null, null, null]);
    const master = site.object('live_t', 36);
    expect([master.swing_flag, master.ac_flag, master.lane_count, master.stars]).toEqual([null, null, null, 12]);
    expect(master.plays[0].rotation_group_ids).toEqual([]);
    expect(site.object('live_t', 25).plays).toEqual([]);
    expect(site.object('song_t', 1).name_en).toBe('Song of Beginnings');
  });

  it('JP exports of 2017-12 to 2019-01 keep swing_flag and ac_flag on the plays (special_live_m), not on live_setting_m: read there', async () => {
    const site = await editedSample((input) => editDump(input, 'live.sql', [
      ...['swing_flag', 'ac_flag'].map((c) => `ALTER TABLE live_setting_m DROP COLUMN ${c}`),
      ...['swing_flag', 'ac_flag'].map((c) => `ALTER TABLE special_live_m ADD COLUMN ${c} INTEGER`),
      'UPDATE special_live_m SET swing_flag = 1, ac_flag = 0 WHERE live_setting_id = 36',
      'UPDATE special_live_m SET swing_flag = 0, ac_flag = 1 WHERE live_setting_id = 56',
    ].join(';')));
    expect([site.object('live_t', 36).swing_flag, site.object('live_t', 36).ac_flag]).toEqual([1, 0]);
    expect([site.object('live_t', 56).swing_flag, site.object('live_t', 56).ac_flag]).toEqual([0, 1]);
    // A chart no special live plays: no table has its flags.
    expect([site.object('live_t', 11).swing_flag, site.object('live_t', 11).ac_flag]).toEqual([null, null]);
  });

  it('a collaboration song (member_category 0) has no group, even where characters of category 0 carry a group tag', async () => {
    const site = await editedSample(async (input) => {
      await editDump(input, 'unit.sql', 'INSERT INTO unit_type_member_tag_m VALUES(901, 5)');
      await editDump(input, 'live.sql', 'UPDATE live_track_m SET member_category = 0 WHERE live_track_id = 3');
    });
    expect([site.object('song_t', 3).group_name, site.object('song_t', 3).group_name_en]).toEqual([null, null]);
    expect(site.object('song_t', 1).group_name).toBe('ステラ');
  });

  it('a song\'s group is the tag its live_track_m row names where the unit database cannot name its category', async () => {
    const site = await editedSample((input) => editDump(input, 'live.sql', [
      'ALTER TABLE live_track_m ADD COLUMN member_tag_id INTEGER',
      'UPDATE live_track_m SET member_category = 9, member_tag_id = 9 WHERE live_track_id = 4',
      'UPDATE live_track_m SET member_tag_id = 9 WHERE live_track_id = 1',
    ].join(';')));
    expect([site.object('song_t', 4).group_name, site.object('song_t', 4).group_name_en]).toEqual(['ミラージュ', 'Mirage']);
    // The characters' group, where the unit database names the category, comes first.
    expect(site.object('song_t', 1).group_name).toBe('ステラ');
  });

  it('name_en holds English only: a CN client\'s Chinese name in the name_en column is published as name_localized', async () => {
    const site = await editedSample(async (input) => {
      await fs.rm(path.join(input, 'en'), { recursive: true });
      await editDump(input, 'live.sql', "UPDATE live_track_m SET name_en = '星空舞步' WHERE live_track_id = 2; UPDATE live_track_m SET name_en = 'Nova Light' WHERE live_track_id = 3");
    });
    expect([site.object('song_t', 2).name_en, site.object('song_t', 2).name_localized]).toEqual([null, '星空舞步']);
    expect([site.object('live_t', 21).name_en, site.object('live_t', 21).name_localized]).toEqual([null, '星空舞步']);
    expect([site.object('song_t', 3).name_en, site.object('song_t', 3).name_localized]).toEqual(['Nova Light', null]);
    expect(song(2)!.name_localized).toBeNull();
  });

  it('a value that breaks the contract leaves out that chart only, with a warning naming its row', async () => {
    const site = await editedSample((input) => editDump(input, 'live.sql', "UPDATE live_setting_m SET stage_level = 2.5 WHERE live_setting_id = 12"));
    expect(site.object('live_t', 12)).toBeNull();
    expect(site.object('song_t', 1).live_ids).toEqual([11, 13, 14, 16]);
    expect(site.report.warnings.join('\n')).toMatch(/live_setting_m: live_setting_id 12: .*stars/);
  });

  it('a live database without songs says which file, and publishes no song type; one without charts publishes songs without charts', async () => {
    const noTracks = await editedSample((input) => editDump(input, 'live.sql', 'DROP TABLE live_track_m'));
    expect([...noTracks.files.keys()].filter((rel) => rel.includes('song_t'))).toEqual([]);
    expect(noTracks.report.warnings.filter((w) => /live/.test(w))).toEqual([expect.stringMatching(/live\.sql: no live_track_m table; no songs are published/)]);
    const noCharts = await editedSample((input) => editDump(input, 'live.sql', 'DROP TABLE live_setting_m'));
    expect(noCharts.object('song_t', 1).live_ids).toEqual([]);
    expect(noCharts.json('api/v1/list/live_t.json').result).toEqual([]);
    expect(noCharts.report.warnings.filter((w) => /live_setting_m/.test(w))).toEqual([expect.stringMatching(/no live_setting_m table; songs are published without charts/)]);
  });

  it('rows without an id are left out with a warning; text, None and false stand for nothing, never 0', async () => {
    const site = await editedSample((input) => editDump(input, 'live.sql', [
      "UPDATE live_setting_m SET live_setting_id = 'None' WHERE live_setting_id = 11",
      "UPDATE live_setting_m SET stage_level = 'None', s_rank_combo = NULL, attribute_icon_id = 'abc' WHERE live_setting_id = 12",
      "UPDATE live_track_m SET member_category = 'None', name = 'None' WHERE live_track_id = 2",
    ].join(';')));
    expect(site.object('live_t', 11)).toBeNull();
    expect(site.report.warnings.join('\n')).toMatch(/live_setting_m: live_setting_id null is not a whole number/);
    const twelve = site.object('live_t', 12);
    const stored = sampleRows('live_setting_m').find((r) => r.live_setting_id === 12)!;
    expect([twelve.stars, twelve.s_rank_combo, twelve.attribute, twelve.c_rank_combo]).toEqual([null, null, null, stored.c_rank_combo]);
    // Text where a number belongs is said, naming the row and column ('None' and NULL are plain missing values).
    expect(site.report.warnings.join('\n')).toMatch(/live_setting_m: live_setting_id 12: attribute_icon_id is "abc", not a number; published as null/);
    expect(site.report.warnings.join('\n')).not.toMatch(/stage_level is/);
    const two = site.object('song_t', 2);
    expect([two.name, two.name_en, two.member_category, two.group_name]).toEqual(['', 'Starry Step', null, null]);
  });

  it('a number in another notation (0x4) is no number: null, with a warning, never read as 4', async () => {
    // SQLite itself stores '1e3' and ' 12 ' in an INTEGER column as the numbers 1000 and 12 (type affinity); '0x4' stays text.
    const site = await editedSample((input) => editDump(input, 'live.sql', [
      "UPDATE live_setting_m SET difficulty = '0x4', b_rank_score = '1e3', c_rank_score = ' 12 ' WHERE live_setting_id = 13",
      "UPDATE special_live_m SET capital_value = 'x' WHERE live_setting_id = 16",
    ].join(';')));
    const chart = site.object('live_t', 13);
    expect([chart.difficulty, chart.b_rank_score, chart.c_rank_score]).toEqual([null, 1000, 12]);
    const warnings = site.report.warnings.join('\n');
    expect(warnings).toMatch(/difficulty is "0x4", not a number/);
    expect(warnings).toMatch(/special_live_m: live_difficulty_id \d+: capital_value is "x", not a number/);
    expect(site.object('live_t', 16).plays.find((p: { kind: string }) => p.kind === 'special').capital_value).toBeNull();
  });

  it('without a live database no song type is published, and the report says so once', async () => {
    const site = await editedSample(async (input) => rmSync(path.join(input, 'live.sql')));
    const songFiles = [...site.files.keys()].filter((rel) => /song_t|live_t|search_index\/song|search_objects\/song/.test(rel));
    expect(songFiles).toEqual([]);
    expect(site.report.warnings.filter((w) => /live/.test(w))).toEqual(['no live database (live.db_, live.sql, ...): no songs are published (song_t, live_t)']);
    expect(site.json('api/v1/list/card_t.json').result.length).toBeGreaterThan(0);
  });
});

describe('search/song on the edge', () => {
  let site: EdgeSite;
  let out: string;
  beforeAll(async () => {
    ({ out } = await buildSample());
    site = { read: diskReader(out) };
  });
  const ids = async (q: string, more = '') => {
    const response = (await handleRequest(new Request(`http://x/api/v1/search/song?q=${encodeURIComponent(q)}&page_size=100${more}`), site))!;
    expect(response.status, q).toBe(200);
    return ((await response.json()) as { result: LiveJson[] }).result.map((l) => l.id);
  };
  /** The published charts a predicate keeps, by id. */
  const where = (test: (l: LiveJson) => boolean) => lives.filter(test).map((l) => l.id);

  it('difficulty by word or by the game\'s code, with stars, attribute and combo on the same chart', async () => {
    for (const { code, words } of DIFFICULTIES) {
      expect(await ids(`difficulty:${words[0]}`), words[0]).toEqual(where((l) => l.difficulty === code));
      expect(await ids(`diff:${code}`)).toEqual(where((l) => l.difficulty === code));
    }
    expect(await ids('difficulty:master stars>=12')).toEqual([36, 56]);
    expect(await ids('attr:pure combo>=500')).toEqual(where((l) => l.attribute === 2 && l.s_rank_combo! >= 500));
  });

  it('name (original, English or kana), group (by code or name) and length (a song without one matches none)', async () => {
    expect(await ids('name:"starry step"')).toEqual(where((l) => l.song_id === 2));
    expect(await ids('はじまり')).toEqual(where((l) => l.song_id === 1));
    expect(await ids('group:nova')).toEqual(where((l) => [3, 4].includes(l.song_id)));
    expect(await ids('group:1')).toEqual(where((l) => song(l.song_id)!.member_category === 1));
    expect(await ids('length<120')).toEqual(where((l) => (song(l.song_id)!.length ?? Infinity) < 120));
    expect(await ids('-length>0')).toEqual(where((l) => l.song_id === 4));
    expect(await ids('is:swing')).toEqual([36]);
  });

  it('orders by a numeric field, and a malformed query is a 400 naming what was expected', async () => {
    expect(await ids('difficulty:master', '&order=combo&dir=desc')).toEqual([56, 36, 16]);
    const bad = (await handleRequest(new Request('http://x/api/v1/search/song?q=difficulty:legendary'), site))!;
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/unknown difficulty word "legendary".*master/);
  });

  it('generic routes answer comma lists and versions like every type', async () => {
    const response = (await handleRequest(new Request('http://x/api/v1/live_t/56,999,11'), site))!;
    expect(((await response.json()) as { result: (LiveJson | null)[] }).result.map((l) => l?.id ?? null)).toEqual([56, null, 11]);
    const info = await readJson(out, 'api/v1/info.json');
    const pinned = (await handleRequest(new Request(`http://x/api/v1/song_t/1,999?version=${info.truth_version}`), site))!;
    expect(await pinned.json()).toEqual({ result: [song(1), null] });
    const history = await readJson(out, 'api/v1/history/song_t/1.json');
    expect(history.versions[0].patch).toEqual([{ op: 'add', path: '', value: song(1) }]);
    const bulk = (await readJson(out, 'api/v1/bulk/index.json')).files as { name: string; count: number }[];
    expect(bulk.filter((f) => /^(song|live)_t\.jsonl$/.test(f.name)).map((f) => [f.name, f.count])).toEqual([['song_t.jsonl', songs.length], ['live_t.jsonl', lives.length]]);
    const lines = await (await handleRequest(new Request('http://x/api/v1/bulk/live_t.jsonl'), site))!.text();
    expect(lines.trim().split('\n').map((line) => JSON.parse(line))).toEqual(lives);
  });
});

describe('changes of songs', () => {
  /** A copy of the sample as data version `version`, with `sql` run on its live database. */
  async function version(truth: string, sql: string): Promise<string> {
    const input = await copySample();
    await editDump(input, 'live.sql', sql);
    writeFileSync(path.join(input, 'meta.json'), JSON.stringify({ truth_version: truth, region: 'jp' }));
    return input;
  }

  // Rendered in memory after the site before, its objects read back from its files as --since reads a folder's
  // (nextInMemory): three disk builds of the sample with their pictures made this file's longest test.
  it('an update names added songs and changed charts; a site from before songs is carried on', async () => {
    const before = await nextInMemory(await version('v1', 'DELETE FROM live_track_m WHERE live_track_id = 4; DELETE FROM live_setting_m WHERE live_track_id = 4'), null, { bulk: false });
    const next = await version('v2', 'UPDATE live_setting_m SET stage_level = 8 WHERE live_setting_id = 14');
    const after = await nextInMemory(next, before, { readBack: true, bulk: false });
    expect([after.changes.update?.songs, after.changes.update?.charts]).toEqual([{ added: 1, removed: 0, changed: 0 }, { added: 4, removed: 0, changed: 1 }]);
    const changes = after.json('api/v1/changes.json');
    expect(changes.types.charts.changed).toEqual([{ id: 14, fields: [{ field: 'stars', from: 10, to: 8 }] }]);
    const history = after.json('api/v1/history/live_t/14.json');
    expect(history.versions.map((v: { change: string }) => v.change)).toEqual(['added', 'changed']);
    expect(history.versions[1].patch).toEqual([{ op: 'replace', path: '/stars', value: 8 }]);

    // As a site built before songs were published: no song files at all.
    const beforeSongs = new MemoryFiles(before.files);
    for (const rel of ['api/v1/list/song_t.json', 'api/v1/list/live_t.json']) expect(beforeSongs.delete(rel), rel).toBe(true);
    const carried = await nextInMemory(next, { ...before, files: beforeSongs }, { readBack: true, bulk: false });
    expect([carried.changes.update!.songs!.added, carried.changes.update!.charts!.added]).toEqual([6, songs.reduce((n, s) => n + s.live_ids.length, 0)]);
  });
});
