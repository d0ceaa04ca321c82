/**
 * Which cards each event rewards: rows with add_type 1001 (a card, item_id =
 * unit_id) in event_common's three reward tables. A reward row belongs to a row of its
 * parent table (point count, point ranking, live ranking), which names the event_id; a
 * reward row that carries its own event_id is taken at its word. Absent tables are
 * simply absent.
 */
import type { MasterDb, DbRow } from '../input/masterDb.ts';
import type { Findings } from '../findings.ts';
import type { Card, GameEvent, Writable } from './types.ts';
import { num } from './values.ts';

const CARD = 1001;

/** [reward table, parent table, the id column they share] */
const REWARD_TABLES: [string, string, string][] = [
  ['event_point_count_reward_m', 'event_point_count_m', 'event_point_count_id'],
  ['event_point_ranking_reward_m', 'event_point_ranking_m', 'event_point_ranking_id'],
  ['event_live_ranking_reward_m', 'event_live_ranking_m', 'event_live_ranking_id'],
];

/** [event_id, unit_id] of every card reward in one reward table. */
function cardRewards(db: MasterDb, [rewards, parent, idColumn]: [string, string, string], findings: Findings): [number, number][] {
  const cards = db.rows(rewards).filter((row) => num(row.add_type) === CARD);
  if (!cards.length) return [];
  const eventOfParent = new Map(db.rows(parent).map((row) => [num(row[idColumn]), num(row.event_id)]));
  const eventOf = db.columns(rewards).has('event_id')
    ? (row: DbRow) => num(row.event_id)
    : (row: DbRow) => eventOfParent.get(num(row[idColumn]));
  const linked = cards.flatMap((row): [number, number][] => {
    const event = eventOf(row);
    return event === undefined ? [] : [[event, num(row.item_id)]];
  });
  if (linked.length < cards.length) {
    findings.warn(`${rewards}: ${cards.length - linked.length} card rewards name no ${parent} row; they are not linked to events`);
  }
  return linked;
}

/**
 * Fills each event's rewardCards (ordinal order, each card once) and each card's events
 * (start order, as `events` comes). Rewards of events left out and of unreadable cards are ignored.
 */
export function linkEventRewards(db: MasterDb | null, events: Writable<GameEvent>[], cards: Writable<Card>[], findings: Findings): void {
  if (!db) return;
  const rewarded = new Map<number, Set<number>>(); // event_id -> unit_ids
  for (const table of REWARD_TABLES) {
    for (const [event, unitId] of cardRewards(db, table, findings)) {
      if (!rewarded.has(event)) rewarded.set(event, new Set());
      rewarded.get(event)!.add(unitId);
    }
  }
  const cardById = new Map(cards.map((card) => [card.id, card]));
  for (const event of events) {
    const unitIds = [...(rewarded.get(event.id) ?? [])];
    const rewardCards = unitIds.flatMap((id) => cardById.get(id) ?? []).sort((a, b) => a.ordinal - b.ordinal);
    event.rewardCards = rewardCards;
    for (const card of rewardCards) card.events.push(event);
  }
}
