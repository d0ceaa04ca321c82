/**
 * The edge handler called directly, reading the sample build from disk: every edge route,
 * its query parameters and errors, and the paths it passes through to the static host.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSample, packMembers, packedObject, packedText, readJson } from '../helpers.ts';
import { handleRequest, type EdgeSite } from '../../generator/runtime/edge/handler.ts';
import { checkSitePath } from '../../generator/runtime/edge/guard.ts';
import { diskBytesReader, diskReader } from '../../generator/hosts/node/runtime/diskSite.ts';
import { objectList } from '../../generator/runtime/edge/objects.ts';
import type { BulkIndexJson, CardJson, CardListJson, HappeningJson, HistoryJson, ObjectListJson } from '../../generator/contract/schemas.ts';
import { MAX_IDS } from '../../generator/contract/limits.ts';
import { endpoints, objectEndpoint } from '../../generator/contract/endpoints.ts';
import { KEY_PACK_SIZE, PACK_SIZE, keyPackOf, packOf } from '../../generator/contract/format.ts';

let out: string;
let site: EdgeSite;
/** Every path the handler read during this file's tests. */
const reads = new Set<string>();
/** 2019-04-25T00:00:00Z: during event 1 and the opening scout. */
const NOW_MS = Date.parse('2019-04-25T00:00:00Z');
let randomValue = 0;

beforeAll(async () => {
  ({ out } = await buildSample());
  const read = diskReader(out);
  site = {
    read: (path) => (reads.add(path), read(path)),
    now: () => NOW_MS,
    random: () => randomValue,
  };
});

const call = (path: string, init?: RequestInit) => handleRequest(new Request(`https://sif.test${path}`, init), site);

/** A response the handler must answer itself, with the headers every JSON response keeps. */
async function answered(path: string, init?: RequestInit): Promise<Response> {
  const response = await call(path, init);
  expect(response, path).not.toBeNull();
  if (response!.status !== 204) expect(response!.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response!.headers.get('access-control-allow-origin')).toBe('*');
  return response!;
}

async function ok<T = any>(path: string, init?: RequestInit): Promise<T> {
  const response = await answered(path, init);
  expect(response.status, path).toBe(200);
  return response.json() as Promise<T>;
}

async function fails(path: string, status: number, message: RegExp, init?: RequestInit): Promise<Response> {
  const response = await answered(path, init);
  expect(response.status, path).toBe(status);
  expect((await response.json()).error, path).toMatch(message);
  return response;
}

const cardFile = async (ordinal: number) => (await readJson<{ cards: CardJson[] }>(out, `api/v1/card/${ordinal}.json`)).cards[0];
const ordinals = (body: { cards: CardJson[] }) => body.cards.map((c) => c.ordinal);

