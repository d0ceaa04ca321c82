/**
 * Release dates. Known: curated per ordinal, else the start of the first event that
 * rewards the card (cards.events is in start order, so reruns come later). A card between
 * two known ordinals is estimated from the nearest known one below (marked dirty); a card
 * outside them has no date (null, dirty): nothing bounds it on that side.
 */
import type { Findings } from '../findings.ts';
import type { Card, Writable } from './types.ts';

/** Ordinal -> known date: the event-derived ones, overridden by the curated ones. */
function knownDates(cards: Card[], curated: Map<number, number>): Map<number, number> {
  const known = new Map<number, number>();
  for (const card of cards) if (card.events.length) known.set(card.ordinal, card.events[0].start);
  for (const [ordinal, date] of curated) known.set(ordinal, date);
  return known;
}

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/**
 * Ordinals grow with time, so a card without a known date between two known ones was
 * released no earlier than the closest known card below it, whose date it takes. Before the
 * first known card or after the last, the date is unknown; cards after the last known one
 * (a unit database newer than the event database) are a warning.
 */
export function assignReleaseDates(cards: Writable<Card>[], curated: Map<number, number>, findings: Findings): void {
  const known = knownDates(cards, curated);
  const ordinals = [...known.keys()].sort((a, b) => a - b);
  const inOrder = [...cards].sort((a, b) => a.ordinal - b.ordinal);
  let above = 0; // index of the first known ordinal above the current card
  for (const card of inOrder) {
    while (above < ordinals.length && ordinals[above] <= card.ordinal) above++;
    const exact = known.get(card.ordinal);
    const bounded = above > 0 && above < ordinals.length;
    card.releaseDate = exact ?? (bounded ? known.get(ordinals[above - 1])! : null);
    card.releaseDateIsDirty = exact === undefined;
  }
  const last = ordinals.at(-1);
  if (last !== undefined) warnAfterLastKnown(inOrder.filter((c) => c.ordinal > last), last, known.get(last)!, findings);
}

/** Cards after the last one with a known date: the unit database is newer than what dates its cards. */
function warnAfterLastKnown(after: Card[], last: number, lastDate: number, findings: Findings): void {
  if (!after.length) return;
  const cards = `${after.length} card${after.length === 1 ? '' : 's'} (ordinals ${after[0].ordinal} to ${after.at(-1)!.ordinal})`;
  findings.warn(`release dates: ${cards} come after the last card with a known date (#${last}, ${day(lastDate)}): their release_date is null. ` +
    'The unit database runs past the event database; a newer event_common or release_dates.json dates them');
}
