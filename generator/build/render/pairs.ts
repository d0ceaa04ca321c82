/** /api/v1/pair/<pair>.json (the two cards) and /api/v1/pair_list.json (the valid pair ids). */
import { endpoints } from '../../contract/endpoints.ts';
import type { Pair } from '../model/types.ts';
import type { CardsJson, PairListJson } from '../../contract/schemas.ts';
import { emit } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';
import type { RenderContext } from './context.ts';

/** A pair as pair_list.json lists it. */
const renderPairEntry = (p: Pair): PairListJson['pairs'][number] => ({
  pair: p.id,
  unit_ids: p.members.map((m) => m.card.id),
  ordinals: p.members.map((m) => m.card.ordinal),
  members: p.members.map((m) => ({
    unit_pair_id: m.unitPairId, unit_id: m.card.id, ordinal: m.card.ordinal, position: m.position, rank: m.rank,
  })),
});

/** A pair_list.json entry with the cards of its pair file. */
export type RenderedPair = PairListJson['pairs'][number] & CardsJson;

/** Publishes every pair's file and the pair list; returns the pair list's entries, each with its file's cards. */
export function renderPairs({ model, cards }: RenderContext, files: SiteFiles): RenderedPair[] {
  const pairs = model.pairs.map((pair) => {
    const body = { cards: pair.members.map((m) => cards.card(m.card)) };
    emit(files, endpoints.pair, [pair.id], body);
    return { ...renderPairEntry(pair), ...body };
  });
  emit(files, endpoints.pairList, [], { pairs: pairs.map(({ cards: _, ...entry }) => entry) });
  return pairs;
}