describe('/api/v1/card/<ordinals>.json', () => {
  it('answers the cards of a comma list in request order, as in their own files', async () => {
    const body = await ok('/api/v1/card/3,1,2.json');
    expect(ordinals(body)).toEqual([3, 1, 2]);
    expect(body.cards[0]).toEqual(await cardFile(3));
  });

  it('takes percent-encoded commas', async () => {
    expect(ordinals(await ok('/api/v1/card/2%2C1.json'))).toEqual([2, 1]);
  });

  it('leaves unknown ordinals out', async () => {
    expect(ordinals(await ok('/api/v1/card/1,9999,0,2.json'))).toEqual([1, 2]);
  });

  it('is a 404 when none of the ordinals exists', async () => {
    await fails('/api/v1/card/9998,9999.json', 404, /no card with ordinal 9998, 9999/);
  });

  it('takes 1,000 ids (a real client asks for 1,000 ordinals at once) and refuses more with a 400', async () => {
    const thousand = Array.from({ length: MAX_IDS }, (_, i) => i + 1);
    expect(MAX_IDS).toBe(1000);
    expect(ordinals(await ok(`/api/v1/card/${thousand.join(',')}.json`))).toEqual(thousand.filter((n) => n <= 35));
    await fails(`/api/v1/card/${[...thousand, 1001].join(',')}.json`, 400, /too many ids: 1001 \(at most 1000/);
  });

  it('ignores empty parts and leading zeros, as upstream parsed ids', async () => {
    expect(ordinals(await ok('/api/v1/card/1,2,.json'))).toEqual([1, 2]);
    expect(ordinals(await ok('/api/v1/card/,3,,1.json'))).toEqual([3, 1]);
    expect(await ok('/api/v1/card/01.json')).toEqual({ cards: [await cardFile(1)] });
    expect(ordinals(await ok('/api/v1/card/002,0001.json'))).toEqual([2, 1]);
  });

  it('answers a pair id with leading zeros from the pair\'s file; an unknown one is a 404', async () => {
    expect(await ok('/api/v1/pair/01.json')).toEqual(await readJson(out, 'api/v1/pair/1.json'));
    expect(await call('/api/v1/pair/1.json')).toBeNull();
    await fails('/api/v1/pair/0099.json', 404, /no pair 99/);
  });

  it('is a 400 for a malformed id or no id at all', async () => {
    for (const name of ['1,x', '1,-2', '1,2.5', 'abc', '1234567890']) await fails(`/api/v1/card/${name}.json`, 400, /malformed id/);
    for (const name of [',', ',,']) await fails(`/api/v1/card/${name}.json`, 400, /no id/);
  });

  it('passes single files and other published files of the folder through to the static host', async () => {
    expect(await call('/api/v1/card/1.json')).toBeNull();
    expect(await call('/api/v1/card/set_list.json')).toBeNull();
    expect(await call('/api/v1/card/9999.json')).toBeNull();
  });
});

describe('reads behind comma lists', () => {
  /** The paths the handler reads to answer `path`. */
  async function readsFor(path: string): Promise<string[]> {
    const seen: string[] = [];
    const response = await handleRequest(new Request(`https://sif.test${path}`), { ...site, read: (p) => (seen.push(p), site.read(p)) });
    expect(response!.status).toBe(200);
    return seen.sort();
  }

  it('a generic object has no file of its own: one id reads its pack, and answers its bytes as the pack holds them', async () => {
    expect(fs.existsSync(path.join(out, 'api/v1/skill_t'))).toBe(false);
    expect(await readsFor('/api/v1/skill_t/1.json')).toEqual([objectEndpoint.skill_t.pack.file(packOf(1))]);
    expect(await (await call('/api/v1/skill_t/1'))!.text()).toBe(`{"result":[${packedText(out, 'skill_t', 1)}]}`);
  });

  it('a few ids read their single files, and answer the bytes a pack holds for them', async () => {
    expect(await readsFor('/api/v1/card/3,1,2.json')).toEqual(['api/v1/card/1.json', 'api/v1/card/2.json', 'api/v1/card/3.json']);
    const pack = packMembers(fs.readFileSync(path.join(out, endpoints.cardPack.file(0))));
    expect(await (await call('/api/v1/card/3,1,2.json'))!.text()).toBe(`{"cards":[${['3', '1', '2'].map((id) => pack.get(id)!.toString('utf8')).join(',')}]}`);
  });

  it(`many ids read one pack per block of ${PACK_SIZE} ids touched, with the same answer`, async () => {
    const ids = Array.from({ length: 30 }, (_, i) => 30 - i);
    expect(await readsFor(`/api/v1/card/${ids.join(',')}.json`)).toEqual(['api/v1/pack/card/0.json']);
    const fromPacks = await ok(`/api/v1/card/${ids.join(',')}.json`);
    expect(fromPacks.cards).toEqual(await Promise.all(ids.map(cardFile)));
    const cardIds = fromPacks.cards.map((c: CardJson) => c.id);
    const asked = [...cardIds, 600, PACK_SIZE + 1];
    // card_t's packs name each card's ordinal; its object is read from the cards' pack (a second round of reads).
    const packs = [...new Set(asked.map(keyPackOf))].map((block) => `api/v1/pack/card_t/${block}.json`);
    expect((await readsFor(`/api/v1/card_t/${asked.join(',')}`)).sort()).toEqual([...packs, 'api/v1/pack/card/0.json'].sort());
    expect((await ok(`/api/v1/card_t/${[...cardIds, 600].join(',')}`)).result).toEqual([...fromPacks.cards, null]);
  });

  it('objects from packs are views of the bytes read, never copies: a request holds no more than its packs', async () => {
    const packs: ArrayBufferLike[] = [];
    const readBytes = async (p: string) => {
      const bytes = await diskBytesReader(out)(p);
      if (bytes) packs.push(bytes.buffer);
      return bytes;
    };
    const pieces = await objectList({ ...site, readBytes }, 'card', Array.from({ length: 20 }, (_, i) => i + 1));
    const views = pieces.filter((piece) => piece instanceof Uint8Array);
    expect(views).toHaveLength(20);
    for (const view of views) expect(packs).toContain(view.buffer);
  });

  it('answers card_t\'s and accessory_t\'s histories from their card\'s and accessory\'s, published once', async () => {
    const stub = (await readJson<ObjectListJson>(out, 'api/v1/list/card_t.json')).result[0] as { id: number; ordinal: number };
    const card = await readJson<HistoryJson>(out, endpoints.history.file('card', stub.ordinal));
    expect(await ok(`/api/v1/history/card_t/${stub.id}.json`)).toEqual({ type: 'card_t', id: stub.id, versions: card.versions });
    expect(fs.existsSync(path.join(out, endpoints.history.file('card_t', stub.id)))).toBe(false);
    const accessory = await readJson<HistoryJson>(out, endpoints.history.file('accessory', 1));
    expect(await ok('/api/v1/history/accessory_t/1.json')).toEqual({ type: 'accessory_t', id: 1, versions: accessory.versions });
    await fails('/api/v1/history/card_t/999999.json', 404, /no history of card_t 999999/);
  });

  it('many accessory ids read accessory_t\'s packs, which hold the same objects', async () => {
    const ids = [9, 8, 7, 6, 5, 4, 3, 2, 1];
    expect(await readsFor(`/api/v1/accessory/${ids.join(',')}.json`)).toEqual(['api/v1/pack/accessory_t/0.json']);
    const files = await Promise.all(ids.map(async (id) => (await readJson(out, `api/v1/accessory/${id}.json`)).accessories[0]));
    expect((await ok(`/api/v1/accessory/${ids.join(',')}.json`)).accessories).toEqual(files);
  });
});

describe('/api/v1/accessory/<ids>.json', () => {
  it('answers a comma list in request order, unknown ids left out', async () => {
    const body = await ok('/api/v1/accessory/4,99,1.json');
    expect(body.accessories.map((a: { id: number }) => a.id)).toEqual([4, 1]);
    expect(body.accessories[1]).toEqual((await readJson(out, 'api/v1/accessory/1.json')).accessories[0]);
  });

  it('is a 404 when none exists and a 400 when malformed', async () => {
    await fails('/api/v1/accessory/98,99.json', 404, /no accessory with id 98, 99/);
    await fails('/api/v1/accessory/random.json', 400, /malformed id "random"/);
  });
});

describe('/api/v1/card/random.json', () => {
  it('answers one card picked by the random source, never cached', async () => {
    const list = await readJson<CardListJson>(out, 'api/v1/card_list.json');
    randomValue = 0;
    const first = await answered('/api/v1/card/random.json');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(ordinals(await first.json())).toEqual([list.stubs[0].ordinal]);
    randomValue = 0.9999;
    expect(ordinals(await ok('/api/v1/card/random.json'))).toEqual([list.stubs.at(-1)!.ordinal]);
  });

  it('takes query parameters', async () => {
    randomValue = 0;
    expect(await ok('/api/v1/card/random.json?keys=ordinal')).toEqual({ cards: [{ ordinal: 1 }] });
  });
});

describe('/api/v1/<type>/<ids>', () => {
  it('answers one entry per id in request order, null for a missing id', async () => {
    const body = await ok('/api/v1/card_t/1006,1,1003');
    expect(body.result.map((c: CardJson | null) => c?.ordinal ?? null)).toEqual([2, null, 1]);
    expect(body.result[0]).toEqual(await cardFile(2));
  });

  it('answers every type, extensionless or not, with the object its pack publishes', async () => {
    for (const type of ['card_t', 'char_t', 'skill_t', 'leader_skill_t', 'accessory_t'] as const) {
      const list = await readJson<ObjectListJson>(out, `api/v1/list/${type}.json`);
      const id = list.result[0].id;
      const object = await packedObject(out, type, id);
      expect(await ok(`/api/v1/${type}/${id}`), type).toEqual({ result: [object] });
      expect(await ok(`/api/v1/${type}/${id}.json`), type).toEqual({ result: [object] });
      expect(await ok(`${list.result[0].ref},${id}.json`), type).toEqual({ result: [object, object] });
    }
  });


  it('answers null entries with 200 when ids are missing, even every one', async () => {
    expect(await ok('/api/v1/char_t/5')).toEqual({ result: [null] });
    expect(await ok('/api/v1/char_t/5,6')).toEqual({ result: [null, null] });
  });

  it('reads id lists as upstream: a trailing comma, empty parts and leading zeros', async () => {
    const body = await ok('/api/v1/card_t/1003,,0001006,999999,');
    expect(body.result.map((c: CardJson | null) => c?.ordinal ?? null)).toEqual([1, 2, null]);
  });

  it('is a 400 for an unknown type, a malformed id, no id or more than 1,000 ids', async () => {
    await fails('/api/v1/foo_t/1', 400, /unknown object type "foo_t"/);
    await fails('/api/v1/card_t/1x', 400, /malformed id "1x"/);
    await fails('/api/v1/card_t/', 400, /no id/);
    expect((await ok(`/api/v1/skill_t/${Array.from({ length: 1000 }, (_, i) => i).join(',')}`)).result).toHaveLength(1000);
    await fails(`/api/v1/skill_t/${Array.from({ length: 1001 }, (_, i) => i).join(',')}`, 400, /too many ids/);
  });
});

describe('/api/v1/list/<type>', () => {
  it('passes known types through to the static host', async () => {
    expect(await call('/api/v1/list/card_t')).toBeNull();
  });

  it('never errors: an unknown type is an empty list', async () => {
    for (const type of ['foo_t', 'card', 'x.json']) expect(await ok(`/api/v1/list/${type}`), type).toEqual({ result: [] });
  });

  it('takes ?keys= (read from the extensionless copy of the file)', async () => {
    const body = await ok('/api/v1/list/char_t?keys=id,name_en');
    expect(body.result[0]).toEqual({ id: 101, name_en: 'Hoshino Aoi' });
  });
});

describe('query parameters', () => {
  it('?stubs=yes replaces a card\'s skill and center skill by refs to skill_t and leader_skill_t', async () => {
    const { cards: [card] } = await ok('/api/v1/card/16.json?stubs=yes');
    const original = await cardFile(16);
    expect(card.skill).toEqual({ ref: `/api/v1/skill_t/${original.skill!.id}` });
    expect(card.center_skill).toEqual({ ref: `/api/v1/leader_skill_t/${original.center_skill!.id}` });
    expect({ ...card, skill: original.skill, center_skill: original.center_skill }).toEqual(original);
  });

  it('?stubs=yes replaces an accessory\'s unit_stub by a ref to card_t', async () => {
    const { result: [accessory] } = await ok('/api/v1/accessory_t/1?stubs=yes');
    expect(accessory.unit_stub).toEqual({ ref: '/api/v1/card_t/1063' });
  });

  it('reads stubs as upstream: yes, true or 1 in any case; anything else keeps embedded objects', async () => {
    const ref = { ref: `/api/v1/skill_t/${(await cardFile(16)).skill!.id}` };
    for (const value of ['yes', 'true', '1', 'YES', 'True']) expect((await ok(`/api/v1/card/16.json?stubs=${value}`)).cards[0].skill, value).toEqual(ref);
    for (const value of ['no', 'false', '0', 'maybe', '']) expect(await ok(`/api/v1/card/16.json?stubs=${value}`), value).toEqual({ cards: [await cardFile(16)] });
  });

  it('takes the last value of a repeated parameter', async () => {
    const ref = { ref: `/api/v1/skill_t/${(await cardFile(16)).skill!.id}` };
    expect((await ok('/api/v1/card/16.json?stubs=no&stubs=yes')).cards[0].skill).toEqual(ref);
    expect((await ok('/api/v1/card/16.json?stubs=yes&stubs=no')).cards[0].skill).toEqual((await cardFile(16)).skill);
    expect((await ok('/api/v1/card/2,1.json?keys=title&keys=id')).cards).toEqual([{ id: 1006 }, { id: 1003 }]);
  });

  it('?datetime=iso8601 formats timestamps; unix keeps seconds', async () => {
    const { cards: [card] } = await ok('/api/v1/card/14.json?datetime=iso8601');
    expect(card.extra_data.release_date).toBe(new Date((await cardFile(14)).extra_data.release_date! * 1000).toISOString().replace('.000', ''));
    const list = await ok<CardListJson>('/api/v1/card_list.json?datetime=iso8601');
    expect(list.stubs[0].release_date).toBe('2019-04-15T06:00:00Z');
    // Every entry its own time (a response formats each distinct time once).
    const published = await readJson<CardListJson>(out, 'api/v1/card_list.json');
    const iso = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString().replace('.000', ''));
    expect(new Set(published.stubs.map((stub) => stub.release_date)).size).toBeGreaterThan(2);
    expect(list.stubs.map((stub) => stub.release_date)).toEqual(published.stubs.map((stub) => iso(stub.release_date as number | null)));
    expect((await ok('/api/v1/card/14.json?datetime=ISO8601')).cards[0].extra_data.release_date).toEqual(card.extra_data.release_date);
    expect((await ok('/api/v1/card/14.json?datetime=unix')).cards[0]).toEqual(await cardFile(14));
  });

  it('?keys= keeps only those keys in list entries, case-insensitive, spaces trimmed', async () => {
    const list = await ok<CardListJson>('/api/v1/card_list.json?keys=ordinal,rarity,nonexistent');
    expect(list.counts.n_count).toBeGreaterThan(0);
    expect(list.stubs[0]).toEqual({ ordinal: 1, rarity: 1 });
    expect((await ok('/api/v1/card/2,1.json?keys=id')).cards).toEqual([{ id: 1006 }, { id: 1003 }]);
    expect((await ok('/api/v1/card/2.json?keys=%20ID%20,Ordinal,,')).cards).toEqual([{ id: 1006, ordinal: 2 }]);
  });

  it('treats __proto__ as an ordinary key name', async () => {
    const response = await answered('/api/v1/card/2,1.json?keys=__proto__,id');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"cards":[{"id":1006},{"id":1003}]}');
  });

  it('never fails a request for a value it does not know: the default applies', async () => {
    expect(await ok('/api/v1/card_list.json?datetime=rfc')).toEqual(await readJson(out, 'api/v1/card_list.json'));
  });

  it('is a 404 on a static path that does not exist', async () => {
    await fails('/api/v1/nothing.json?keys=id', 404, /not found: \/api\/v1\/nothing.json/);
  });
});

