/** Sets: /api/v1/card/set_list.json and /api/v1/set/<id>.json, on the sample and on curated fixtures. */
import fs from 'fs-extra';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSample, copySample, readJson, renderInMemory, samplePictures, type RenderedInMemory } from '../helpers.ts';
import { unitIdOf } from '../../generator/build/sample/data.ts';
import type { CardJson, CardListJson, CardsJson as SetJson, SetListJson } from '../../generator/contract/schemas.ts';

let out: string;
let setList: SetListJson;
let cards: CardJson[];
const setFile = (dir: string, id: string): Promise<SetJson> => readJson(dir, `api/v1/set/${id}.json`);

beforeAll(async () => {
  ({ out } = await buildSample());
  setList = await readJson(out, 'api/v1/card/set_list.json');
  const list: CardListJson = await readJson(out, 'api/v1/card_list.json');
  cards = await Promise.all(list.stubs.map(async (c) => (await readJson(out, `api/v1/card/${c.ordinal}.json`)).cards[0]));
});

describe('/api/v1/card/set_list.json', () => {
  it('lists the album series in order_num order, then the curated sets in file order', () => {
    expect(setList.sets.map((s) => s.id)).toEqual([
      'album-1', 'album-2', 'album-3', 'stella-first-years', 'promo-cards', 'rainbow-collection',
    ]);
    expect(setList.sets[0].display_name).toBe('Chapter of Beginnings');
    expect(setList.sets[3].display_name).toBe('Stella first years');
  });

  it('has a file for every listed set and no other', () => {
    const files = fs.readdirSync(path.join(out, 'api/v1/set')).sort();
    expect(files).toEqual(setList.sets.map((s) => `${s.id}.json`).sort());
  });

  it('previews up to 6 member cards, highest rarity first (UR above SSR), with t when they can be idolized', async () => {
    for (const set of setList.sets) {
      const members = (await setFile(out, set.id)).cards;
      const byId = new Map(members.map((c) => [c.id, c]));
      expect(set.preview.length).toBe(Math.min(6, members.length));
      for (const entry of set.preview) {
        const card = byId.get(Number.parseInt(entry, 10));
        expect(card, `${set.id} preview ${entry}`).toBeDefined();
        expect(entry).toBe(card!.is_transform_disabled ? `${card!.id}` : `${card!.id}t`);
      }
    }
    // Chapter of Stars holds 6 URs (21-24, 34, 35) and 3 SSRs (25-27): only the URs show.
    expect(setList.sets[2].preview).toEqual([21, 22, 23, 24, 34, 35].map((o) => `${unitIdOf(o)}t`));
    // UR 31 before SR 30, whatever their ordinals.
    expect(setList.sets[4].preview).toEqual([`${unitIdOf(31)}t`, `${unitIdOf(30)}t`]);
  });
});

describe('/api/v1/set/<id>.json', () => {
  it('holds full card objects, equal to the card files, in ordinal order', async () => {
    const byId = new Map(cards.map((c) => [c.id, c]));
    for (const set of setList.sets) {
      const members = (await setFile(out, set.id)).cards;
      expect(members.length).toBeGreaterThan(0);
      for (const card of members) expect(card).toEqual(byId.get(card.id));
      const ordinals = members.map((c) => c.ordinal);
      expect(ordinals).toEqual([...ordinals].sort((a, b) => a - b));
    }
  });

  it('agrees with every card.sets in both directions', async () => {
    const holders = new Map<number, string[]>(cards.map((c) => [c.id, []]));
    for (const set of setList.sets) {
      for (const card of (await setFile(out, set.id)).cards) holders.get(card.id)!.push(set.id);
    }
    for (const card of cards) expect([...card.sets].sort(), `card ${card.ordinal}`).toEqual(holders.get(card.id)!.sort());
  });

  it('puts an album series card in its series set, a curated ordinal in its curated set', () => {
    const byOrdinal = new Map(cards.map((c) => [c.ordinal, c]));
    expect(byOrdinal.get(21)!.sets).toEqual(['album-3', 'stella-first-years']);
    expect(byOrdinal.get(30)!.sets).toEqual(['promo-cards']);
    expect(byOrdinal.get(28)!.sets).toEqual([]);
  });

  it('leaves an unreadable card out of its sets', async () => {
    const rainbow = (await setFile(out, 'rainbow-collection')).cards.map((c) => c.ordinal);
    expect(rainbow).toEqual([33, 34, 35]); // 36 stays encrypted
  });
});

describe('curated sets with cards that cannot be idolized, and empty sets', () => {
  let site: RenderedInMemory;
  let list: SetListJson;

  beforeAll(async () => {
    const input = await copySample();
    fs.writeFileSync(path.join(input, 'sets.json'), JSON.stringify([
      { id: 'support', display_name: 'Support and costumes', ordinals: [32, 28, 30, 29] },
      { id: 'locked', display_name: 'Only an encrypted card', ordinals: [36] },
      { id: 'nothing', display_name: 'No ordinals', ordinals: [] },
    ]));
    site = await renderInMemory(input, await samplePictures());
    list = site.json<SetListJson>('api/v1/card/set_list.json');
  });

  it('names cards that can never be idolized without t, ties broken by ordinal', () => {
    const support = list.sets.find((s) => s.id === 'support')!;
    // SR 29 (skill-up support), SR 30 (promo, idolized), R 32 (costume), N 28 (practice).
    expect(support.preview).toEqual([`${unitIdOf(29)}`, `${unitIdOf(30)}t`, `${unitIdOf(32)}`, `${unitIdOf(28)}`]);
  });

  it('publishes a set without readable cards with empty cards and preview', async () => {
    for (const id of ['locked', 'nothing']) {
      expect(list.sets.find((s) => s.id === id)!.preview).toEqual([]);
      expect(site.json(`api/v1/set/${id}.json`)).toEqual({ cards: [] });
    }
    expect(site.report.warnings.some((w) => /set locked names ordinal 36/.test(w))).toBe(true);
  });
});
