/** How published pictures are named in responses: URLs in objects, bare icon names in lists and previews. */
import type { Card } from '../model/types.ts';
import { OBJECT_TO_ROOT, imagePaths } from '../format.ts';
import type { CardJson } from '../contract/schemas.ts';

/** A site path as a URL relative to a response at api/v1/<type>/<file>. */
export const objectImageUrl = (sitePath: string | null): string | null => sitePath && OBJECT_TO_ROOT + sitePath;

export function renderCardImages(card: Card): CardJson['images'] {
  return { icon: objectImageUrl(card.images.icon), icon_idolized: objectImageUrl(card.images.iconIdolized) };
}

/** The icon a card list shows: `<id>`, else `<id>t` (pre-transformed cards); null when neither is published. */
export function listIconName(card: Card): string | null {
  if (card.images.icon) return imagePaths.cardIconName(card.id, false);
  return card.images.iconIdolized ? imagePaths.cardIconName(card.id, true) : null;
}

/** A set-preview entry: `<id>t` when the card can be idolized, else `<id>`; null when that icon is not published. */
export function previewIconName(card: Card): string | null {
  const idolized = !card.transformDisabled;
  const published = idolized ? card.images.iconIdolized : card.images.icon;
  return published ? imagePaths.cardIconName(card.id, idolized) : null;
}
