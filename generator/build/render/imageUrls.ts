/**
 * How pictures are named in responses: URLs in objects, bare icon names in lists and previews.
 * Pictures of this site are named only when the image stage published them; with an image
 * host (`host`, a template: page/imageHost.js), a card's pictures the site lacks are named on
 * that host: its icons where the export has none, its art always (exports carry no art).
 */
import type { Accessory, Card } from '../model/types.ts';
import { OBJECT_TO_ROOT, imagePaths } from '../../contract/format.ts';
import type { CardJson } from '../../contract/schemas.ts';
import { hostUrl } from '../../web/page/imageHost.js';

/** A site path as a URL relative to a response at api/v1/<type>/<file>. */
const objectUrl = (sitePath: string | null): string | null => sitePath && OBJECT_TO_ROOT + sitePath;

export class ImageLinks {
  /** `published`: site paths of the published PNGs (images/encodeImages.ts); `host`: an image host's URL template, or null. */
  constructor(private readonly published: ReadonlySet<string>, readonly host: string | null = null) {}

  /**
   * The card's picture of `kind` on the image host, null without a host or where the card has
   * no such picture: no unidolized one for a pre-transformed card, no idolized one for a card
   * that cannot be idolized (the rule of the site's own icons, images/jobs.ts).
   */
  private hosted(card: Card, kind: 'icon' | 'art', idolized: boolean): string | null {
    const exists = idolized ? card.preTransformed || !card.transformDisabled : !card.preTransformed;
    return this.host && exists ? hostUrl(this.host, { id: card.id, ordinal: card.ordinal, kind, idolized }) : null;
  }

  private cardIcon(card: Card, idolized: boolean): string | null {
    const png = imagePaths.cardIcon(imagePaths.cardIconName(card.id, idolized));
    return this.published.has(png) ? png : null;
  }

  private accessoryIcon(accessory: Accessory): string | null {
    const png = imagePaths.accessoryIcon(imagePaths.accessoryIconName(accessory.id));
    return this.published.has(png) ? png : null;
  }

  cardImages(card: Card): CardJson['images'] {
    return {
      icon: objectUrl(this.cardIcon(card, false)) ?? this.hosted(card, 'icon', false),
      icon_idolized: objectUrl(this.cardIcon(card, true)) ?? this.hosted(card, 'icon', true),
      art: this.hosted(card, 'art', false),
      art_idolized: this.hosted(card, 'art', true),
    };
  }

  /** The icon a card list shows: `<id>`, else `<id>t` (pre-transformed cards); null when neither is published. */
  listIconName(card: Card): string | null {
    if (this.cardIcon(card, false)) return imagePaths.cardIconName(card.id, false);
    return this.cardIcon(card, true) ? imagePaths.cardIconName(card.id, true) : null;
  }

  /** A set-preview entry: `<id>t` when the card can be idolized, else `<id>`; null when that icon is not published. */
  previewIconName(card: Card): string | null {
    const idolized = !card.transformDisabled;
    return this.cardIcon(card, idolized) ? imagePaths.cardIconName(card.id, idolized) : null;
  }

  accessoryIconUrl(accessory: Accessory): string | null {
    return objectUrl(this.accessoryIcon(accessory));
  }

  /** `<id>` under images/accessory/icon/, null when not published. */
  accessoryIconName(accessory: Accessory): string | null {
    return this.accessoryIcon(accessory) && imagePaths.accessoryIconName(accessory.id);
  }
}
