/**
 * The edge's reads of one request run at once, not one after another: on a host whose every read
 * takes a round trip (Netlify reads its own files over HTTP), a 1,000-id list is answered in one or
 * two rounds of reads. The site reader here holds every read until the request has asked for all it
 * can without an answer, then answers them together: one round. No clock is involved.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSample, readJson } from '../helpers.ts';
import { handleRequest, type EdgeSite } from '../../generator/runtime/edge/handler.ts';
import { diskBytesReader, diskReader } from '../../generator/hosts/node/runtime/diskSite.ts';
import { edgeKept } from '../../generator/runtime/edge/kept.ts';
import { PACK_SIZE } from '../../generator/contract/format.ts';
import { endpoints } from '../../generator/contract/endpoints.ts';
import { MAX_IDS, MAX_READS, MAX_VERSION_IDS } from '../../generator/contract/limits.ts';
import type { BulkIndexJson, CardListJson, ObjectListJson, VersionsJson } from '../../generator/contract/schemas.ts';
import { planReads, readBudget } from '../../generator/runtime/edge/siteReader.ts';

let out: string;

beforeAll(async () => {
  ({ out } = await buildSample());
});

/**
 * Lets the requests run until they finish or wait on held reads only: callbacks, I/O and work of
 * the engine's own (the digest of an ETag) that is not a read.
 */
async function settle(idle: () => boolean): Promise<void> {
  for (let turns = 0; turns < 10_000; turns++) {
    await new Promise((done) => setImmediate(done));
    if (turns >= 5 && idle()) return;
  }
  throw new Error('the request neither finished nor read');
}

interface Rounds {
  status: number;
  body: unknown;
  /** The paths read, per round. */
  rounds: string[][];
}

/**
 * `path` asked of the handler on the sample site, its reads held and answered a round at a time.
 * `immutable`: as a Worker or Netlify function reads (packs and parses kept, reads shared between
 * requests). `alongside`: paths asked at the same time of the same instance (their reads counted too).
 */
async function inRounds(path: string, immutable = true, alongside: string[] = []): Promise<Rounds> {
  const [read, readBytes] = [diskReader(out), diskBytesReader(out)];
  let held: { path: string; answer: () => Promise<void> }[] = [];
  const hold = <T>(file: string, reader: (file: string) => Promise<T>) => new Promise<T>((resolve, reject) => {
    held.push({ path: file, answer: () => reader(file).then(resolve, reject) });
  });
  const kept = edgeKept();
  // A Worker makes a site object per request around its instance's kept; npm start one per request.
  const site = (): EdgeSite => ({ read: (file) => hold(file, read), readBytes: (file) => hold(file, readBytes), immutable, kept, random: () => 0.5 });
  let finished = false;
  const answers = Promise.all([path, ...alongside].map(async (asked) => {
    const response = (await handleRequest(new Request(`https://sif.test${asked}`), site()))!;
    return { status: response.status, body: await response.json() };
  })).finally(() => (finished = true));
  const rounds: string[][] = [];
  for (;;) {
    await settle(() => finished || held.length > 0);
    if (finished) break;
    const round = held;
    held = [];
    rounds.push(round.map((r) => r.path));
    await Promise.all(round.map((r) => r.answer()));
  }
  return { ...(await answers)[0], rounds };
}

/** Ids that fall in `count` blocks of packs, one each (most of them blocks no pack is published for), after `known`. */
const spread = (known: number[], count: number) => [...known, ...Array.from({ length: count - known.length }, (_, i) => (i + 1) * PACK_SIZE * 3 + 1)];

