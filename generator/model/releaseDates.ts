/**
 * Release dates. Known: curated per ordinal, else the start of the first event that
 * rewards the card (cards.events is in start order, so reruns come later). The rest are
 * estimated from the nearest known ordinal (marked dirty).
 */
import type { Card } from './types.ts';

/** Ordinal -> known date: the event-derived ones, overridden by the curated ones. */
function knownDates(cards: Card[], curated: Map<number, number>): Map<number, number> {
  const known = new Map<number, number>();
  for (const card of cards) if (card.events.length) known.set(card.ordinal, card.events[0].start);
  for (const [ordinal, date] of curated) known.set(ordinal, date);
  return known;
}

/**
 * Ordinals grow with time, so a card without a known date was released no earlier than
 * the closest known card below it, whose date it takes; below the first known ordinal
 * there is nothing earlier to lean on, so the first known card above is used.
 */
export function assignReleaseDates(cards: Card[], curated: Map<number, number>): void {
  const known = knownDates(cards, curated);
  const ordinals = [...known.keys()].sort((a, b) => a - b);
  let above = 0; // index of the first known ordinal above the current card
  for (const card of [...cards].sort((a, b) => a.ordinal - b.ordinal)) {
    while (above < ordinals.length && ordinals[above] <= card.ordinal) above++;
    const exact = known.get(card.ordinal);
    const neighbour = above > 0 ? ordinals[above - 1] : ordinals[0];
    card.releaseDate = exact ?? (neighbour === undefined ? null : known.get(neighbour)!);
    card.releaseDateIsDirty = exact === undefined;
  }
}