describe('/api/v1/happening/<time>', () => {
  const at = (iso: string) => ok<HappeningJson>(`/api/v1/happening/${Date.parse(iso) / 1000}`);
  const ids = (h: HappeningJson) => [h.events.map((e) => e.id), h.gachas.map((g) => g.id)];

  it('answers the events and gachas active at an instant, across the years of the sample', async () => {
    expect(ids(await at('2019-04-25T00:00:00Z'))).toEqual([[1], ['opening-scout']]);
    expect(ids(await at('2019-08-12T00:00:00Z'))).toEqual([[2], ['summer-scout']]);
    expect(ids(await at('2021-06-10T00:00:00Z'))).toEqual([[5], ['parade-scout']]);
    expect(ids(await at('2023-03-05T00:00:00Z'))).toEqual([[7], []]);
    expect(ids(await at('2024-12-01T00:00:00Z'))).toEqual([[8], ['thanks-scout']]);
  });

  it('answers nothing between and outside them', async () => {
    expect(await at('2019-06-01T00:00:00Z')).toEqual({ events: [], gachas: [] });
    expect(await at('2018-01-01T00:00:00Z')).toEqual({ events: [], gachas: [] });
    expect(await at('2030-01-01T00:00:00Z')).toEqual({ events: [], gachas: [] });
  });

  it('counts the start instant in and the end instant out', async () => {
    const first = (await readJson<HappeningJson>(out, 'api/v1/happening.json')).events.at(-1)!;
    expect(ids(await ok(`/api/v1/happening/${first.start_date}`))[0]).toEqual([1]);
    expect(ids(await ok(`/api/v1/happening/${first.end_date - 1}`))[0]).toEqual([1]);
    expect(ids(await ok(`/api/v1/happening/${first.end_date}`))[0]).toEqual([]);
  });

  it('keeps an event until its result_end_date with ?extended_time_period_for_events=yes', async () => {
    const first = (await readJson<HappeningJson>(out, 'api/v1/happening.json')).events.at(-1)!;
    const between = first.end_date + 60;
    expect(first.result_end_date).toBeGreaterThan(between);
    expect(ids(await ok(`/api/v1/happening/${between}`))[0]).toEqual([]);
    expect(ids(await ok(`/api/v1/happening/${between}?extended_time_period_for_events=yes`))[0]).toEqual([1]);
    expect(ids(await ok(`/api/v1/happening/${first.result_end_date}?extended_time_period_for_events=yes`))[0]).toEqual([]);
  });

  it('answers events in starlight\'s shape', async () => {
    const { events: [event] } = await ok<HappeningJson>('/api/v1/happening/now');
    expect(Object.keys(event)).toEqual(['id', 'name', 'name_en', 'type', 'start_date', 'end_date', 'result_end_date']);
  });

  it('answers now from the clock, never cached', async () => {
    const response = await answered('/api/v1/happening/now');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(ids(await response.json())).toEqual([[1], ['opening-scout']]);
  });

  it('takes ?datetime=iso8601 and ?keys=', async () => {
    const body = await ok('/api/v1/happening/now?datetime=iso8601&keys=id,start_date');
    expect(body.events).toEqual([{ id: 1, start_date: '2019-04-20T07:00:00Z' }]);
  });

  it('is a 400 for a malformed time', async () => {
    for (const time of ['soon', '-5', '1.5', '12abc', '123456789012', 'now.json']) {
      await fails(`/api/v1/happening/${time}`, 400, /malformed time/);
    }
  });
});

