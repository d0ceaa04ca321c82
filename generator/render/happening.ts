/** api/v1/happening.json: every event and gacha, which the edge handler filters by time. */
import type { Model } from '../model/buildModel.ts';
import type { Gacha, GameEvent } from '../model/types.ts';
import { paths, type EventJson, type GachaJson, type HappeningJson } from '../format.ts';
import { addJson, type SiteFiles } from './files.ts';

function renderEvent(event: GameEvent): EventJson {
  return {
    id: event.id, name: event.name.original, name_en: event.name.secondary, start: event.start, end: event.end, close: event.resultEnd,
  };
}

function renderGacha(gacha: Gacha): GachaJson {
  return {
    id: gacha.id, name: gacha.name.original, name_en: gacha.name.secondary, start: gacha.start, end: gacha.end, ordinals: gacha.ordinals,
  };
}

export function renderHappening(model: Model, files: SiteFiles): void {
  const timeline: HappeningJson = { events: model.events.map(renderEvent), gachas: model.gachas.map(renderGacha) };
  addJson(files, paths.happening(), timeline);
}
