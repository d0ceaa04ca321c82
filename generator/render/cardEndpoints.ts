/** /api/v1/card/<ordinal>.json, /api/v1/card_list.json and /api/v1/info. */
import type { Model } from '../model/buildModel.ts';
import type { Card } from '../model/types.ts';
import { API_MAJOR, API_REVISION, paths, type CardListJson, type InfoJson } from '../format.ts';
import { addJson, type SiteFiles } from './files.ts';
import { renderCard, renderCardStub } from './cards.ts';

const highestLevel = (c: Card) => (c.transformDisabled ? c.normalMaxLevel : Math.max(c.normalMaxLevel, c.transformedMaxLevel));
const highestKizuna = (c: Card) => (c.transformDisabled ? c.normalMaxKizuna : Math.max(c.normalMaxKizuna, c.transformedMaxKizuna));

function renderCardList(cards: Card[]): CardListJson {
  return {
    n_count: cards.filter((c) => !c.preTransformed).length,
    t_count: cards.filter((c) => !c.transformDisabled).length,
    lm_count: cards.filter((c) => highestLevel(c) > 1).length,
    km_count: cards.filter((c) => highestKizuna(c) > 0).length,
    cards: cards.map(renderCardStub),
  };
}

export function renderCardEndpoints(model: Model, files: SiteFiles): void {
  for (const card of model.cards) addJson(files, paths.card(card.ordinal), { cards: [renderCard(card)] });
  addJson(files, paths.cardList(), renderCardList(model.cards));
  const info: InfoJson = { api_major: API_MAJOR, api_revision: API_REVISION, truth_version: model.truthVersion };
  addJson(files, paths.info(), info);
}
