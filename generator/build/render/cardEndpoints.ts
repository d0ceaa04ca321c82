/** /api/v1/card/<ordinal>.json, /api/v1/card_list.json and /api/v1/info (with the export's timezone, which the browse page shows dates in). */
import type { Card } from '../model/types.ts';
import { highestKizuna, highestLevel } from '../model/cards.ts';
import { API_MAJOR, API_REVISION } from '../../contract/format.ts';
import { endpoints } from '../../contract/endpoints.ts';
import { emit } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';
import { emitPacks } from './packs.ts';
import type { RenderContext } from './context.ts';


const count = (cards: readonly Card[], test: (card: Card) => boolean) => cards.filter(test).length;

export function renderCardEndpoints({ model, cards }: RenderContext, files: SiteFiles): void {
  for (const card of model.cards) emit(files, endpoints.card, [card.ordinal], { cards: [cards.card(card)] });
  emitPacks(files, endpoints.cardPack, model.cards.map((card) => [card.ordinal, cards.card(card)]));
  emit(files, endpoints.cardList, [], {
    counts: {
      n_count: count(model.cards, (c) => !c.preTransformed),
      t_count: count(model.cards, (c) => !c.transformDisabled),
      lm_count: count(model.cards, (c) => highestLevel(c) > 1),
      km_count: count(model.cards, (c) => highestKizuna(c) > 0),
    },
    stubs: model.cards.map(cards.stub),
  });
  emit(files, endpoints.info, [], { api_major: API_MAJOR, api_revision: API_REVISION, truth_version: model.truthVersion, timezone: offsetText(model.timezoneOffset) });
}

/** Minutes east of UTC as an offset like "+09:00". */
function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
