/**
 * The files the edge routes read: generic objects and their lists, the happening timeline
 * (event_m local times, curated gachas) and the sharded crowd translations.
 */
import fs from 'fs-extra';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSample, copySample, packedObject, readJson, renderInMemory, writeDb } from '../helpers.ts';
import { translationShard } from '../../generator/contract/format.ts';
import { OBJECT_TYPE_NAMES, type ObjectType } from '../../generator/contract/endpoints.ts';
import type { CardJson, CardListJson, CharacterJson, HappeningJson, ObjectListJson } from '../../generator/contract/schemas.ts';

type TranslationIndexJson = { shards: number };
import { shardCount } from '../../generator/build/render/translations.ts';

let out: string;
const files = (dir: string, folder: string) => fs.readdirSync(path.join(dir, folder)).sort();
const unix = (iso: string) => Date.parse(iso) / 1000;

beforeAll(async () => {
  ({ out } = await buildSample());
});

/** The ids of every object a type's packs hold, in order. */
const packedIds = (type: ObjectType) => files(out, `api/v1/pack/${type}`)
  .flatMap((pack) => {
    const { objects, ordinals } = JSON.parse(fs.readFileSync(path.join(out, 'api/v1/pack', type, pack), 'utf8'));
    return Object.keys(type === 'card_t' ? ordinals : objects).map(Number);
  })
  .sort((a, b) => a - b);

describe('generic objects, in the packs the edge answers <type>/<ids> from', () => {
  it('publishes card_t by internal id, holding the same object as card/<ordinal>.json, and no file per object', async () => {
    const list = await readJson<CardListJson>(out, 'api/v1/card_list.json');
    expect(fs.existsSync(path.join(out, 'api/v1/card_t'))).toBe(false);
    expect(packedIds('card_t')).toEqual(list.stubs.map((s) => s.id).sort((a, b) => a - b));
    // Published once: card_t's packs name each card's ordinal, its object is in the cards' pack.
    for (const pack of files(out, 'api/v1/pack/card_t')) expect(Object.keys(await readJson(out, `api/v1/pack/card_t/${pack}`))).toEqual(['ordinals']);
    for (const stub of list.stubs) {
      const byOrdinal = await readJson<{ cards: CardJson[] }>(out, `api/v1/card/${stub.ordinal}.json`);
      expect(await packedObject(out, 'card_t', stub.id)).toEqual(byOrdinal.cards[0]);
    }
  });

  it('publishes skill_t and leader_skill_t as the objects embedded in cards', async () => {
    const card = (await readJson<{ cards: CardJson[] }>(out, 'api/v1/card/16.json')).cards[0];
    expect(await packedObject(out, 'skill_t', card.skill!.id)).toEqual(card.skill);
    expect(await packedObject(out, 'leader_skill_t', card.center_skill!.id)).toEqual(card.center_skill);
  });

  it('publishes accessory_t as the object of accessory/<id>.json', async () => {
    for (const name of files(out, 'api/v1/accessory')) {
      const accessory = await readJson(out, `api/v1/accessory/${name}`);
      expect(await packedObject(out, 'accessory_t', Number.parseInt(name, 10))).toEqual(accessory.accessories[0]);
    }
  });

  it('publishes char_t with tags, school year, sub-unit and the internal ids of its cards', async () => {
    const aoi = (await packedObject<CharacterJson>(out, 'char_t', 101))!;
    const cards = (await readJson<CardListJson>(out, 'api/v1/card_list.json')).stubs.filter((c) => c.type_id === 101);
    expect(aoi).toMatchObject({ id: 101, name: '星野あおい', name_en: 'Hoshino Aoi', member_category: 1, year: 1, sub_affiliation: 6 });
    expect(aoi.tags.map((t) => t.id)).toEqual([1, 4, 6, 8]);
    expect(aoi.tags.find((t) => t.id === 8)).toEqual({ id: 8, name: 'ほしぞら部', name_en: 'Starry Sky Club', display: false });
    expect(aoi.card_ids).toEqual(cards.map((c) => c.id));
    const card = (await readJson<{ cards: CardJson[] }>(out, `api/v1/card/${cards[0].ordinal}.json`)).cards[0];
    expect([card.affiliation, card.year, card.sub_affiliation]).toEqual([aoi.member_category, aoi.year, aoi.sub_affiliation]);
  });
});

describe('/api/v1/list/<type>.json', () => {
  it('lists every published object of each type, in id order, with a ref to its extensionless URL', async () => {
    for (const type of OBJECT_TYPE_NAMES) {
      const list = await readJson<ObjectListJson>(out, `api/v1/list/${type}.json`);
      const ids = packedIds(type);
      expect(list.result.map((e) => e.id), type).toEqual(ids);
      for (const entry of list.result) expect(entry.ref).toBe(`/api/v1/${type}/${entry.id}`);
    }
  });

  it('describes each entry briefly: names, and for cards ordinal, rarity and attribute', async () => {
    const cards = await readJson<ObjectListJson>(out, 'api/v1/list/card_t.json');
    expect(cards.result.find((c) => c.id === 1036)).toEqual({
      id: 1036, name: '放課後の約束', name_en: 'After-School Promise', ordinal: 12, char_name: 'Hanamura Yuzu',
      rarity: 2, attribute: 3, ref: '/api/v1/card_t/1036',
    });
    const skills = await readJson<ObjectListJson>(out, 'api/v1/list/skill_t.json');
    expect(skills.result[0]).toEqual({ id: 1, name: 'きらめきヒール', name_en: 'Sparkle Heal', ref: '/api/v1/skill_t/1' });
  });
});

