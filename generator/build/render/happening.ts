/**
 * api/v1/happening.json: every event and gacha in starlight's happening shape, newest
 * first; the edge handler filters it for /api/v1/happening/<time>.
 */
import type { RenderContext } from './context.ts';
import type { Gacha, GameEvent } from '../model/types.ts';
import { endpoints } from '../../contract/endpoints.ts';
import type { HappeningEventJson, HappeningGachaJson } from '../../contract/schemas.ts';
import { emit } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';

export function renderEvent(event: GameEvent): HappeningEventJson {
  return {
    id: event.id,
    name: event.name.original,
    name_en: event.name.secondary,
    type: event.type,
    start_date: event.start,
    end_date: event.end,
    result_end_date: event.resultEnd,
  };
}

function renderGacha(gacha: Gacha): HappeningGachaJson {
  return {
    id: gacha.id,
    name: gacha.name.original,
    name_en: gacha.name.secondary,
    type: gacha.type,
    subtype: gacha.subtype,
    rates: gacha.rates,
    start_date: gacha.start,
    end_date: gacha.end,
    ordinals: gacha.ordinals,
  };
}

/** Newest first: the model keeps start order. */
const newestFirst = <T>(items: readonly T[]) => [...items].reverse();

export function renderHappening({ model }: RenderContext, files: SiteFiles): void {
  emit(files, endpoints.timeline, [], {
    events: newestFirst(model.events).map(renderEvent),
    gachas: newestFirst(model.gachas).map(renderGacha),
  });
}
