/** An archive build's availability per region (input/archiveStep.ts RegionFacts), put on the objects it describes. */
import type { Accessory, Card, InRegions, Song, Writable } from './types.ts';
import type { RegionFacts } from '../input/archiveStep.ts';
import type { RegionsJson } from '../../contract/schemas.ts';

function attach(items: readonly (InRegions & { id: number })[], facts: ReadonlyMap<number, RegionsJson>): void {
  for (const item of items) {
    const regions = facts.get(item.id);
    if (regions) (item as Writable<InRegions>).regions = regions;
  }
}

/** Gives each card, accessory, song and chart its regions member, when the build is an archive's step. */
export function attachRegions(facts: RegionFacts | null, { cards, accessories, songs }: { cards: readonly Card[]; accessories: readonly Accessory[]; songs: readonly Song[] | null }): void {
  if (!facts) return;
  attach(cards, facts.cards);
  attach(accessories, facts.accessories);
  attach(songs ?? [], facts.songs);
  attach((songs ?? []).flatMap((song) => song.charts), facts.charts);
}
