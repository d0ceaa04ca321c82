/** Songs (song_t) and their charts (live_t) as published: the game's codes as they are, names from the song. */
import type { Chart, ChartPlay, RankThresholds, Song } from '../model/types.ts';
import type { LiveJson, SongJson } from '../../contract/schemas.ts';
import { sharedArray } from './files.ts';

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
  };
  if (chart.regions) json.regions = chart.regions;
  return json;
}

export const songBrief = (song: Song) => ({
  id: song.id, name: song.name.original, name_en: song.name.secondary, member_category: song.memberCategory,
  group_name: song.group?.original ?? null, group_name_en: song.group?.secondary ?? null, length: song.length,
});

export const liveBrief = (chart: Chart) => ({
  id: chart.id, name: chart.song.name.original, name_en: chart.song.name.secondary, song_id: chart.song.id,
  difficulty: chart.difficulty, stars: chart.stars, attribute: chart.attribute,
});
