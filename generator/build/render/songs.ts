/** Songs (song_t), their charts (live_t) and the charts' notes as published: the game's codes as they are, names from the song. */
import path from 'node:path';
import type { Chart, ChartPlay, RankThresholds, Song } from '../model/types.ts';
import type { LiveJson, NotesJson, SongJson } from '../../contract/schemas.ts';
import { endpoints, fileOf, objectEndpoint } from '../../contract/endpoints.ts';
import { shareJson, sharedArray } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';
import { emitPacks } from './packs.ts';
import type { Model } from '../model/buildModel.ts';

export function renderSong(song: Song): SongJson {
  const json: SongJson = {
    id: song.id,
    name: song.name.original,
    name_en: song.name.secondary,
    name_localized: song.localized,
    name_kana: song.kana,
    member_category: song.memberCategory,
    group_name: song.group?.original ?? null,
    group_name_en: song.group?.secondary ?? null,
    unit_type_id: song.unitTypeId,
    length: song.length,
    live_ids: song.charts.map((chart) => chart.id),
  };
  if (song.regions) json.regions = song.regions;
  return json;
}

const ranks = <W extends 'score' | 'combo'>(what: W, { c, b, a, s }: RankThresholds) =>
  ({ [`c_rank_${what}`]: c, [`b_rank_${what}`]: b, [`a_rank_${what}`]: a, [`s_rank_${what}`]: s }) as Record<`${'c' | 'b' | 'a' | 's'}_rank_${W}`, number | null>;

const renderPlay = (play: ChartPlay): LiveJson['plays'][number] => ({
  live_difficulty_id: play.id, kind: play.kind, capital_type: play.costType, capital_value: play.cost, rotation_group_ids: sharedArray(play.rotationGroups),
});

/** The folder live_t objects are answered from (api/v1/live_t/): their notes_url is relative to it, as picture URLs are to theirs. */
const LIVE_FOLDER = path.posix.dirname(objectEndpoint.live_t.object.route.slice(1));

/** A chart's notes route relative to a response in api/v1/<folder>/ (every route a live_t object is answered at): ../notes/<id>.json. */
const notesRoute = fileOf(endpoints.notes.route);
export const notesUrl = (id: number): string => path.posix.relative(LIVE_FOLDER, notesRoute(id));

export function renderLive(chart: Chart): LiveJson {
  const json: LiveJson = {
    id: chart.id,
    song_id: chart.song.id,
    name: chart.song.name.original,
    name_en: chart.song.name.secondary,
    name_localized: chart.song.localized,
    difficulty: chart.difficulty,
    stars: chart.stars,
    attribute: chart.attribute,
    ...ranks('score', chart.score),
    ...ranks('combo', chart.combo),
    swing_flag: chart.swing,
    ac_flag: chart.ac,
    lane_count: chart.lanes,
    plays: chart.plays.map(renderPlay),
    notes_url: chart.notes && notesUrl(chart.id),
    note_count: chart.notes?.stats.count ?? null,
    star_notes: chart.notes?.stats.stars ?? null,
    hold_notes: chart.notes?.stats.holds ?? null,
    swing_notes: chart.notes?.stats.swings ?? null,
    duration_sec: chart.notes?.stats.duration ?? null,
    lane_counts: chart.notes ? sharedArray(chart.notes.stats.lanes) : null,
    nps: chart.notes?.stats.perSecond ?? null,
  };
  if (chart.regions) json.regions = chart.regions;
  return json;
}

/**
 * The notes of every chart that has them (api/v1/notes/<live_setting_id>.json, answered by the
 * edge from their packs: no file per chart), in id order; returns them (the bulk file's lines, the
 * snapshot's objects). Each is serialized once (shareJson), for its pack, the snapshot and the bulk
 * file alike: at the game's size they are 65 MB.
 */
export function renderNotes(model: Model, files: SiteFiles): NotesJson[] {
  const charts = (model.songs ?? []).flatMap((song) => song.charts).filter((chart) => chart.notes).sort((a, b) => a.id - b.id);
  const notes = charts.map((chart) => shareJson<NotesJson>({ live_setting_id: chart.id, notes: sharedArray(chart.notes!.notes) }));
  emitPacks(files, endpoints.notesPack, notes.map((body) => [body.live_setting_id, body] as const));
  return notes;
}

export const songBrief = (song: Song) => ({
  id: song.id, name: song.name.original, name_en: song.name.secondary, member_category: song.memberCategory,
  group_name: song.group?.original ?? null, group_name_en: song.group?.secondary ?? null, length: song.length,
});

export const liveBrief = (chart: Chart) => ({
  id: chart.id, name: chart.song.name.original, name_en: chart.song.name.secondary, song_id: chart.song.id,
  difficulty: chart.difficulty, stars: chart.stars, attribute: chart.attribute,
});
