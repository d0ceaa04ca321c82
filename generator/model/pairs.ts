/** Pairs (unit_pair_m): two cards whose art forms one picture. The table is optional. */
import type { MasterDb } from '../input/masterDb.ts';
import type { BuildReport } from '../report.ts';
import type { Card, Pair, PairMember } from './types.ts';
import { groupBy, num } from './values.ts';

function member(row: Record<string, unknown>, cardsById: Map<number, Card>): PairMember {
  const unitId = num(row.unit_id);
  return { unitPairId: num(row.unit_pair_id), unitId, position: num(row.position), rank: num(row.rank), card: cardsById.get(unitId) ?? null };
}

/** Every pair in id order; a member whose card is unreadable or missing keeps its row with a null card. */
export function buildPairs(db: MasterDb, cards: Card[], report: BuildReport): Pair[] {
  const cardsById = new Map(cards.map((c) => [c.id, c]));
  const pairs = [...groupBy(db.rows('unit_pair_m'), (r) => num(r.pair))]
    .sort(([a], [b]) => a - b)
    .map(([id, rows]): Pair => ({
      id,
      members: rows.map((r) => member(r, cardsById)).sort((a, b) => a.position - b.position || a.unitPairId - b.unitPairId),
    }));
  for (const pair of pairs) {
    const positions = pair.members.map((m) => m.position).join(',');
    if (positions !== '0,1') report.warn(`unit_pair_m: pair ${pair.id} has positions [${positions}] instead of [0,1]`);
  }
  const cardless = pairs.flatMap((p) => p.members.filter((m) => !m.card).map((m) => `${p.id}:${m.unitId}`));
  if (cardless.length) {
    report.warn(`unit_pair_m: ${cardless.length} pair member(s) name no readable card (pair:unit_id ${cardless.join(' ')}); their card is null`);
  }
  return pairs;
}