describe('/api/v1/happening.json', () => {
  it('holds every event_m row newest first, local times converted with the export timezone (+09:00)', async () => {
    const { events } = await readJson<HappeningJson>(out, 'api/v1/happening.json');
    expect(events.map((e) => e.id)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(events.at(-1)).toEqual({
      id: 1, name: 'はじまりのステージ', name_en: 'The First Stage', type: 1,
      start_date: unix('2019-04-20T16:00:00+09:00'), end_date: unix('2019-04-30T15:00:00+09:00'),
      result_end_date: unix('2019-05-03T15:00:00+09:00'),
    });
    expect(new Date(events[1].start_date * 1000).getUTCFullYear()).toBe(2024);
  });

  it('holds the curated gachas with their card ordinals', async () => {
    const { gachas } = await readJson<HappeningJson>(out, 'api/v1/happening.json');
    expect(gachas.map((g) => g.id)).toEqual(['thanks-scout', 'parade-scout', 'stella-dream-scout', 'summer-scout', 'opening-scout']);
    expect(gachas.at(-1)).toEqual({
      id: 'opening-scout', name: 'Opening Scout', name_en: null, type: null, subtype: null, rates: null,
      start_date: unix('2019-04-15T15:00:00+09:00'), end_date: unix('2019-05-01T15:00:00+09:00'), ordinals: [10, 11, 12],
    });
  });

  it('reads event dates in the timezone meta.json names', async () => {
    const input = await copySample();
    await fs.promises.writeFile(path.join(input, 'meta.json'), JSON.stringify({ timezone: '-05:00' }));
    const { events } = (await renderInMemory(input)).json<HappeningJson>('api/v1/happening.json');
    expect(events.at(-1)!.start_date).toBe(unix('2019-04-20T16:00:00-05:00'));
  });

  it('leaves out an event with an unreadable date, with a warning naming the row', async () => {
    const input = await copySample();
    fs.rmSync(path.join(input, 'event_common.sql'));
    await writeDb(input, 'db/event/event_common.db_', [{
      name: 'event_m',
      columns: { event_id: 'INTEGER', name: 'TEXT', start_date: 'TEXT', end_date: 'TEXT', close_date: 'TEXT' },
      rows: [
        { event_id: 1, name: 'よい', start_date: '2020/01/01 00:00:00', end_date: '2020/01/02 00:00:00', close_date: null },
        { event_id: 2, name: 'わるい', start_date: 'soon', end_date: '2020/01/02 00:00:00', close_date: null },
      ],
    }]);
    const { json, report } = await renderInMemory(input);
    const { events } = json<HappeningJson>('api/v1/happening.json');
    expect(events.map((e) => [e.id, e.result_end_date])).toEqual([[1, null]]);
    expect(report.warnings.join('\n')).toMatch(/event_m: event 2 .*"soon"/);
  });

  it('is empty without event_common and gachas.json', async () => {
    const input = await copySample();
    fs.rmSync(path.join(input, 'event_common.sql'));
    fs.rmSync(path.join(input, 'gachas.json'));
    expect((await renderInMemory(input)).json('api/v1/happening.json')).toEqual({ events: [], gachas: [] });
  });
});

describe('/api/v1/tl/<shard>.json', () => {
  it('puts every translation in the shard its original hashes to, and nothing else', async () => {
    const { shards } = await readJson<TranslationIndexJson>(out, 'api/v1/tl/index.json');
    const published = new Map<string, string>();
    for (let n = 0; n < shards; n++) {
      const shard: Record<string, string> = await readJson(out, `api/v1/tl/${n}.json`);
      for (const [original, translation] of Object.entries(shard)) {
        expect(translationShard(original, shards)).toBe(n);
        published.set(original, translation);
      }
    }
    expect(published.get('はじまりの朝')).toBe('First Morning');
    expect(published.get('パンダ先生')).toBe('Panda Sensei');
  });

  it('leaves out translations equal to their original', async () => {
    const input = await copySample();
    await fs.promises.writeFile(path.join(input, 'translations/zz.json'), JSON.stringify({ Stella: 'Stella', 'ノヴァ': 'Nova' }));
    const { json } = await renderInMemory(input);
    const { shards } = json<TranslationIndexJson>('api/v1/tl/index.json');
    const shardOf = (s: string) => json<Record<string, string>>(`api/v1/tl/${translationShard(s, shards)}.json`);
    expect(shardOf('ノヴァ')['ノヴァ']).toBe('Nova');
    expect(shardOf('Stella')).not.toHaveProperty('Stella');
  });

  it('grows the shard count in powers of two with the number of translations, up to 64', () => {
    expect([0, 1024, 1025, 4096, 5000, 10_000_000].map(shardCount)).toEqual([1, 1, 2, 4, 8, 32]);
  });
});