describe('POST /api/v1/read_tl', () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    ({ method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

  it('answers {original: translation} for the strings that have one', async () => {
    const strings = ['はじまりの朝', 'unknown text', 'パンダ先生', 'はじまりの朝', '__proto__'];
    expect(await ok('/api/v1/read_tl', post(JSON.stringify(strings)))).toEqual({ 'はじまりの朝': 'First Morning', 'パンダ先生': 'Panda Sensei' });
    expect(await ok('/api/v1/read_tl', post('[]'))).toEqual({});
  });

  it('takes up to 1,000 strings and refuses more with a 400', async () => {
    const strings = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `s${i}`));
    expect(await ok('/api/v1/read_tl', post(strings(1000)))).toEqual({});
    await fails('/api/v1/read_tl', 400, /too many strings: 1001 \(at most 1000\)/, post(strings(1001)));
  });

  it('takes a body of 1 MiB and refuses more with a 413, declared or streamed', async () => {
    const ofSize = (bytes: number) => JSON.stringify(['x'.repeat(bytes - 4)]);
    expect(await ok('/api/v1/read_tl', post(ofSize(1024 * 1024)))).toEqual({});
    await fails('/api/v1/read_tl', 413, /larger than 1048576 bytes/, post(ofSize(1024 * 1024 + 1)));
    const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => void (sent++ < 100 ? c.enqueue(chunk) : c.close()) });
    await fails('/api/v1/read_tl', 413, /larger than/, { method: 'POST', body: endless, duplex: 'half' } as RequestInit);
    expect(sent).toBeLessThan(100);
  });

  it('is a 400 for a body that is not a JSON array of strings', async () => {
    await fails('/api/v1/read_tl', 400, /not JSON/, post('["a",'));
    await fails('/api/v1/read_tl', 400, /not JSON/, post(new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d])));
    await fails('/api/v1/read_tl', 400, /not JSON/, { method: 'POST' });
    await fails('/api/v1/read_tl', 400, /array of strings/, post('{"a": "b"}'));
    await fails('/api/v1/read_tl', 400, /array of strings/, post('["a", 1]'));
  });

  it('refuses a nested or crowded body before parsing it: a megabyte of [ costs no parse', async () => {
    const nested = /must be a JSON array of strings, with no array or object inside it/;
    for (const body of ['['.repeat(1024 * 1024), `${'['.repeat(512 * 1024)}${']'.repeat(512 * 1024)}`, '["a", ["b"]]', '[{}]']) {
      const started = performance.now();
      await fails('/api/v1/read_tl', 400, nested, post(body));
      // A parse of the first two took 0.5 s of CPU; one pass over the bytes, a few milliseconds.
      expect(performance.now() - started, body.slice(0, 12)).toBeLessThan(150);
    }
    const crowded = `[${'"",'.repeat(300_000)}""]`;
    await fails('/api/v1/read_tl', 400, /too many strings: 300001 \(at most 1000\)/, post(crowded));
    // Brackets and quotes inside strings are text, escaped quotes too.
    expect(await ok('/api/v1/read_tl', post(JSON.stringify(['[[{', 'a "quoted" [x]', '\\'])))).toEqual({});
  });

  it('is a 405 for other methods, naming the allowed ones', async () => {
    const response = await fails('/api/v1/read_tl', 405, /method GET is not allowed/);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('answers the CORS preflight', async () => {
    const response = await answered('/api/v1/read_tl', {
      method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type');
  });
});

describe('methods and unknown paths', () => {
  it('is a 405 for writes to read-only routes', async () => {
    for (const path of ['/api/v1/card/1.json', '/api/v1/card/1,2.json', '/api/v1/info']) {
      const response = await fails(path, 405, /method (POST|DELETE) is not allowed/, { method: path.includes(',') ? 'DELETE' : 'POST' });
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('leaves paths outside /api/ and plain static /api/ files to the host', async () => {
    for (const path of ['/', '/index.html', '/images/card/icon/1003.png', '/api/v1/info', '/api/v1/nothing']) {
      expect(await call(path), path).toBeNull();
    }
  });
});

describe('docs/edge.md', () => {
  it('gives the pack size the code uses', () => {
    const doc = fs.readFileSync(new URL('../../docs/edge.md', import.meta.url), 'utf8');
    expect(doc).toContain(`pack of its block of ${PACK_SIZE} ids`);
    expect(doc).toContain(`\`block = floor(id / ${PACK_SIZE})\``);
    expect(doc).toContain(`in blocks of ${KEY_PACK_SIZE.toLocaleString('en')} unit ids (\`KEY_PACK_SIZE\``);
  });
});

describe('damaged published files are never served as answers', () => {
  /** The sample as the edge reads it, but the files `swap` gives other bytes for (null: absent). */
  const damaged = (swap: Record<string, () => Promise<Uint8Array<ArrayBuffer> | null>>): EdgeSite => {
    const readBytes = diskBytesReader(out);
    return { read: diskReader(out), readBytes: (path) => (Object.hasOwn(swap, path) ? swap[path]() : readBytes(path)) };
  };
  const ask = (path: string, on: EdgeSite) => handleRequest(new Request(`https://sif.test${path}`), on).then((response) => response!);
  const bytesOf = (rel: string) => fs.promises.readFile(path.join(out, rel)).then((bytes) => new Uint8Array(bytes));
  const partsOf = async (name: string) => (await readJson<BulkIndexJson>(out, 'api/v1/bulk/index.json')).files.find((f) => f.name === name)!.parts!.map((p) => p.path.slice(1));
  const refusedAs502 = async (response: Response) => {
    expect([response.status, await response.json()]).toEqual([502, { error: 'a published file this answer is made from is damaged; the site must be built and deployed again' }]);
  };

  it('a bulk file whose first part is missing, of another size or other bytes of the same size is a JSON 502, before any byte', async () => {
    const [first] = await partsOf('cards.jsonl');
    const bytes = await bytesOf(first);
    const other = bytes.slice();
    other[10] ^= 1;
    for (const swap of [async () => null, async () => bytes.subarray(1), async () => other]) {
      await refusedAs502(await ask('/api/v1/bulk/cards.jsonl', damaged({ [first]: swap })));
    }
  });

  it('a later part missing, or swapped for another of the same size, aborts the stream: never a short or wrong file under the file\'s ETag', async () => {
    const parts = await partsOf('sif.sqlite');
    expect(parts.length).toBeGreaterThan(2);
    for (const swap of [{ [parts[1]]: async () => null }, { [parts[1]]: () => bytesOf(parts[2]) }]) {
      const response = await ask('/api/v1/bulk/sif.sqlite', damaged(swap));
      expect(response.status).toBe(200); // sent with the first part, which is whole
      await expect(response.arrayBuffer()).rejects.toThrow();
    }
  });

  it('a bulk index whose parts do not add up to the file is a JSON 502', async () => {
    const index = await readJson<BulkIndexJson>(out, 'api/v1/bulk/index.json');
    const shortened = { ...index, files: index.files.map((f) => ({ ...f, parts: f.parts!.slice(0, -1) })) };
    const site = damaged({});
    const text = JSON.stringify(shortened);
    await refusedAs502(await ask('/api/v1/bulk/sif.sqlite', { ...site, read: async (p) => (p === 'api/v1/bulk/index.json' ? text : site.read(p)) }));
  });

  it('a pack whose objects or offsets are broken is a JSON 502, never invalid JSON with a 200', async () => {
    const ids = (await readJson<ObjectListJson>(out, 'api/v1/list/char_t.json')).result.map((entry) => entry.id).slice(0, 12);
    const packs = [...new Set(ids.map(packOf))];
    expect(ids.length).toBeGreaterThan(8); // read from packs
    const pack = objectEndpoint.char_t.pack.file(packs[0]);
    const bytes = await bytesOf(pack);
    const text = new TextDecoder().decode(bytes);
    const edited = (from: string, to: string) => async () => new TextEncoder().encode(text.replace(from, to));
    const brokenObject = edited('"id":', '"id"!'); // the same length: every offset still points where it did
    const lostOffsets = async () => bytes.subarray(0, bytes.length - 20);
    const shiftedOffsets = edited('{"objects":{', '{"objects": {');
    for (const swap of [brokenObject, lostOffsets, shiftedOffsets]) {
      await refusedAs502(await ask(`/api/v1/char_t/${ids.join(',')}`, damaged({ [pack]: swap })));
    }
    const whole = await ask(`/api/v1/char_t/${ids.join(',')}`, damaged({}));
    expect((await whole.json()).result.map((character: { id: number } | null) => character?.id)).toEqual(ids);
  });

  it('a published JSON file that does not parse is a JSON 502 too', async () => {
    const site = damaged({});
    await refusedAs502(await ask('/api/v1/card/1,2,3.json?stubs=yes', { ...site, read: async (p) => (p === 'api/v1/card/1.json' ? '{"cards":[' : site.read(p)) }));
  });

  it('a single-object file read for a list that parses but holds no one object is a JSON 502', async () => {
    const site = damaged({});
    for (const text of ['{"cards":[]}', '{"cards":[{},{}]}', '{"accessories":[{}]}', '[]']) {
      await refusedAs502(await ask('/api/v1/card/1,2,3.json', { ...site, read: async (p) => (p === 'api/v1/card/2.json' ? text : site.read(p)) }));
    }
  });
});

describe('paths that leave the site', () => {
  it('refuses dot segments, //, backslashes and NUL, however often percent-encoded', () => {
    const refused = [
      '/api/../etc/passwd', '/api/v1/%2e%2e/%2e%2e/etc/passwd', '/api/v1/card/..%2f..%2fsecret.json', '/api/v1/%252e%252e/x',
      '//etc/passwd', '/api/v1/card/%2Fetc%2Fpasswd.json', '/api/v1/..%5c..%5csecret', '/api\\..\\secret', '/api/v1/card/1%00.json',
      '/api/v1/%25252e%25252e/x', 'etc/passwd',
    ];
    for (const path of refused) expect(() => checkSitePath(path), path).toThrow(/not allowed/);
    expect(() => checkSitePath('/api/v1/%E0%A4%A.json')).toThrow(/malformed percent-encoding/);
    for (const path of ['/', '/api/v1/card/1,2.json', '/api/v1/list/card_t', '/images/a%20b.png']) expect(() => checkSitePath(path)).not.toThrow();
  });

  it('answers a 400 for such paths that survive URL parsing', async () => {
    for (const path of ['/api/v1/card/..%2f..%2fsecret.json', '/api/v1/%252e%252e/x', '/api/v1/..%5csecret', '/api/v1/card/1%00.json']) {
      await fails(path, 400, /not allowed/);
    }
  });
});

describe('files the handler reads', () => {
  it('are plain static paths the handler passes through, so reads over HTTP never recurse', async () => {
    // Every kind of read, made here too so the test holds when it runs alone (the other tests add theirs).
    for (const path of ['/api/v1/card/2,1.json', '/api/v1/accessory/4,1.json', '/api/v1/card_t/1006,1', '/api/v1/card/random.json',
      '/api/v1/happening/now', '/api/v1/list/char_t?keys=id', '/api/v1/info?keys=truth_version']) await call(path);
    await call('/api/v1/read_tl', { method: 'POST', body: '["はじまりの朝"]' });
    expect(reads.size).toBeGreaterThan(10);
    for (const path of reads) expect(await call(`/${path}`), path).toBeNull();
  });
});
