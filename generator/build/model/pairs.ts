/** Pairs (unit_pair_m): two cards whose art forms one picture. The table is optional. */
import type { MasterDb } from '../input/masterDb.ts';
import { WARNING_EXAMPLES, type Findings } from '../findings.ts';
import type { Card, Pair } from './types.ts';
import { groupBy, num } from './values.ts';

/**
 * Every pair whose members are all readable cards, in id order, members in position order.
 * A pair naming an unreadable (still encrypted) or missing card is not published yet: a
 * client expects two cards in every pair file (one warning lists them).
 */
export function buildPairs(db: MasterDb, cards: Card[], findings: Findings): Pair[] {
  const cardsById = new Map(cards.map((c) => [c.id, c]));
  const incomplete: string[] = [];
  const pairs = [...groupBy(db.rows('unit_pair_m'), (r) => num(r.pair))]
    .sort(([a], [b]) => a - b)
    .flatMap(([id, unordered]): Pair[] => {
      const rows = unordered.sort((a, b) => num(a.position) - num(b.position) || num(a.unit_pair_id) - num(b.unit_pair_id));
      const unreadable = rows.filter((r) => !cardsById.has(num(r.unit_id)));
      if (unreadable.length) {
        incomplete.push(`${id} (unit_id ${unreadable.map((r) => num(r.unit_id)).join(', ')})`);
        return [];
      }
      const members = rows.map((r) => ({ unitPairId: num(r.unit_pair_id), position: num(r.position), rank: num(r.rank), card: cardsById.get(num(r.unit_id))! }));
      return [{ id, members }];
    });
  for (const pair of pairs) {
    const positions = pair.members.map((m) => m.position).join(',');
    if (positions !== '0,1') findings.warn(`unit_pair_m: pair ${pair.id} has positions [${positions}] instead of [0,1]`, 'unit_pair_m: pairs with positions other than [0,1]');
  }
  const what = `unit_pair_m: ${incomplete.length} pair(s) name cards that are unreadable or missing and are not published`;
  findings.warnMany(incomplete.length, what, incomplete.slice(0, WARNING_EXAMPLES));
  return pairs;
}