describe('the reads of one request run at once', () => {
  let ordinals: number[];
  let cardIds: number[];
  let skillIds: number[];
  let version: string;

  beforeAll(async () => {
    ordinals = (await readJson<CardListJson>(out, 'api/v1/card_list.json')).stubs.map((stub) => stub.ordinal);
    cardIds = (await readJson<ObjectListJson>(out, 'api/v1/list/card_t.json')).result.map((entry) => entry.id);
    skillIds = (await readJson<ObjectListJson>(out, 'api/v1/list/skill_t.json')).result.map((entry) => entry.id);
    version = (await readJson<VersionsJson>(out, 'api/v1/versions.json')).versions[0].truth_version;
  });

  it('a 1,000-id card list reads each file once, in one round: the pack of a block asked for many ids, the single files of a block asked for few', async () => {
    const named = spread(ordinals, ordinals.length + 10);
    const ids = Array.from({ length: MAX_IDS }, (_, i) => named[i % named.length]);
    const { status, body, rounds } = await inRounds(`/api/v1/card/${ids.join(',')}.json`);
    expect(status).toBe(200);
    expect((body as { cards: { ordinal: number }[] }).cards.map((card) => card.ordinal)).toEqual(ids.filter((id) => ordinals.includes(id)));
    expect(rounds.length).toBe(1);
    expect(rounds[0].sort()).toEqual([endpoints.cardPack.file(0), ...named.slice(ordinals.length).map((id) => endpoints.card.file(id))].sort());
  });

  it(`single files take the place of packs, blocks of fewest ids first, while the reads stay within ${MAX_READS}`, async () => {
    // One block asked for one id and 45 for two each: 46 packs, or the first and 4 more as 9 single files (50 reads).
    const blocks = Array.from({ length: 45 }, (_, i) => (i + 1) * 3);
    const ids = blocks.flatMap((block) => [block * PACK_SIZE + 1, block * PACK_SIZE + 2]).reverse();
    const { status, rounds } = await inRounds(`/api/v1/card/${[ordinals[0], ...ids].join(',')}.json`);
    expect(status).toBe(200);
    const singles = blocks.slice(0, 4).flatMap((block) => [block * PACK_SIZE + 1, block * PACK_SIZE + 2]);
    expect(rounds.flat().sort()).toEqual([
      endpoints.card.file(ordinals[0]), ...singles.map((id) => endpoints.card.file(id)), ...blocks.slice(4).map((block) => endpoints.cardPack.file(block)),
    ].sort());
    expect(rounds.flat().length).toBe(MAX_READS);
  });

  it(`a list whose packs are more than ${MAX_READS} files is refused before it reads any, the same cold and warm`, async () => {
    for (const immutable of [true, false]) {
      const { status, body, rounds } = await inRounds(`/api/v1/card/${spread(ordinals, ordinals.length + MAX_READS).join(',')}.json`, immutable);
      expect(status).toBe(400);
      expect((body as { error: string }).error).toMatch(/the pack of each block of 128 ids it names: these ids fall in \d+ blocks; a request reads at most 50 files of the site: ask in parts/);
      expect(rounds).toEqual([]);
    }
  });

  it(`a ${MAX_VERSION_IDS}-id card list with ?version= reads versions.json, then every history at once: two rounds`, async () => {
    const ids = spread(ordinals.slice(0, 5), MAX_VERSION_IDS);
    const { status, body, rounds } = await inRounds(`/api/v1/card/${ids.join(',')}.json?version=${encodeURIComponent(version)}`);
    expect(status).toBe(200);
    expect((body as { cards: unknown[] }).cards.length).toBe(5);
    expect(rounds.map((round) => round.length)).toEqual([1, MAX_VERSION_IDS]);
    expect(rounds[0]).toEqual(['api/v1/versions.json']);
  });

  it(`a ?version= list of more than ${MAX_VERSION_IDS} ids is refused before it reads any`, async () => {
    const { status, body, rounds } = await inRounds(`/api/v1/skill_t/${spread(skillIds.slice(0, 5), MAX_VERSION_IDS + 1).join(',')}?version=${encodeURIComponent(version)}`);
    expect(status).toBe(400);
    expect((body as { error: string }).error).toBe(`?version= lists take at most ${MAX_VERSION_IDS} distinct ids, not ${MAX_VERSION_IDS + 1} (each id's history is a read of its own, and a request reads at most ${MAX_READS} files of the site): ask in parts`);
    expect(rounds).toEqual([]);
  });

  it(`a ?version= list counts distinct ids: ${MAX_VERSION_IDS * 3} ids naming 5 are answered, each history read once`, async () => {
    const five = spread(skillIds.slice(0, 5), 5);
    const ids = Array.from({ length: MAX_VERSION_IDS * 3 }, (_, i) => five[i % five.length]);
    const { status, body, rounds } = await inRounds(`/api/v1/skill_t/${ids.join(',')}?version=${encodeURIComponent(version)}`);
    expect(status).toBe(200);
    expect((body as { result: unknown[] }).result.length).toBe(ids.length);
    expect(rounds.map((round) => round.length)).toEqual([1, 5]);
  });

  it('a generic list with ?version= (skill_t) reads its histories in one round after versions.json', async () => {
    const { status, rounds } = await inRounds(`/api/v1/skill_t/${spread(skillIds.slice(0, 5), MAX_VERSION_IDS).join(',')}?version=${encodeURIComponent(version)}`);
    expect(status).toBe(200);
    expect(rounds.length).toBe(2);
    expect(rounds[1].length).toBe(MAX_VERSION_IDS);
  });

  it(`a card_t list of many blocks, an accessory list, a search and random with a query take at most two rounds each, at most ${MAX_READS} files`, async () => {
    const paths = [
      `/api/v1/card_t/${spread(cardIds, 40).join(',')}`,
      `/api/v1/accessory/${spread([1, 2, 3], 40).join(',')}.json`,
      '/api/v1/search/card?q=rarity%3Ar&page_size=100',
      '/api/v1/card/random.json?q=rarity%3Ar',
    ];
    for (const path of paths) {
      const { status, rounds } = await inRounds(path);
      expect(status, path).toBe(200);
      expect(rounds.length, path).toBeLessThanOrEqual(2);
      expect(rounds.flat().length, path).toBeLessThanOrEqual(MAX_READS);
      for (const round of rounds) expect(new Set(round).size, path).toBe(round.length);
    }
  });

  it('two requests of one instance at once share their reads of a pack; on a site rebuilt in place, each reads its own', async () => {
    const list = (offset: number) => `/api/v1/card/${Array.from({ length: 20 }, (_, i) => ordinals[(i + offset) % ordinals.length]).join(',')}.json`;
    const packs = [...new Set(ordinals.map((o) => `api/v1/pack/card/${Math.floor(o / PACK_SIZE)}.json`))];
    for (const [immutable, reads] of [[true, 1], [false, 2]] as const) {
      const { status, rounds } = await inRounds(list(0), immutable, [list(7)]);
      expect(status).toBe(200);
      expect(rounds.flat().sort()).toEqual(packs.flatMap((pack) => Array(reads).fill(pack)));
    }
  });
});

