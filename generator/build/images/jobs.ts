/** Which pictures the site publishes: one job per picture, read off the model. */
import type { Model } from '../model/buildModel.ts';
import type { Card } from '../model/types.ts';
import { IMAGE_FORMATS, imagePaths, type ImageFormat } from '../../contract/format.ts';

export interface ImageJob {
  /** Names the picture in warnings, e.g. "card 27 idolized icon". */
  label: string;
  /** The asset path as the database names it; null when it names none. */
  asset: string | null;
  /** Site path of the published file per format. */
  targets: Record<ImageFormat, string>;
  /** A card's picture, which an image host names where the site has none (render/imageUrls.ts); an accessory's is not. */
  hostable: boolean;
}

const targets = (pathOf: (format: ImageFormat) => string) =>
  Object.fromEntries(IMAGE_FORMATS.map((f) => [f, pathOf(f)])) as Record<ImageFormat, string>;

/**
 * A card publishes `<id>` unless it is pre-transformed (it never exists unidolized) and
 * `<id>t` whenever it can be idolized, pre-transformed ones included: exactly the
 * names a set-list preview may use. A promo card's database often names its one
 * picture only as normal_icon_asset, so that stands in for a missing rank_max_icon_asset.
 */
function cardJobs(card: Card): ImageJob[] {
  const jobs: ImageJob[] = [];
  if (!card.preTransformed) {
    jobs.push({
      label: `card ${card.ordinal} icon`,
      asset: card.normalIconAsset,
      targets: targets((f) => imagePaths.cardIcon(imagePaths.cardIconName(card.id, false), f)),
      hostable: true,
    });
  }
  if (card.preTransformed || !card.transformDisabled) {
    jobs.push({
      label: `card ${card.ordinal} idolized icon`,
      asset: card.idolizedIconAsset ?? (card.preTransformed ? card.normalIconAsset : null),
      targets: targets((f) => imagePaths.cardIcon(imagePaths.cardIconName(card.id, true), f)),
      hostable: true,
    });
  }
  return jobs;
}

export function imageJobs(model: Model): ImageJob[] {
  return [
    ...model.cards.flatMap(cardJobs),
    ...model.accessories.map((accessory): ImageJob => ({
      label: `accessory ${accessory.id} icon`,
      asset: accessory.iconAsset,
      targets: targets((f) => imagePaths.accessoryIcon(imagePaths.accessoryIconName(accessory.id), f)),
      hostable: false,
    })),
  ];
}
