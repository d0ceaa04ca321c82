/** /api/v1/pair/<pair>.json and /api/v1/pair_list.json. */
import type { Model } from '../model/buildModel.ts';
import type { Pair } from '../model/types.ts';
import { paths, type PairJson, type PairListJson } from '../format.ts';
import { addJson, type SiteFiles } from './files.ts';
import { renderCard } from './cards.ts';

function renderPair(pair: Pair): PairJson {
  return {
    pair: pair.id,
    cards: pair.members.map((m) => ({
      unit_pair_id: m.unitPairId, unit_id: m.unitId, position: m.position, rank: m.rank, card: m.card && renderCard(m.card),
    })),
  };
}

export function renderPairs(model: Model, files: SiteFiles): void {
  for (const pair of model.pairs) addJson(files, paths.pair(pair.id), renderPair(pair));
  const list: PairListJson = {
    pairs: model.pairs.map((p) => ({
      pair: p.id, unit_ids: p.members.map((m) => m.unitId), ordinals: p.members.map((m) => m.card?.ordinal ?? null),
    })),
  };
  addJson(files, paths.pairList(), list);
}
