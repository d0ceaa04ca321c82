/** What every renderer gets: the read-only model, the published pictures, and the card renderer all share. */
import type { Model } from '../model/buildModel.ts';
import { ImageLinks } from './imageUrls.ts';
import { cardRenderer, type CardRenderer } from './cards.ts';

export interface RenderContext {
  model: Model;
  images: ImageLinks;
  /** Card objects and stubs, each built once per card (they appear in many files). */
  cards: CardRenderer;
}

export function renderContext(model: Model, publishedImages: ReadonlySet<string>): RenderContext {
  const images = new ImageLinks(publishedImages);
  return { model, images, cards: cardRenderer(images) };
}
