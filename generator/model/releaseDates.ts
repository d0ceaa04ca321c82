/** Release dates: curated per ordinal, else estimated from the nearest curated neighbour (marked dirty). */
import type { Card } from './types.ts';

/**
 * Ordinals grow with time, so a card without a curated date was released no
 * earlier than the closest curated card below it; above the first curated
 * ordinal there is nothing earlier to lean on, so the next curated card is used.
 */
export function assignReleaseDates(cards: Card[], curated: Map<number, number>): void {
  const known = [...curated.keys()].sort((a, b) => a - b);
  for (const card of cards) {
    const exact = curated.get(card.ordinal);
    if (exact !== undefined) {
      card.releaseDate = exact;
      card.releaseDateIsDirty = false;
      continue;
    }
    const below = known.filter((o) => o < card.ordinal).at(-1);
    const above = known.find((o) => o > card.ordinal);
    const neighbour = below ?? above;
    card.releaseDate = neighbour === undefined ? null : curated.get(neighbour)!;
    card.releaseDateIsDirty = true;
  }
}
