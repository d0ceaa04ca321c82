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

/** `imageHost`: the URL template of an image host (BuildOptions.imageHost), null for none. */
export function renderContext(model: Model, publishedImages: ReadonlySet<string>, imageHost: string | null = null): RenderContext {
  const images = new ImageLinks(publishedImages, imageHost);
  return { model, images, cards: cardRenderer(images) };
}
