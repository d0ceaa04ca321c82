/** Sets: one per album series (album_series_m), plus the curated ones of input/sets.json. */
import type { MasterDb } from '../input/masterDb.ts';
import type { CuratedSet } from '../input/curated.ts';
import type { Findings } from '../findings.ts';
import type { Card, CardSet, Writable } from './types.ts';
import type { EnglishTexts } from './english.ts';
import { num } from './values.ts';

const albumSetId = (albumSeriesId: number) => `album-${albumSeriesId}`;

export function buildSets(db: MasterDb, english: EnglishTexts, curated: CuratedSet[], cards: Writable<Card>[], findings: Findings): CardSet[] {
  const byOrdinal = new Map(cards.map((c) => [c.ordinal, c]));
  // Each series' cards in the cards' order, grouped in one pass (a filter per series was quadratic: 7.5 s of 40,000 cards' build).
  const bySeries = new Map<number, number[]>();
  for (const c of cards) {
    if (c.albumSeriesId === null) continue;
    const ids = bySeries.get(c.albumSeriesId);
    if (ids) ids.push(c.id);
    else bySeries.set(c.albumSeriesId, [c.id]);
  }
  const series = db.keyedRows('album_series_m', 'album_series_id')
    .sort((a, b) => num(a.order_num) - num(b.order_num) || num(a.album_series_id) - num(b.album_series_id))
    .map((row): CardSet => {
      const id = num(row.album_series_id);
      const name = english.text(row.name, english.get('album_series_m', 'album_series_id', id), row.name_en);
      return { id: albumSetId(id), displayName: name.secondary ?? name.original, cardIds: [...(bySeries.get(id) ?? [])] };
    });
  const taken = new Set(series.map((s) => s.id));
  const curatedSets = curated.flatMap((set): CardSet[] => {
    if (taken.has(set.id)) {
      findings.warn(`sets.json: set id ${set.id} is used twice; the later one is ignored`, 'sets.json: set ids used twice');
      return [];
    }
    taken.add(set.id);
    const members = set.ordinals.flatMap((o) => {
      const card = byOrdinal.get(o);
      if (!card) findings.warn(`sets.json: set ${set.id} names ordinal ${o}, which is not a readable card`, 'sets.json: ordinals that are not readable cards');
      return card ? [card] : [];
    });
    members.sort((a, b) => a.ordinal - b.ordinal);
    return [{ id: set.id, displayName: set.displayName, cardIds: [...new Set(members.map((c) => c.id))] }];
  });
  const sets = [...series, ...curatedSets];
  const byId = new Map(cards.map((c) => [c.id, c]));
  for (const set of sets) for (const id of set.cardIds) byId.get(id)!.setIds.push(set.id);
  for (const card of cards) card.setIds.sort();
  return sets;
}