describe('a published file asked with a query, on an immutable site', () => {
  it('is shaped once per file and shaping: asked again, its answer reads and parses nothing', async () => {
    let reads = 0;
    const kept = edgeKept();
    const site: EdgeSite = { read: async (file) => (reads++, diskReader(out)(file)), readBytes: diskBytesReader(out), immutable: true, kept };
    const ask = async (path: string) => (await handleRequest(new Request(`https://sif.test${path}`), site))!.text();
    const first = await ask('/api/v1/card_list.json?keys=id,ordinal');
    const readsBefore = reads;
    expect(await ask('/api/v1/card_list.json?keys=id,ordinal')).toBe(first);
    expect(reads).toBe(readsBefore);
    // Another shaping of the same file is its own answer, from the kept parse.
    const other = await ask('/api/v1/card_list.json?keys=rarity');
    expect(other).not.toBe(first);
    expect(JSON.parse(other).stubs[0]).toEqual({ rarity: (await readJson<CardListJson>(out, 'api/v1/card_list.json')).stubs[0].rarity });
    expect(reads).toBe(readsBefore);
    expect(JSON.parse(await ask('/api/v1/list/char_t?keys=id')).result.every((entry: object) => Object.keys(entry).join() === 'id')).toBe(true);
  });
});

describe(`a request's reads, at most ${MAX_READS}`, () => {
  const ask = async (path: string, site: EdgeSite) => {
    const response = (await handleRequest(new Request(`https://sif.test${path}`), site))!;
    return { status: response.status, error: ((await response.json()) as { error?: string }).error };
  };

  it('a read past them all the same (a file read again) is refused, never left to the platform', async () => {
    const site = readBudget({ read: async () => '{}' });
    for (let i = 0; i < MAX_READS; i++) await site.read('api/v1/info.json');
    await expect(site.read('api/v1/info.json')).rejects.toThrow(/a request reads at most 50 files of the site: ask in parts/);
  });

  it('a file planned twice counts once, and a plan past them is refused before it is read', () => {
    const site = readBudget({ read: async () => null });
    planReads(site, ['a', 'a', 'b'], 'what');
    planReads(site, Array.from({ length: MAX_READS - 2 }, (_, i) => `${i}`), 'what');
    expect(() => planReads(site, ['c'], 'these')).toThrow(/^these; a request reads at most 50 files of the site: ask in parts$/);
  });

  it('a bulk file of more parts than a request may read is a 400 that says to fetch its parts', async () => {
    const index = await readJson<BulkIndexJson>(out, 'api/v1/bulk/index.json');
    const parts = Array.from({ length: MAX_READS }, (_, i) => ({ path: `/api/v1/bulk/parts/cards.jsonl/${i}.part`, bytes: 1, sha256: '0'.repeat(64) }));
    const many = JSON.stringify({ ...index, files: index.files.map((f) => (f.name === 'cards.jsonl' ? { ...f, bytes: parts.length, parts } : f)) });
    const read = diskReader(out);
    const asked = await ask('/api/v1/bulk/cards.jsonl', { read: async (p) => (p === 'api/v1/bulk/index.json' ? many : read(p)) });
    expect(asked).toEqual({ status: 400, error: `bulk/cards.jsonl joins ${MAX_READS} parts, a read each (bulk/index.json lists them, to be fetched one by one); a request reads at most 50 files of the site: ask in parts` });
  });
});
