/** /api/v1/card/set_list.json and /api/v1/set/<id>.json. */
import type { Card, CardSet } from '../model/types.ts';
import { endpoints } from '../../contract/endpoints.ts';
import { RARITIES } from '../../contract/format.ts';
import type { CardsJson, SetListJson } from '../../contract/schemas.ts';
import { emit } from './files.ts';
import type { SiteFiles } from '../siteFiles.ts';
import type { RenderContext } from './context.ts';
import type { ImageLinks } from './imageUrls.ts';

const PREVIEW_SIZE = 6;
const rank = (card: Card) => RARITIES.findIndex(([id]) => id === card.rarity);

/**
 * Icons of the set's highest-rarity cards (ties by ordinal); `t` names the idolized icon.
 * Cards whose icon is not published are passed over, so every entry names an existing file.
 */
function setPreview(cards: Card[], images: ImageLinks): string[] {
  return [...cards]
    .sort((a, b) => rank(b) - rank(a) || a.ordinal - b.ordinal)
    .flatMap((c) => images.previewIconName(c) ?? [])
    .slice(0, PREVIEW_SIZE);
}

/** A set_list.json entry with the cards of its set file. */
export type RenderedSet = SetListJson['sets'][number] & CardsJson;

/** Publishes the set list and every set's file; returns the set list's entries, each with its file's cards. */
export function renderSets({ model, images, cards }: RenderContext, files: SiteFiles): RenderedSet[] {
  const byId = new Map(model.cards.map((c) => [c.id, c]));
  const members = (set: CardSet) => set.cardIds.map((id) => byId.get(id)!);
  const sets = model.sets.map((set) => ({ id: set.id, preview: setPreview(members(set), images), display_name: set.displayName }));
  emit(files, endpoints.setList, [], { sets });
  return model.sets.map((set, i) => {
    const body = { cards: members(set).map(cards.card) };
    emit(files, endpoints.set, [set.id], body);
    return { ...sets[i], ...body };
  });
}
