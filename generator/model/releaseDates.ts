/** Release dates: curated per ordinal, else estimated from the nearest curated neighbour (marked dirty). */
import type { Card } from './types.ts';

/**
 * Ordinals grow with time, so a card without a curated date was released no
 * earlier than the closest curated card below it; above the first curated
 * ordinal there is nothing earlier to lean on, so the next curated card is used.
 */
export function assignReleaseDates(cards: Card[], curated: Map<number, number>): void {
  const known = [...curated.keys()].sort((a, b) => a - b);
  let above = 0; // index of the first curated ordinal above the current card
  for (const card of [...cards].sort((a, b) => a.ordinal - b.ordinal)) {
    while (above < known.length && known[above] <= card.ordinal) above++;
    const exact = curated.get(card.ordinal);
    const neighbour = above > 0 ? known[above - 1] : known[0];
    card.releaseDate = exact ?? (neighbour === undefined ? null : curated.get(neighbour)!);
    card.releaseDateIsDirty = exact === undefined;
  }
}
