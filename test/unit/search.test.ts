/**
 * The search language on the shared sample build: one describe block per field and per
 * operator, each comparing what the edge answers with the published objects filtered
 * directly in the test (from their own files, not the search index); the edge's errors;
 * the route's paging, order and shaping; and property tests that the edge and the module
 * the page runs (the site's own copy) agree, and that a query and its negation split the
 * objects in two.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fs from 'fs-extra';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { handleRequest, type EdgeSite } from '../../generator/runtime/edge/handler.ts';
import { diskReader } from '../../generator/hosts/node/runtime/diskSite.ts';
import { edgeKept } from '../../generator/runtime/edge/kept.ts';
import { EXAMPLES, exampleUrl } from '../../generator/web/search/examples.js';
import { CENTERS, DIFFICULTIES, EFFECTS, SCHOOL_YEARS, TRIGGERS } from '../../generator/web/search/words.js';
import { absentFields, kindOf, MAX_CORRECTED, MAX_LEFT_OUT_TERMS, search } from '../../generator/web/search/query.js';
import { lexiconOf } from '../../generator/web/search/bare.js';
import type { SearchIndex } from '../../generator/web/search/kinds.js';
import type { AccessoryJson, CardJson, CharacterJson, EventJson, LiveJson, RegionsJson, SetListJson, SongJson } from '../../generator/contract/schemas.ts';
import { objectEndpoint } from '../../generator/contract/endpoints.ts';
import { packOf } from '../../generator/contract/format.ts';
import { attachRegions } from '../../generator/build/model/regions.ts';
import { renderSite } from '../../generator/build/render/renderSite.ts';
import { renderContext } from '../../generator/build/render/context.ts';
import { checkedContext } from '../../generator/build/render/checked.ts';
import { MemoryFiles } from '../../generator/build/siteFiles.ts';
import { deriveSearch } from '../../generator/build/derive/search.ts';
import { buildSample, copySample, modelAt, packedObject, readJson, renderInMemory, SAMPLE_INPUT } from '../helpers.ts';
import { editDump } from '../exportEdits.ts';

fc.configureGlobal({ seed: 20261123 });

let out: string;
let site: EdgeSite;
let cards: CardJson[];
let accessories: AccessoryJson[];
let events: EventJson[];
let characters: Map<number, CharacterJson>;
let setNames: Map<string, string>;
/** The search module as the page loads it: the site's own copy. */
let pageModule: typeof import('../../generator/web/search/query.js');

beforeAll(async () => {
  ({ out } = await buildSample());
  // As the Worker and the Netlify function read a deploy: immutable, its parses kept between requests (npm start's reading
  // anew each time is the route suite's to compare).
  site = { read: diskReader(out), random: () => 0.25, immutable: true, kept: edgeKept() };
  const stubs = (await readJson(out, 'api/v1/card_list.json')).stubs as { ordinal: number }[];
  cards = await Promise.all(stubs.map(async (s) => (await readJson(out, `api/v1/card/${s.ordinal}.json`)).cards[0]));
  const accessoryIds = (await readJson(out, 'api/v1/accessory_list.json')).accessories as { id: number }[];
  accessories = await Promise.all(accessoryIds.map(async (a) => (await readJson(out, `api/v1/accessory/${a.id}.json`)).accessories[0]));
  const eventIds = (await readJson(out, 'api/v1/list/event_t.json')).result as { id: number }[];
  events = await Promise.all(eventIds.map((e) => packedObject(out, 'event_t', e.id)));
  const characterIds = (await readJson(out, 'api/v1/list/char_t.json')).result as { id: number }[];
  characters = new Map(await Promise.all(characterIds.map(async (c) => [c.id, await packedObject(out, 'char_t', c.id)] as const)));
  setNames = new Map((await readJson<SetListJson>(out, 'api/v1/card/set_list.json')).sets.map((s) => [s.id, s.display_name]));
  pageModule = await import(pathToFileURL(path.join(out, 'search/query.js')).href);
});

async function get(url: string): Promise<{ status: number; body: any; headers: Headers }> {
  const response = (await handleRequest(new Request(`https://sif.test${url}`), site))!;
  return { status: response.status, body: await response.json(), headers: response.headers };
}

type Kind = 'card' | 'accessory' | 'event' | 'song';
const identity = (kind: Kind, object: any): number => (kind === 'card' ? object.ordinal : object.id);

/** Every match of a query through the edge, following `next` links, as ordinals (cards) or ids. */
async function found(q: string, kind: Kind = 'card', params: Record<string, string> = {}): Promise<number[]> {
  let url: string | null = `/api/v1/search/${kind}?${new URLSearchParams({ q, page_size: '7', ...params })}`;
  const ids: number[] = [];
  while (url) {
    const { status, body } = await get(url);
    expect(status, `${url}: ${body.error}`).toBe(200);
    ids.push(...body.result.map((o: any) => identity(kind, o)));
    url = body.next === null ? null : new URL(body.next, `https://sif.test${url}`).pathname + new URL(body.next, 'https://sif.test/api/v1/search/').search;
  }
  return ids;
}

/** The query's matches equal the published objects `test` keeps (at least one, and not every one). */
async function expectMatches(q: string, test: (o: any) => boolean, kind: Exclude<Kind, 'song'> = 'card') {
  const all = { card: cards, accessory: accessories, event: events }[kind] as any[];
  const expected = all.filter(test).map((o) => identity(kind, o));
  expect(expected.length, `${q}: the sample has objects that match`).toBeGreaterThan(0);
  expect(expected.length, `${q}: the sample has objects that do not match`).toBeLessThan(all.length);
  expect(await found(q, kind)).toEqual(expected);
}

const last = (values: number[]) => values[values.length - 1];
const has = (text: string | null | undefined, part: string) => !!text && text.normalize('NFKC').toLowerCase().includes(part);
const codesOf = (table: { code: number; words: string[] }[], word: string) => table.filter((e) => e.words.includes(word)).map((e) => e.code);

async function expectError(url: string, pattern: RegExp) {
  const { status, body } = await get(url);
  expect(status, url).toBe(400);
  expect(body.error).toMatch(pattern);
}

describe('bare words that mean a field', () => {
  const year = (c: CardJson) => (c.extra_data.release_date === null ? null : new Date(c.extra_data.release_date * 1000).getUTCFullYear());
  const words = (text: string | null | undefined): string[] => (text ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  it('a rarity, an attribute and a given or family name: "<given> ur smile" is char:<given> rarity:ur attr:smile', async () => {
    const ur = cards.find((c) => c.rarity === 4 && c.attribute === 1)!;
    const [family, given] = words(ur.char_name) as [string, string];
    const expected = await found(`char:${given} rarity:ur attr:smile`);
    expect(expected.length).toBeGreaterThan(0);
    expect(await found(`${given} UR Smile`)).toEqual(expected);
    expect(await found(`${family} ur smile`)).toEqual(expected);
    await expectMatches(family, (c) => words(c.char_name).includes(family));
  });
  it('a year is the release year, and filler words are skipped: "all SSR from <year>"', async () => {
    const ssr = cards.find((c) => c.rarity === 5 && year(c) !== null)!;
    await expectMatches(`all SSR from ${year(ssr)}`, (c) => c.rarity === 5 && year(c) === year(ssr));
    expect(await found(`all SSRs from ${year(ssr)}`)).toEqual(await found(`rarity:ssr released:${year(ssr)}`));
    expect(await found('all cards')).toEqual(cards.map((c) => c.ordinal));
  });
  it('an attribute word means the attribute, even where a title says it; quoted, it is text', async () => {
    expect(cards.some((c) => c.attribute !== 1 && words(c.title_en).includes('smile')), 'a title says smile on a card of another attribute').toBe(true);
    await expectMatches('smile', (c) => c.attribute === 1);
    await expectMatches('"smile"', (c) => [c.char_name, c.title, c.title_en].some((t) => words(t).includes('smile')));
  });
  it('a group or sub-unit name means its field', async () => {
    const character = [...characters.values()].find((c) => c.tags.some((t) => t.display && t.id > 3))!;
    const group = character.tags.find((t) => t.display && t.id > 3 && t.name_en)!.name_en!.toLowerCase();
    expect(await found(`${group} sr`)).toEqual(await found(`group:${group} rarity:sr`));
    expect((await found(group)).length).toBeGreaterThan(0);
  });
  it('a character\'s original name, or a part of it, means the character', async () => {
    const family = [...cards[0].original_char_name].slice(0, 2).join('');
    await expectMatches(family, (c) => c.original_char_name.includes(family) || (c.title ?? '').includes(family));
  });
  it('other words match whole words of names and titles, not letters inside a word', async () => {
    const whole = cards.flatMap((c) => words(c.title_en)).find((w) => w.length >= 4 && cards.some((c) => (c.title_en ?? '').toLowerCase().match(new RegExp(`${w}\\p{L}`, 'u'))))!;
    expect(whole, 'a title word that is also the start of a longer word').toBeTruthy();
    await expectMatches(whole, (c) => words(c.title_en).includes(whole) || words(c.title).includes(whole) || words(c.char_name).includes(whole));
    await expectMatches(`title:${whole}`, (c) => has(c.title_en, whole) || has(c.title, whole));
  });
  it('a field value takes the bare words after it while it names something: unit:guilty kiss', async () => {
    const index = structuredClone(await readJson(out, 'api/v1/search_index/card.json'));
    const units = index.dictionaries.unit_names as string[][];
    const at = units.findIndex((names) => names.length > 0);
    units[at] = ['guilty kiss'];
    const ordinals = (q: string) => pageModule.search(index, { q, order: 'ordinal', dir: 'asc', seed: null }).map((row: number) => index.columns.ordinal[row]);
    const expected = index.columns.ordinal.filter((_: number, row: number) => index.columns.unit_names[row] === at);
    expect(expected.length).toBeGreaterThan(0);
    expect(ordinals('unit:guilty kiss')).toEqual(expected);
    expect(ordinals('unit:"guilty kiss"')).toEqual(expected);
    expect(ordinals('guilty kiss')).toEqual(expected);
    expect(ordinals('unit:guilty kiss ur')).toEqual(expected.filter((o: number) => cards.find((c) => c.ordinal === o)!.rarity === 4));
    expect(ordinals('-unit:guilty kiss')).toEqual(index.columns.ordinal.filter((o: number) => !expected.includes(o)));
  });
  it('romanized names find a character whose export has only its Japanese name (the table of main characters)', async () => {
    const index = structuredClone(await readJson(out, 'api/v1/search_index/card.json'));
    const japanese = [['高坂穂乃果'], ['高坂雪穂'], ['西木野真姫']];
    index.dictionaries.char = (index.dictionaries.char as string[][]).map((_, i) => japanese[i % 3]);
    const ordinals = (q: string) => pageModule.search(index, { q, order: 'ordinal', dir: 'asc', seed: null }).map((row: number) => index.columns.ordinal[row]);
    const having = (names: string[]) => index.columns.ordinal.filter((_: number, row: number) => names.includes(index.dictionaries.char[index.columns.char[row]][0]));
    expect(ordinals('honoka')).toEqual(having(['高坂穂乃果']));
    expect(ordinals('kousaka honoka')).toEqual(having(['高坂穂乃果']));
    expect(ordinals('kousaka')).toEqual(having(['高坂穂乃果', '高坂雪穂'])); // a family name stands for the whole family
    expect(ordinals('kosaka')).toEqual(ordinals('kousaka')); // another spelling of it
    expect(ordinals('maki ur')).toEqual(ordinals('char:西木野真姫 rarity:ur'));
    expect(pageModule.suggest(index, 'honok')).toBe('honoka');
  });
  it('a query that finds nothing answers with a suggestion that finds something; one that finds something with null', async () => {
    const given = cards.map((c) => words(c.char_name)[1]).find((w) => w.length >= 5)!;
    const partial = given.slice(0, -1);
    const missing = await get(`/api/v1/search/card?q=${encodeURIComponent(partial)}`);
    expect(missing.body).toMatchObject({ total: 0, suggestion: given });
    const rarities = new Set(cards.filter((c) => words(c.char_name).includes(given)).map((c) => c.rarity));
    const absent = ['ur', 'ssr', 'sr', 'r', 'n'].find((r) => !rarities.has({ n: 1, r: 2, sr: 3, ur: 4, ssr: 5 }[r]!))!;
    const dropped = await get(`/api/v1/search/card?q=${encodeURIComponent(`${given} rarity:${absent}`)}`);
    expect(dropped.body).toMatchObject({ total: 0, suggestion: given });
    expect((await get(`/api/v1/search/card?q=${given}`)).body.suggestion).toBeNull();
    expect((await get('/api/v1/search/card?q=zzzzzzzzzz')).body).toMatchObject({ total: 0, suggestion: null });
    const ordinal = cards.at(-1)!.ordinal;
    expect((await get(`/api/v1/search/card?q=${ordinal}`)).body).toMatchObject({ total: 0, suggestion: `#${ordinal}` });
  });
});

/**
 * The words fans type, on the sample as a Japanese export (no English client) whose groups are
 * named μ's and Aqours, with a UR perfect lock, a card titled "Little Helper" and one titled
 * "Perfect Day", and a μ's song called Snow halation: rendered in memory, searched through the
 * edge; what each query must find is computed from the rendered objects.
 */
describe('fan words: skills, school years, songs by group and difficulty, and their suggestions', () => {
  let fanEdge: EdgeSite;
  let fanCards: CardJson[];
  let charts: (LiveJson & { groups: string[] })[];
  let cardIndex: any;
  const words = (text: string | null | undefined): string[] => (text ?? '').normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const skillOf = (c: CardJson) => c.skill?.effect_type;

  beforeAll(async () => {
    const input = await copySample();
    await fs.rm(path.join(input, 'en'), { recursive: true });
    const healer = 'SELECT MIN(u.unit_number) FROM unit_m u JOIN unit_skill_m s ON s.unit_skill_id = u.default_unit_skill_id WHERE s.skill_effect_type = 9';
    await editDump(input, 'unit.sql', `
      UPDATE member_tag_m SET name = 'μ''s', name_en = 'μ''s' WHERE member_tag_id = 4;
      UPDATE member_tag_m SET name = 'Aqours', name_en = 'Aqours' WHERE member_tag_id = 5;
      UPDATE unit_m SET default_unit_skill_id = (SELECT MIN(unit_skill_id) FROM unit_skill_m WHERE skill_effect_type IN (4, 5))
        WHERE unit_number = (SELECT MIN(unit_number) FROM unit_m WHERE rarity = 4 AND default_unit_skill_id IS NOT NULL);
      UPDATE unit_m SET eponym = 'お手伝いさん', eponym_en = 'Little Helper' WHERE unit_number = (SELECT MAX(unit_number) FROM unit_m WHERE rarity = 3 AND eponym IS NOT NULL);
      UPDATE unit_m SET eponym = 'パーフェクト・デイ', eponym_en = 'Perfect Day' WHERE unit_number = (${healer});`);
    await editDump(input, 'live.sql', `UPDATE live_track_m SET name = 'Snow halation', name_en = 'Snow halation'
      WHERE live_track_id = (SELECT MIN(live_track_id) FROM live_setting_m WHERE difficulty = 6 AND live_track_id IN (SELECT live_track_id FROM live_track_m WHERE member_category = 1));`);
    const { files, json, object } = await renderInMemory(input);
    fanEdge = { read: async (rel) => files.get(rel)?.toString('utf8') ?? null };
    fanCards = json<{ stubs: { ordinal: number }[] }>('api/v1/card_list.json').stubs.map((stub) => json(`api/v1/card/${stub.ordinal}.json`).cards[0]);
    charts = json<{ result: { id: number }[] }>('api/v1/list/live_t.json').result.map(({ id }) => {
      const chart = object<LiveJson>('live_t', id)!;
      const song = object<SongJson>('song_t', chart.song_id)!;
      return { ...chart, groups: [song.group_name, song.group_name_en].flatMap(words) };
    });
    cardIndex = json('api/v1/search_index/card.json');
  });

  /** Every match of `q` through the edge, as ordinals (cards) or chart ids, and the suggestion when there is none. */
  const answer = async (q: string, kind: 'card' | 'song' = 'card') => {
    const response = (await handleRequest(new Request(`https://sif.test/api/v1/search/${kind}?${new URLSearchParams({ q, page_size: '100' })}`), fanEdge))!;
    const body = await response.json();
    expect(response.status, `${q}: ${body.error}`).toBe(200);
    expect(body.total).toBeLessThanOrEqual(100);
    return { found: body.result.map((o: any) => (kind === 'card' ? o.ordinal : o.id)) as number[], suggestion: body.suggestion as string | null };
  };
  const matches = async (q: string, kind: 'card' | 'song' = 'card') => (await answer(q, kind)).found;
  /** The cards `test` keeps, at least one and not all. */
  const ordinals = (test: (c: CardJson) => boolean) => {
    const kept = fanCards.filter(test).map((c) => c.ordinal);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(fanCards.length);
    return kept;
  };
  const chartIds = (test: (c: LiveJson & { groups: string[] }) => boolean) => {
    const kept = charts.filter(test).map((c) => c.id).sort((a, b) => a - b);
    expect(kept.length).toBeGreaterThan(0);
    return kept;
  };
  const byPage = (index: any, q: string) => pageModule.search(index, { q, order: index.kind === 'card' ? 'ordinal' : 'id', dir: 'asc', seed: null })
    .map((row: number) => index.columns[index.kind === 'card' ? 'ordinal' : 'id'][row] as number);
  const titled = (word: string) => fanCards.find((c) => words(c.title_en).includes(word))!;

  it('skill words: healer, perfect lock ur and score up mean skill:<word>; a phrase is one term before its words mean anything alone', async () => {
    expect(await matches('healer')).toEqual(ordinals((c) => codesOf(EFFECTS, 'healer').includes(skillOf(c)!)));
    expect(await matches('perfect lock ur')).toEqual(ordinals((c) => codesOf(EFFECTS, 'perfect lock').includes(skillOf(c)!) && c.rarity === 4));
    expect(await matches('score up')).toEqual(ordinals((c) => codesOf(EFFECTS, 'score up').includes(skillOf(c)!)));
    expect(await matches('PL')).toEqual(await matches('perfect lock'));
    expect(await matches('perfect-locks')).toEqual(await matches('perfect lock'));
    // "Perfect Day" is no perfect lock: "perfect" alone is a word of titles, "perfect lock" the skill.
    const day = titled('perfect');
    expect(codesOf(EFFECTS, 'perfect lock')).not.toContain(skillOf(day));
    expect(await matches('perfect lock')).not.toContain(day.ordinal);
    expect(await matches('perfect')).toEqual(ordinals((c) => words(c.title_en).includes('perfect')));
    expect(await matches('"healer"')).toEqual([]); // quoted, a word of names and titles
  });

  it('every word of the skill table, and its plural, means skill:<word> bare', () => {
    for (const word of new Set(EFFECTS.flatMap((e) => e.words))) {
      const expected = fanCards.filter((c) => codesOf(EFFECTS, word).includes(skillOf(c)!)).map((c) => c.ordinal);
      expect(byPage(cardIndex, word), word).toEqual(expected);
      expect(byPage(cardIndex, `skill:"${word}"`), word).toEqual(expected);
      if (!word.endsWith('s') && word.length > 1) expect(byPage(cardIndex, `${word}s`), `${word}s`).toEqual(expected);
    }
  });

  it('school years: first year cool ur, 1st year, first years, 2nd years, second-year, third year, year 3 mean year:1..3; "first" alone stays a word of titles', async () => {
    expect(await matches('first year cool ur')).toEqual(ordinals((c) => c.year === 1 && c.attribute === 3 && c.rarity === 4));
    for (const [q, year] of [['1st year', 1], ['first years', 1], ['2nd years', 2], ['second-year', 2], ['third year', 3], ['year 3', 3], ['3年生', 3]] as const) {
      expect(await matches(q), q).toEqual(ordinals((c) => c.year === year));
    }
    for (const { code, words: table } of SCHOOL_YEARS) for (const word of table) expect(byPage(cardIndex, word), word).toEqual(fanCards.filter((c) => c.year === code).map((c) => c.ordinal));
    expect(await matches('first')).toEqual(ordinals((c) => words(c.title_en).includes('first')));
    expect(await matches('a first step')).toEqual(ordinals((c) => ['a', 'first', 'step'].every((w) => words(c.title_en).includes(w))));
  });

  it('songs: a group and a difficulty (aqours master, μ\'s expert, muse hard), a name and a difficulty (snow halation master)', async () => {
    const difficulty = (word: string) => codesOf(DIFFICULTIES, word)[0];
    expect(await matches('aqours master', 'song')).toEqual(chartIds((c) => c.groups.includes('aqours') && c.difficulty === difficulty('master')));
    expect(await matches('μ\'s expert', 'song')).toEqual(chartIds((c) => c.groups.includes('μ') && c.difficulty === difficulty('expert')));
    expect(await matches('muse hard', 'song')).toEqual(chartIds((c) => c.groups.includes('μ') && c.difficulty === difficulty('hard')));
    expect(await matches('snow halation master', 'song')).toEqual(chartIds((c) => words(c.name_en).join(' ') === 'snow halation' && c.difficulty === difficulty('master')));
    expect(await matches('aqours master', 'song')).toEqual(await matches('group:aqours difficulty:master', 'song'));
    expect(await matches('"snow halation" master', 'song')).toEqual(await matches('snow halation master', 'song'));
    // A difficulty word alone, and a group alone.
    expect(await matches('master', 'song')).toEqual(chartIds((c) => c.difficulty === difficulty('master')));
    expect(await matches('aqours', 'song')).toEqual(chartIds((c) => c.groups.includes('aqours')));
  });

  it('suggestions: healer never suggests a title word; a word near a skill word is corrected to it, not to a title\'s; a phrase is left out whole; null when nothing plausible', async () => {
    expect(titled('helper'), 'a title holds "helper"').toBeTruthy();
    expect((await answer('healer')).suggestion).toBeNull();
    // "helaer" is one edit from the title's "helper" and two from "healer": the skill word wins.
    expect(await answer('helaer')).toEqual({ found: [], suggestion: 'healer' });
    expect(await answer('heeler')).toEqual({ found: [], suggestion: 'healer' });
    expect(await answer('perfct lock ur')).toEqual({ found: [], suggestion: 'perfect lock ur' });
    expect(await answer('aqours masterr', 'song')).toEqual({ found: [], suggestion: 'aqours master' });
    // Where no card heals, healer finds nothing and suggests nothing: no title word stands in for it.
    const noHealer = structuredClone(cardIndex);
    noHealer.columns.skill = noHealer.columns.skill.map((code: number | null) => (codesOf(EFFECTS, 'healer').includes(code!) ? null : code));
    for (const q of ['healer', 'healers', 'heal']) {
      expect(byPage(noHealer, q)).toEqual([]);
      expect(pageModule.suggest(noHealer, q), q).toBeNull();
    }
    expect(pageModule.suggest(noHealer, 'healer ur')).toBe('ur');
    // A phrase is one term: "perfect lock sr" where no SR locks suggests "perfect lock" or "sr", never "perfect sr" or "lock sr".
    const noLockedSr = structuredClone(cardIndex);
    noLockedSr.columns.rarity = noLockedSr.columns.rarity.map((r: number, row: number) => (r === 3 && codesOf(EFFECTS, 'perfect lock').includes(noLockedSr.columns.skill[row]) ? 2 : r));
    expect(byPage(noLockedSr, 'perfect lock sr')).toEqual([]);
    expect(pageModule.suggest(noLockedSr, 'perfect lock sr')).toBe('perfect lock');
    expect(pageModule.suggest(noLockedSr, 'sr perfect lock')).toBe('sr');
    // Filler words alone are never a suggestion.
    expect((await answer('all zzzzzz')).suggestion).toBeNull();
  });
});

describe('card fields', () => {
  it('each has its describe block in this file (field <name>)', () => {
    const tested = ['rarity', 'attribute', 'char', 'title', 'group', 'unit', 'year', 'skill', 'trigger', 'center', 'smile', 'pure', 'cool', 'hp', 'released', 'set', 'id', 'ordinal', ...REGION_FIELDS, 'is'];
    expect(kindOf('card').fields.map((f) => f.name)).toEqual(tested);
  });
});

describe('field rarity', () => {
  it('takes words and the game\'s codes (4 UR, 5 SSR)', async () => {
    await expectMatches('rarity:ur', (c) => c.rarity === 4);
    await expectMatches('rarity:4', (c) => c.rarity === 4);
    await expectMatches('rarity:ssr', (c) => c.rarity === 5);
    await expectMatches('rarity=n', (c) => c.rarity === 1);
  });
  it('compares by rank: N < R < SR < SSR < UR', async () => {
    await expectMatches('rarity>=sr', (c) => [3, 5, 4].includes(c.rarity));
    await expectMatches('rarity>ssr', (c) => c.rarity === 4);
    await expectMatches('rarity<sr', (c) => [1, 2].includes(c.rarity));
  });
});

describe('field attribute / attr', () => {
  it('takes smile pure cool all and codes', async () => {
    await expectMatches('attribute:smile', (c) => c.attribute === 1);
    await expectMatches('attr:cool', (c) => c.attribute === 3);
    await expectMatches('attr:2', (c) => c.attribute === 2);
  });
});

describe('field char / name', () => {
  it('matches a part of the romanized or original name', async () => {
    const name = cards[0].char_name.split(' ').at(-1)!.toLowerCase();
    await expectMatches(`char:${name}`, (c) => has(c.char_name, name) || has(c.original_char_name, name));
    const original = [...cards[0].original_char_name].slice(0, 2).join('');
    await expectMatches(`name:${original}`, (c) => has(c.original_char_name, original) || has(c.char_name, original));
  });
});

describe('field title', () => {
  it('matches a part of the title or its English', async () => {
    await expectMatches('title:star', (c) => has(c.title, 'star') || has(c.title_en, 'star'));
    const original = cards.find((c) => c.title)!.title;
    await expectMatches(`title:"${original}"`, (c) => has(c.title, original.toLowerCase()) || has(c.title_en, original.toLowerCase()));
  });
});

/** The group tags of a card's character: display tags that are neither a year nor its sub-unit. */
const groupNames = (c: CardJson) => (characters.get(c.type_id)?.tags ?? []).filter((t) => t.display && t.id > 3 && t.id !== c.sub_affiliation).flatMap((t) => [t.name, t.name_en]);
const unitNames = (c: CardJson) => (characters.get(c.type_id)?.tags ?? []).filter((t) => c.sub_affiliation && t.id === c.sub_affiliation).flatMap((t) => [t.name, t.name_en]);

describe('field group', () => {
  it('matches the group tag names, and affiliation by number', async () => {
    const group = groupNames(cards.find((c) => groupNames(c).length)!)[1]!.toLowerCase();
    await expectMatches(`group:"${group}"`, (c) => groupNames(c).some((n) => has(n, group)));
    await expectMatches('group:1', (c) => c.affiliation === 1);
  });
});

describe('field unit', () => {
  it('matches the sub-unit tag names, and sub_affiliation by number', async () => {
    const card = cards.find((c) => unitNames(c).length)!;
    const unit = unitNames(card)[1]!.toLowerCase();
    await expectMatches(`unit:${unit}`, (c) => unitNames(c).some((n) => has(n, unit)));
    await expectMatches(`unit:${card.sub_affiliation}`, (c) => c.sub_affiliation === card.sub_affiliation);
  });
});

describe('field year', () => {
  it('is the school year', async () => {
    await expectMatches('year:2', (c) => c.year === 2);
    await expectMatches('year>=2', (c) => c.year >= 2);
  });
  it('takes a word of the school year table', async () => {
    await expectMatches('year:"first year"', (c) => c.year === 1);
    await expectMatches('year>=2nd-year', (c) => c.year >= 2);
    await expectError(`/api/v1/search/card?q=${encodeURIComponent('year:first')}`, /^query column 6: expected a number or a school year for year \(first year, /);
  });
});

describe('field skill', () => {
  it('takes the effect words of the one word table, and codes', async () => {
    await expectMatches('skill:score', (c) => c.skill?.effect_type === 11);
    await expectMatches('skill:"perfect lock"', (c) => codesOf(EFFECTS, 'perfect lock').includes(c.skill?.effect_type));
    await expectMatches('skill:perfect_lock', (c) => [4, 5].includes(c.skill?.effect_type));
    await expectMatches('skill:9', (c) => c.skill?.effect_type === 9);
  });
});

describe('field trigger', () => {
  it('notes is the note-count trigger only; star notes is its own word', async () => {
    await expectMatches('trigger:notes', (c) => c.skill?.trigger_type === 3);
    await expectMatches('trigger:"star notes"', (c) => c.skill?.trigger_type === 12);
    await expectMatches('trigger:combo', (c) => c.skill?.trigger_type === codesOf(TRIGGERS, 'combo')[0]);
  });
});

describe('field center', () => {
  it('matches the main effect\'s raised attribute, or its code', async () => {
    await expectMatches('center:smile', (c) => codesOf(CENTERS, 'smile').includes(c.center_skill?.effect_type));
    const code = cards.find((c) => c.center_skill)!.center_skill!.effect_type;
    await expectMatches(`center:${code}`, (c) => c.center_skill?.effect_type === code);
  });
});

describe.each(['smile', 'pure', 'cool'] as const)('field %s', (stat) => {
  it('is the idolized max-level stat (the last entry)', async () => {
    const values = cards.map((c) => last(c[stat])).sort((a, b) => a - b);
    const middle = values[Math.floor(values.length / 2)];
    await expectMatches(`${stat}>=${middle}`, (c) => last(c[stat]) >= middle);
    await expectMatches(`${stat}:${middle}`, (c) => last(c[stat]) === middle);
  });
});

describe('field hp', () => {
  it('is the idolized max-level stamina', async () => {
    const hp = last(cards[0].stamina);
    await expectMatches(`hp>${hp}`, (c) => last(c.stamina) > hp);
    await expectMatches(`hp=${hp}`, (c) => last(c.stamina) === hp);
  });
});

describe('field released', () => {
  const at = (c: CardJson) => c.extra_data.release_date;
  const year = (c: CardJson) => (at(c) === null ? null : new Date(at(c)! * 1000).getUTCFullYear());
  it('takes a year, a month or a day (the sample\'s dates lie at 15:00 in Japan: the same day in UTC)', async () => {
    const dated = cards.filter((c) => at(c) !== null).sort((a, b) => at(a)! - at(b)!);
    const card = dated[Math.floor(dated.length / 2)];
    const y = year(card)!;
    await expectMatches(`released:${y}`, (c) => year(c) === y);
    await expectMatches(`released>${y}`, (c) => year(c) !== null && year(c)! > y);
    await expectMatches(`released<=${y}`, (c) => year(c) !== null && year(c)! <= y);
    const day = new Date(at(card)! * 1000).toISOString().slice(0, 10);
    const start = Date.parse(day) / 1000;
    await expectMatches(`released:${day}`, (c) => at(c) !== null && at(c)! >= start && at(c)! < start + 86400);
    await expectMatches(`released>=${day.slice(0, 7)}`, (c) => at(c) !== null && at(c)! >= Date.parse(`${day.slice(0, 7)}-01`) / 1000);
  });
});

describe('dates are days of the site\'s calendar', () => {
  it('a card released at 00:30 in Japan is released that Japanese day, as the page shows it, not the UTC day before', async () => {
    const input = await copySample();
    const file = path.join(input, 'release_dates.json');
    await fs.writeJson(file, { ...(await fs.readJson(file)), 1: '2019/05/01 0:30:00' });
    const site = await renderInMemory(input);
    const index = site.json('api/v1/search_index/card.json');
    expect(index.offset).toBe(9 * 60);
    const ordinals = (q: string) => pageModule.search(index, { q, order: 'ordinal', dir: 'asc', seed: null }).map((row: number) => index.columns.ordinal[row]);
    expect(site.json('api/v1/card/1.json').cards[0].extra_data.release_date).toBe(Date.parse('2019-04-30T15:30:00Z') / 1000);
    expect(ordinals('released:2019-05-01')).toContain(1);
    expect(ordinals('released:2019-04-30')).not.toContain(1);
    expect(ordinals('released:2019-05')).toContain(1);
    expect(ordinals('released<2019-05-01')).not.toContain(1);
    // Unix seconds name an instant, not a day: compared as they are.
    expect(ordinals(`released>=${Date.parse('2019-04-30T15:30:00Z') / 1000}`)).toContain(1);
    expect(ordinals(`released<${Date.parse('2019-04-30T15:30:00Z') / 1000}`)).not.toContain(1);
  });
});

describe('field set', () => {
  it('matches a set id exactly', async () => {
    const id = cards[0].sets[0];
    await expectMatches(`set:${id}`, (c) => c.sets.includes(id));
  });
  it('matches a part of a set\'s display name', async () => {
    const [id, name] = [...setNames].find(([setId]) => cards.some((c) => c.sets.includes(setId)) && !cards.every((c) => c.sets.includes(setId)))!;
    const part = name.toLowerCase().slice(0, Math.max(3, name.length - 1));
    await expectMatches(`set:"${part}"`, (c) => c.sets.some((s: string) => s === part || has(setNames.get(s), part)));
    expect(id).toBeTruthy();
  });
});

describe.each(['id', 'ordinal'] as const)('field %s', (key) => {
  it('is the number', async () => {
    const value = cards[5][key];
    await expectMatches(`${key}:${value}`, (c) => c[key] === value);
    await expectMatches(`${key}<${value}`, (c) => c[key] < value);
  });
});

describe('field is', () => {
  it('promo, support, event and costume', async () => {
    await expectMatches('is:promo', (c) => c.is_pre_transformed === 1);
    await expectMatches('is:support', (c) => c.is_support_card === 1);
    await expectMatches('is:event', (c) => c.events.length > 0);
  });
});

describe('bare words', () => {
  it('match names and titles, romanized or original; #n is the ordinal', async () => {
    const word = cards[0].char_name.split(' ')[0].toLowerCase();
    const inNamesOrTitles = (c: CardJson, w: string) => [c.char_name, c.original_char_name, c.title, c.title_en].some((t) => has(t, w));
    await expectMatches(word, (c) => inNamesOrTitles(c, word));
    const title = cards.find((c) => c.title_en.includes(' '))!.title_en.toLowerCase();
    await expectMatches(`"${title}"`, (c) => inNamesOrTitles(c, title));
    await expectMatches(`#${cards[3].ordinal}`, (c) => c.ordinal === cards[3].ordinal);
  });
  it('are NFKC-normalized and case-insensitive: full-width and half-width forms are one', async () => {
    const word = cards[0].char_name.split(' ')[0];
    const fullWidth = [...word.toUpperCase()].map((ch) => String.fromCodePoint(ch.codePointAt(0)! + 0xfee0)).join('');
    expect(await found(fullWidth)).toEqual(await found(word.toLowerCase()));
    expect(await found('ｒａｒｉｔｙ：ｕｒ　ａｔｔｒ：ｓｍｉｌｅ')).toEqual(await found('rarity:ur attr:smile'));
  });
});

type Case = [query: string, test: (o: any) => boolean];
const YEAR_2020 = Date.UTC(2020, 0, 1) / 1000;

/** Accessory and event fields, each with queries and the objects they must match (built once the sample is read). */
const OTHER_FIELDS: Record<'accessory' | 'event', Record<string, () => Case[]>> = {
  accessory: {
    name: () => {
      const word = accessories[0].name_en.split(' ')[0].toLowerCase();
      return [[word, (a) => has(a.name, word) || has(a.name_en, word)], [`name:${word}`, (a) => has(a.name, word) || has(a.name_en, word)]];
    },
    rarity: () => [['rarity:ur', (a) => a.rarity === 4], ['rarity<ur', (a) => a.rarity !== 4]],
    ...Object.fromEntries((['smile', 'pure', 'cool'] as const).map((stat) => [stat, (): Case[] => {
      const value = accessories[0][`${stat}_max`];
      return [[`${stat}>=${value}`, (a) => a[`${stat}_max`] >= value]];
    }])),
    effect: () => [[`effect:${accessories[0].effect_type}`, (a) => a.effect_type === accessories[0].effect_type]],
    trigger: () => {
      const code = accessories.find((a) => a.trigger_type !== null)!.trigger_type;
      return [[`trigger:${code}`, (a) => a.trigger_type === code], [`-trigger:${code}`, (a) => a.trigger_type !== code]];
    },
    char: () => {
      const name = accessories.find((a) => a.unit_stub)!.unit_stub!.char_name.split(' ')[0].toLowerCase();
      return [[`char:${name}`, (a) => has(a.unit_stub?.char_name, name)]];
    },
    ordinal: () => {
      const ordinal = accessories.find((a) => a.unit_ordinal !== null)!.unit_ordinal;
      return [[`ordinal:${ordinal}`, (a) => a.unit_ordinal === ordinal]];
    },
    level: () => [[`level>${accessories[0].level_max - 1}`, (a) => a.level_max > accessories[0].level_max - 1]],
    id: () => [[`id<=${accessories[2].id}`, (a) => a.id <= accessories[2].id], [`#${accessories[1].id}`, (a) => a.id === accessories[1].id]],
    is: () => [['is:limited', (a) => a.is_limited], ['-is:material', (a) => !a.is_material]],
  },
  event: {
    name: () => [['name:festival', (e) => has(e.name_en, 'festival') || has(e.name, 'festival')], ['"ステージ"', (e) => has(e.name, 'ステージ') || has(e.name_en, 'ステージ')]],
    type: () => [['type:1', (e) => e.type === 1], ['type>=3', (e) => e.type !== null && e.type >= 3]],
    start: () => [['start>=2020', (e) => e.start_date >= YEAR_2020]],
    end: () => [['end<2020', (e) => e.end_date < YEAR_2020]],
    results: () => [['results<2020', (e) => e.result_end_date !== null && e.result_end_date < YEAR_2020]],
    reward: () => {
      const ordinal = events.find((e) => e.reward_ordinals.length)!.reward_ordinals[0];
      return [[`reward:${ordinal}`, (e) => e.reward_ordinals.includes(ordinal)]];
    },
    id: () => [[`id>${events[3].id}`, (e) => e.id > events[3].id]],
  },
};

describe.each(['accessory', 'event'] as const)('%s fields', (kind) => {
  it('each field has its describe block below (the region fields theirs on a site with regions)', () => {
    const elsewhere = kind === 'accessory' ? REGION_FIELDS : [];
    expect([...Object.keys(OTHER_FIELDS[kind]), ...elsewhere].sort()).toEqual(kindOf(kind).fields.map((f) => f.name).sort());
  });
  describe.each(Object.keys(OTHER_FIELDS[kind]))(`${kind} field %s`, (field) => {
    it('matches what the published objects say', async () => {
      for (const [q, test] of OTHER_FIELDS[kind][field]()) await expectMatches(q, test, kind);
    });
  });
});

// ---- regions: a site built with --archive, and one without ------------------------

/** The fields on an archive site's regions member (kinds card, accessory and song), tested in the block below. */
const REGION_FIELDS = ['region', 'only'];

describe('fields region and only: an archive site\'s regions, and a site of one export without them', () => {
  /** The regions of the site: cn, jp and ww (kr and tw have no exports in it). */
  const SITE = ['cn', 'jp', 'ww'];
  /** Which regions hold an object, by its position: some objects in one region only, some in several, one in none. */
  const PATTERNS = [['jp'], ['jp', 'ww'], ['cn', 'jp', 'ww'], ['ww'], ['cn', 'jp'], []];
  const member = (present: string[]): RegionsJson => Object.fromEntries(SITE.map((r) => [r, present.includes(r)
    ? { present: true, first_seen: '2017-07-08', first_seen_version: `${r}-2017-07-08`, released: null }
    // ww once held what it no longer does: present false, first seen kept.
    : { present: false, first_seen: r === 'ww' ? '2016-08-05' : null, first_seen_version: r === 'ww' ? 'ww-2016-08-05' : null, released: null }]));
  /** Facts for every id but the last (an object without a member matches no region), the patterns taken from `shift` on. */
  const factsOf = (ids: number[], shift = 0) => new Map(ids.slice(0, -1).map((id, i) => [id, member(PATTERNS[(i + shift) % PATTERNS.length])]));
  let files: MemoryFiles;
  let edge: EdgeSite;
  let archiveCards: CardJson[];

  beforeAll(() => {
    // The sample as a step of an archive renders it: the model given its regions as the model stage gives them (attachRegions).
    const { model, report } = modelAt(SAMPLE_INPUT);
    const songs = model.songs ?? [];
    attachRegions({
      cards: factsOf(model.cards.map((c) => c.id)),
      accessories: factsOf(model.accessories.map((a) => a.id), 1),
      songs: factsOf(songs.map((s) => s.id), 2),
      // None for the first song's charts: a chart without its own regions is searched by its song's.
      charts: factsOf(songs.slice(1).flatMap((s) => s.charts.map((c) => c.id)), 3),
    }, model);
    files = new MemoryFiles();
    const rendered = renderSite(checkedContext(renderContext(model, new Set()), report), files);
    deriveSearch(rendered, files);
    edge = { read: async (rel) => files.get(rel)?.toString('utf8') ?? null };
    archiveCards = rendered.objects.card_t.map((c) => JSON.parse(files.get(`api/v1/card/${c.ordinal}.json`)!.toString('utf8')).cards[0]).sort((a: CardJson, b: CardJson) => a.ordinal - b.ordinal);
  });

  const answer = async (on: EdgeSite, url: string) => {
    const response = (await handleRequest(new Request(`https://sif.test${url}`), on))!;
    return { status: response.status, body: await response.json() };
  };
  /** Every match of `q` on the archive site, by ordinal (cards) or id, through the edge. */
  const matches = async (q: string, kind: 'card' | 'accessory' | 'song' = 'card') => {
    const { status, body } = await answer(edge, `/api/v1/search/${kind}?${new URLSearchParams({ q, page_size: '100' })}`);
    expect(status, `${q}: ${body.error}`).toBe(200);
    expect(body.total).toBeLessThanOrEqual(100);
    return body.result.map((o: any) => (kind === 'card' ? o.ordinal : o.id));
  };
  const presentIn = (o: { regions?: RegionsJson }) => SITE.filter((r) => o.regions?.[r]?.present);
  const ordinals = (test: (c: CardJson) => boolean) => archiveCards.filter(test).map((c) => c.ordinal);

  it('region:<r> finds what region r holds, -region:<r> the rest (objects without regions too); codes in any case and width, en and global are ww', async () => {
    expect(archiveCards.filter((c) => !c.regions), 'one card without a regions member').toHaveLength(1);
    const inWw = ordinals((c) => presentIn(c).includes('ww'));
    expect(inWw.length).toBeGreaterThan(0);
    expect(inWw.length).toBeLessThan(archiveCards.length);
    expect(await matches('region:ww')).toEqual(inWw);
    for (const q of ['region:WW', 'region=ww', 'region:en', 'region:global', 'REGION:Global', 'ｒｅｇｉｏｎ：ＷＷ']) expect(await matches(q), q).toEqual(inWw);
    expect(await matches('-region:ww')).toEqual(ordinals((c) => !presentIn(c).includes('ww')));
    expect(await matches('region:cn')).toEqual(ordinals((c) => presentIn(c).includes('cn')));
    expect(await matches('region:jp -region:ww')).toEqual(ordinals((c) => presentIn(c).includes('jp') && !presentIn(c).includes('ww')));
    expect(await matches('rarity:ur -region:cn')).toEqual(ordinals((c) => c.rarity === 4 && !presentIn(c).includes('cn')));
    // A region of no export of the site: valid, and nothing is in it.
    expect(await matches('region:kr')).toEqual([]);
    expect(await matches('-region:tw')).toEqual(archiveCards.map((c) => c.ordinal));
  });

  it('only:<r> finds what region r holds and no other region of the site does', async () => {
    const onlyJp = ordinals((c) => presentIn(c).join() === 'jp');
    expect(onlyJp.length).toBeGreaterThan(0);
    expect(await matches('only:jp')).toEqual(onlyJp);
    expect(await matches('only:ww')).toEqual(ordinals((c) => presentIn(c).join() === 'ww'));
    expect(await matches('only:global')).toEqual(await matches('only:ww'));
    expect(await matches('only:cn')).toEqual([]);
    expect(await matches('-only:jp')).toEqual(ordinals((c) => presentIn(c).join() !== 'jp'));
    expect(await matches('only:jp or only:ww')).toEqual(ordinals((c) => presentIn(c).length === 1 && presentIn(c)[0] !== 'cn'));
  });

  it('accessories by their own regions; charts by theirs, or their song\'s when they have none', async () => {
    const accessories = (JSON.parse(files.get('api/v1/accessory_list.json')!.toString('utf8')).accessories as { id: number }[])
      .map((a) => JSON.parse(files.get(`api/v1/accessory/${a.id}.json`)!.toString('utf8')).accessories[0] as AccessoryJson & { regions?: RegionsJson });
    expect(await matches('region:ww', 'accessory')).toEqual(accessories.filter((a) => presentIn(a).includes('ww')).map((a) => a.id));
    expect(await matches('only:jp', 'accessory')).toEqual(accessories.filter((a) => presentIn(a).join() === 'jp').map((a) => a.id));
    const pack = (type: 'song_t' | 'live_t', id: number) => JSON.parse(files.get(objectEndpoint[type].pack.file(packOf(id)))!.toString('utf8')).objects[id];
    const charts = (JSON.parse(files.get('api/v1/list/live_t.json')!.toString('utf8')).result as { id: number }[]).map((l) => pack('live_t', l.id));
    const regionsOf = (chart: any) => presentIn({ regions: chart.regions ?? pack('song_t', chart.song_id).regions });
    expect(charts.some((c) => !c.regions && pack('song_t', c.song_id).regions), 'a chart without regions whose song has them').toBe(true);
    for (const q of ['region:ww', '-region:cn', 'only:jp', 'region:jp difficulty:master']) {
      const expected = charts.filter((c) => {
        const present = regionsOf(c);
        return { 'region:ww': present.includes('ww'), '-region:cn': !present.includes('cn'), 'only:jp': present.join() === 'jp', 'region:jp difficulty:master': present.includes('jp') && c.difficulty === 6 }[q];
      }).map((c) => c.id).sort((a, b) => a - b);
      expect(await matches(q, 'song'), q).toEqual(expected);
    }
  });

  it('keeps the index compact: one dictionary position per object, the distinct lists once; the rest of the index as a site without regions has it', async () => {
    const index = JSON.parse(files.get('api/v1/search_index/card.json')!.toString('utf8'));
    expect(index.dictionaries.region).toEqual(expect.arrayContaining([['jp'], ['jp', 'ww'], ['cn', 'jp', 'ww'], ['ww'], ['cn', 'jp'], []]));
    expect(index.dictionaries.region).toHaveLength(PATTERNS.length);
    expect(index.columns.region.every((v: unknown) => v === null || (Number.isInteger(v) && (v as number) < PATTERNS.length))).toBe(true);
    const { region: _c, ...columns } = index.columns;
    const { region: _d, ...dictionaries } = index.dictionaries;
    const plain = await readJson(out, 'api/v1/search_index/card.json');
    expect({ ...index, columns, dictionaries }).toEqual(plain);
    expect(Object.keys(plain.columns)).not.toContain('region');
    expect(pageModule.absentFields(index, 'rarity:ur -region:ww')).toEqual([]);
  });

  it('a query and its negation split the objects in two, with region terms', () => {
    const index = JSON.parse(files.get('api/v1/search_index/card.json')!.toString('utf8'));
    const term = fc.oneof(fc.constantFrom('jp', 'ww', 'cn', 'kr', 'EN').chain((r) => fc.constantFrom(`region:${r}`, `only:${r}`)), cardTerm);
    const expr = fc.array(fc.tuple(term, fc.constantFrom(' ', ' or ', ' -')), { minLength: 1, maxLength: 4 }).map((parts) => parts.map(([t, join], i) => (i ? join : '') + t).join(''));
    const all = archiveCards.map((c) => c.ordinal);
    fc.assert(fc.property(expr, (q) => {
      const found = (text: string) => pageModule.search(index, { q: text, order: 'ordinal', dir: 'asc', seed: null }).map((row: number) => index.columns.ordinal[row] as number);
      const [yes, no] = [found(q), found(`-(${q})`)];
      expect([...yes, ...no].sort((a, b) => a - b), q).toEqual(all);
    }), { numRuns: 100 });
  });

  it('an unknown region code is a 400 naming the field and the codes, on any site', async () => {
    const codes = 'expected a region: jp, ww, cn, tw, kr \\(en and global are ww\\)$';
    for (const on of [edge, site]) {
      const bad = await answer(on, `/api/v1/search/card?q=${encodeURIComponent('region:xx')}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(new RegExp(`^query column 8: unknown region: value "xx"; ${codes}`));
    }
    await expectError(`/api/v1/search/card?q=${encodeURIComponent('rarity:ur -only:europe')}`, new RegExp(`^query column 17: unknown only: value "europe"; ${codes}`));
    await expectError(`/api/v1/search/accessory?q=${encodeURIComponent('region:')}`, /^query column 8: expected a value after "region:"$/);
    await expectError(`/api/v1/search/song?q=${encodeURIComponent('only:japan')}`, /^query column 6: unknown only: value "japan"; /);
    await expectError(`/api/v1/search/event?q=${encodeURIComponent('region:jp')}`, /^query column 1: unknown field "region"; the event fields are /);
  });

  it('on a site of one export (no regions): region: matches nothing, its negation everything; the suggestion leaves the region term out', async () => {
    const index = await readJson(out, 'api/v1/search_index/card.json');
    expect(cards.some((c) => 'regions' in c)).toBe(false);
    expect((await get('/api/v1/search/card?q=region:jp')).body).toMatchObject({ total: 0, suggestion: null });
    expect((await get('/api/v1/search/card?q=only:jp')).body).toMatchObject({ total: 0, suggestion: null });
    expect(await found('-region:ww')).toEqual(cards.map((c) => c.ordinal));
    expect((await get(`/api/v1/search/card?q=${encodeURIComponent('rarity:ur region:jp')}`)).body).toMatchObject({ total: 0, suggestion: 'rarity:ur' });
    expect((await get(`/api/v1/search/accessory?q=${encodeURIComponent('region:jp')}`)).body).toMatchObject({ total: 0 });
    // The page says why (the fields the site has no data for), and only for those.
    expect(pageModule.absentFields(index, 'rarity:ur -(region:ww or only:jp)')).toEqual(['region', 'only']);
    expect(pageModule.absentFields(index, 'rarity:ur')).toEqual([]);
    expect(pageModule.absentFields(index, 'region:xx')).toEqual([]);
  });
});

// ---- songs: the statistics of charts' notes ---------------------------------------

/**
 * The song fields of a chart's notes (notes, nps, duration, has:), on the sample rendered in
 * memory (note files for each song's Easy chart, one planted broken: the other charts have no
 * notes), and on the sample without its note files; what each query must find is computed from
 * the rendered live_t objects.
 */
describe('song fields of the charts\' notes: notes, nps, duration, has', () => {
  let edge: EdgeSite;
  let charts: LiveJson[];
  let index: any;
  /** The sample without its notes/ folder: no chart has notes. */
  let bare: { edge: EdgeSite; charts: LiveJson[]; index: any };

  const rendered = async (input: string) => {
    const { files, json, object } = await renderInMemory(input);
    return {
      edge: { read: async (rel: string) => files.get(rel)?.toString('utf8') ?? null } as EdgeSite,
      charts: json<{ result: { id: number }[] }>('api/v1/list/live_t.json').result.map(({ id }) => object<LiveJson>('live_t', id)!),
      index: json('api/v1/search_index/song.json'),
    };
  };
  beforeAll(async () => {
    ({ edge, charts, index } = await rendered(SAMPLE_INPUT));
    const input = await copySample();
    await fs.rm(path.join(input, 'notes'), { recursive: true });
    bare = await rendered(input);
  });

  /** Every chart `q` matches through the edge, in the answer's order. */
  const ids = async (q: string, params: Record<string, string> = {}, on = edge) => {
    const response = (await handleRequest(new Request(`https://sif.test/api/v1/search/song?${new URLSearchParams({ q, page_size: '100', ...params })}`), on))!;
    const body = await response.json();
    expect(response.status, `${q}: ${body.error}`).toBe(200);
    expect(body.total).toBeLessThanOrEqual(100);
    return body.result.map((l: LiveJson) => l.id) as number[];
  };
  /** The charts `test` keeps, by id: at least one, and not every one. */
  const where = (test: (l: LiveJson) => boolean) => {
    const kept = charts.filter(test).map((l) => l.id);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(charts.length);
    return kept;
  };
  const withNotes = (l: LiveJson) => l.note_count !== null;
  const compare = (op: string, x: number, y: number) => ({ '>': x > y, '>=': x >= y, '<': x < y, '<=': x <= y, ':': x === y })[op]!;
  /** Each numeric field with the live_t member it reads, and its aliases. */
  const NUMBERS = [['notes', 'note_count', ['note_count']], ['nps', 'nps', []], ['duration', 'duration_sec', ['duration_sec']]] as const;

  it('the sample has charts with notes and charts without, swing notes in a chart the game does not flag, and a flagged chart without notes', () => {
    expect(charts.some(withNotes) && charts.some((l) => !withNotes(l))).toBe(true);
    expect(charts.some((l) => l.swing_notes! > 0 && l.swing_flag !== 1)).toBe(true);
    expect(charts.some((l) => !withNotes(l) && l.swing_flag === 1)).toBe(true);
  });

  it.each(NUMBERS)('%s compares live_t.%s with every operator; a chart without notes matches none of them', async (name, key, aliases) => {
    const values = [...new Set(charts.filter(withNotes).map((l) => l[key] as number))].sort((a, b) => a - b);
    const middle = values[Math.floor(values.length / 2)];
    for (const op of ['>', '>=', '<', '<=', ':']) {
      const expected = where((l) => l[key] !== null && compare(op, l[key] as number, middle));
      expect(await ids(`${name}${op}${middle}`), `${name}${op}${middle}`).toEqual(expected);
      expect(expected.every((id) => withNotes(charts.find((l) => l.id === id)!))).toBe(true);
    }
    for (const alias of aliases) expect(await ids(`${alias}>=${middle}`)).toEqual(await ids(`${name}>=${middle}`));
    // Every number a chart with notes may have, and its negation: what has no notes.
    expect(await ids(`${name}>=0`)).toEqual(where(withNotes));
    expect(await ids(`-${name}>=0`)).toEqual(where((l) => !withNotes(l)));
    expect(await ids(`${name}<0 or ${name}>=0`)).toEqual(where(withNotes));
  });

  it('notes is the note file\'s count, combo stays s_rank_combo (every chart has it), and stars>=11 is the stage level', async () => {
    const most = Math.max(...charts.filter(withNotes).map((l) => l.note_count!));
    expect(await ids(`notes>=${most}`)).toEqual(where((l) => l.note_count !== null && l.note_count >= most));
    expect(await ids(`combo>=${most}`)).toEqual(where((l) => l.s_rank_combo! >= most));
    expect(charts.some((l) => !withNotes(l) && l.s_rank_combo! >= most), 'a chart without notes has a combo').toBe(true);
    expect(await ids('stars>=11')).toEqual(where((l) => l.stars! >= 11));
    expect(await ids('has:notes notes>10')).toEqual(where((l) => l.note_count! > 10));
  });

  it('has:notes, has:star, has:hold, has:swing (its notes where it has them, else swing_flag), and -has:notes', async () => {
    expect(await ids('has:notes')).toEqual(where(withNotes));
    expect(await ids('-has:notes')).toEqual(where((l) => !withNotes(l)));
    expect(await ids('has:star')).toEqual(where((l) => l.star_notes! > 0));
    expect(await ids('has:hold')).toEqual(where((l) => l.hold_notes! > 0));
    const swing = where((l) => (withNotes(l) ? l.swing_notes! > 0 : l.swing_flag === 1));
    expect(await ids('has:swing')).toEqual(swing);
    expect(await ids('has:swing')).not.toEqual(await ids('is:swing'));
    expect(await ids('-has:swing')).toEqual(charts.map((l) => l.id).filter((id) => !swing.includes(id)));
    // Plurals, any case and width.
    expect(await ids('has:stars')).toEqual(await ids('has:star'));
    expect(await ids('ＨＡＳ：Ｓｗｉｎｇｓ')).toEqual(swing);
    const bad = (await handleRequest(new Request('https://sif.test/api/v1/search/song?q=has:wings'), edge))!;
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('query column 5: unknown has: value "wings"; expected one of notes, star, hold, swing');
  });

  it('order=notes, nps and duration sort by the notes\' statistics, charts without notes last in both directions', async () => {
    for (const [name, key] of NUMBERS) {
      for (const dir of ['asc', 'desc'] as const) {
        const sign = dir === 'asc' ? 1 : -1;
        const expected = [...charts].sort((a, b) => {
          const [x, y] = [a[key] as number | null, b[key] as number | null];
          if (x === null || y === null) return x === y ? a.id - b.id : x === null ? 1 : -1;
          return (x - y) * sign || a.id - b.id;
        }).map((l) => l.id);
        expect(await ids('', { order: name, dir }), `order=${name}&dir=${dir}`).toEqual(expected);
      }
    }
    const desc = await ids('has:notes', { order: 'notes', dir: 'desc' });
    expect(desc.map((id) => charts.find((l) => l.id === id)!.note_count)).toEqual(charts.filter(withNotes).map((l) => l.note_count).sort((a, b) => b! - a!));
  });

  it('keeps the index compact: a column per statistic where some chart has notes, none where no chart has', async () => {
    for (const column of ['notes', 'nps', 'duration', 'has']) {
      expect(index.columns[column], column).toHaveLength(charts.length);
      expect(bare.index.columns[column], column).toBeUndefined();
    }
    expect(index.columns.has.filter((bits: number | null) => bits !== null)).toHaveLength(charts.filter(withNotes).length);
    // Without note files the index is what it was before notes: the notes columns gone, every other as it is.
    expect(Object.keys(bare.index.columns)).toEqual(Object.keys(index.columns).filter((c) => !['notes', 'nps', 'duration', 'has'].includes(c)));
  });

  it('without note files: the numeric terms and has:notes match nothing, has:swing is swing_flag, and the page is told only the numeric fields are absent', async () => {
    expect(bare.charts.some(withNotes)).toBe(false);
    for (const q of ['notes>0', 'nps>=0', 'duration<=100000', 'has:notes', 'has:star', 'has:hold']) expect(await ids(q, {}, bare.edge), q).toEqual([]);
    expect(await ids('-has:notes', {}, bare.edge)).toEqual(bare.charts.map((l) => l.id));
    expect(await ids('has:swing', {}, bare.edge)).toEqual(bare.charts.filter((l) => l.swing_flag === 1).map((l) => l.id));
    expect(await ids('', { order: 'notes', dir: 'desc' }, bare.edge)).toEqual(bare.charts.map((l) => l.id));
    expect(absentFields(bare.index, 'notes>700 has:swing nps>7 -duration<60')).toEqual(['notes', 'nps', 'duration']);
    expect(absentFields(index, 'notes>700 has:swing nps>7 -duration<60')).toEqual([]);
  });
});

describe('operator juxtaposition (AND)', () => {
  it('keeps what every term matches', async () => {
    await expectMatches('rarity>=sr attr:smile', (c) => [3, 5, 4].includes(c.rarity) && c.attribute === 1);
  });
});

describe('operator or', () => {
  it('keeps what any side matches; AND binds tighter', async () => {
    await expectMatches('rarity:ur or attr:smile', (c) => c.rarity === 4 || c.attribute === 1);
    await expectMatches('rarity:ur attr:smile OR year:1', (c) => (c.rarity === 4 && c.attribute === 1) || c.year === 1);
  });
});

describe('operator - (negation)', () => {
  it('negates a term and a group', async () => {
    await expectMatches('-rarity:n', (c) => c.rarity !== 1);
    await expectMatches('-(rarity:ur or attr:smile)', (c) => !(c.rarity === 4 || c.attribute === 1));
    await expectMatches('--rarity:ur', (c) => c.rarity === 4);
  });
});

describe('operator ( )', () => {
  it('groups alternatives inside an AND', async () => {
    await expectMatches('attr:cool (rarity:ur or rarity:sr)', (c) => c.attribute === 3 && [4, 3].includes(c.rarity));
  });
});

describe('operators : and =', () => {
  it('are the same test', async () => {
    expect(await found('char=yuzu rarity=r')).toEqual(await found('char:yuzu rarity:r'));
    expect((await found('char=yuzu')).length).toBeGreaterThan(0);
  });
});

describe.each(['>', '>=', '<', '<='])('operator %s', (op) => {
  const compare = { '>': (a: number, b: number) => a > b, '>=': (a: number, b: number) => a >= b, '<': (a: number, b: number) => a < b, '<=': (a: number, b: number) => a <= b }[op]!;
  it('compares numbers and refuses text fields', async () => {
    const cool = last(cards[7].cool);
    await expectMatches(`cool${op}${cool}`, (c) => compare(last(c.cool), cool));
    await expectError(`/api/v1/search/card?q=${encodeURIComponent(`title${op}a`)}`, /^query column 6: title takes ":" or "=", not /);
  });
});

describe('operator "quotes"', () => {
  it('keep a value with spaces together; an unclosed quote is an error at its column', async () => {
    await expectMatches('trigger:"star notes"', (c) => c.skill?.trigger_type === 12);
    await expectError('/api/v1/search/card?q=title:"star', /^query column 7: expected a closing quote for the quote at column 7$/);
  });
});

describe('malformed queries', () => {
  it('never fail otherwise: any text is a 200 or a 400 naming the column; nesting is bounded', async () => {
    const junk = fc.oneof(fc.string({ maxLength: 40 }), fc.array(fc.constantFrom('(', ')', '-', '"', ':', '>=', ' or ', 'rarity', 'ur', ' ', 'ｒ', '（', '＂'), { maxLength: 30 }).map((parts) => parts.join('')));
    await fc.assert(fc.asyncProperty(junk, async (q) => {
      const { status, body } = await get(`/api/v1/search/card?q=${encodeURIComponent(q)}`);
      expect([200, 400], q).toContain(status);
      if (status === 400) expect(body.error).toMatch(/^query column \d+: /);
    }), { numRuns: 300 });
    await expectError(`/api/v1/search/card?q=${'('.repeat(5000)}`, /^query column 65: expected at most 64 nested groups and negations$/);
    await expectError(`/api/v1/search/card?q=${'-'.repeat(5000)}x`, /^query column 65: expected at most 64 nested/);
    // The documented limit itself is taken: 64 nested groups, and 64 negations.
    for (const q of [`${'('.repeat(64)}ur${')'.repeat(64)}`, `${'-'.repeat(64)}ur`, `${'-('.repeat(32)}ur${')'.repeat(32)}`]) expect((await get(`/api/v1/search/card?q=${encodeURIComponent(q)}`)).status, q).toBe(200);
    await expectError(`/api/v1/search/card?q=${'('.repeat(65)}ur${')'.repeat(65)}`, /^query column 65: expected at most 64 nested/);
    await expectError(`/api/v1/search/card?q=${'a '.repeat(300)}`, /^query column 129: expected at most 64 terms$/);
    expect((await get(`/api/v1/search/card?q=${'a '.repeat(64)}`)).status).toBe(200);
    await expectError('/api/v1/search/card?q=%20%20rarity:', /^query column 10: expected a value after "rarity:"$/);
  });

  it.each([
    ['rarity:', /^query column 8: expected a value after "rarity:"$/],
    ['rarty:ur', /^query column 1: unknown field "rarty"; the card fields are rarity, attribute, attr, char, .*released.*, is$/],
    ['(rarity:ur', /^query column 11: expected "\)" to close the "\(" at column 1, found the end of the query$/],
    ['rarity:ur)', /^query column 10: expected a term or the end of the query, found "\)"/],
    ['skill:foo', /^query column 7: unknown skill word "foo"; expected a code or one of: perfect lock, .*score/],
    ['smile>lots', /^query column 7: expected a number for smile, found "lots"$/],
    ['rarity:ur or', /^query column 13: expected a term .*, found the end of the query$/],
    ['- rarity:ur', /^query column 2: expected a term right after "-"$/],
    ['()', /^query column 2: expected a term inside "\( \)"$/],
    ['is:shiny', /^query column 4: unknown is: value "shiny"; expected one of promo, support, event, costume$/],
    ['released:2016-13', /^query column 10: expected a date/],
    [':ur', /^query column 1: expected a field name before ":"$/],
    ['ｒａｒｉｔｙ：', /^query column 8: expected a value after "ｒａｒｉｔｙ："$/],
  ])('%s', async (q, pattern) => {
    await expectError(`/api/v1/search/card?q=${encodeURIComponent(q)}`, pattern);
  });
  it('refuses bad order, dir, page and page_size, naming the parameter', async () => {
    await expectError('/api/v1/search/card?order=title', /^order must be one of rarity, attribute, year, skill, .*, random, not "title"$/);
    await expectError('/api/v1/search/card?dir=up', /^dir must be asc or desc/);
    await expectError('/api/v1/search/card?page=0', /^page must be a whole number from 1/);
    await expectError('/api/v1/search/card?page_size=101', /^page_size must be a whole number from 1 to 100/);
    await expectError('/api/v1/card/random.json?q=rarity%3E', /^query column 8: expected a value after "rarity>"$/);
  });
});

describe('/api/v1/search/<kind>', () => {
  it('pages with next links, total, page and page_size', async () => {
    const { body } = await get('/api/v1/search/card?q=-rarity:ur&page_size=10&page=2');
    const all = cards.filter((c) => c.rarity !== 4);
    expect(body).toMatchObject({ total: all.length, page: 2, page_size: 10, next: 'card?q=-rarity%3Aur&page_size=10&page=3' });
    expect(body.result).toEqual(all.slice(10, 20));
    const end = await get(`/api/v1/search/card?q=-rarity:ur&page_size=10&page=${Math.ceil(all.length / 10)}`);
    expect(end.body.next).toBeNull();
    expect((await get('/api/v1/search/card?page=99')).body).toEqual({ result: [], total: cards.length, page: 99, page_size: 20, next: null, suggestion: null });
  });
  it('orders by a numeric or date field, missing values last, ties by ordinal', async () => {
    const bySmile = [...cards].sort((a, b) => last(b.smile) - last(a.smile) || a.ordinal - b.ordinal).map((c) => c.ordinal);
    expect(await found('', 'card', { order: 'smile', dir: 'desc' })).toEqual(bySmile);
    const released = cards.filter((c) => c.extra_data.release_date !== null).sort((a, b) => a.extra_data.release_date! - b.extra_data.release_date! || a.ordinal - b.ordinal);
    expect((await found('', 'card', { order: 'released' })).slice(0, released.length)).toEqual(released.map((c) => c.ordinal));
  });
  it('orders at random by a seed that next links carry, so pages never overlap', async () => {
    const ordinals = await found('', 'card', { order: 'random' });
    expect([...ordinals].sort((a, b) => a - b)).toEqual(cards.map((c) => c.ordinal));
    expect(ordinals).not.toEqual(cards.map((c) => c.ordinal));
    const first = await get('/api/v1/search/card?order=random');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.body.next).toMatch(/&seed=\d+$/);
  });
  it('takes every documented seed and page, and its own next links always answer', async () => {
    for (const seed of ['0', '999999999', '1000000000', '2147483647', '002147483647']) {
      const { status, body } = await get(`/api/v1/search/card?order=random&page_size=3&seed=${seed}`);
      expect(status, body.error).toBe(200);
      expect(body.next).toBe(`card?order=random&page_size=3&seed=${Number(seed)}&page=2`);
    }
    expect((await get('/api/v1/search/card?page=1000000000')).body).toMatchObject({ result: [], page: 1e9, next: null });
    for (const bad of ['seed=2147483648', 'seed=99999999999', 'page=1000000001', 'page=-1', 'seed=1e3']) {
      const { status, body } = await get(`/api/v1/search/card?order=random&${bad}`);
      expect(status, bad).toBe(400);
      expect(body.error).toMatch(new RegExp(`^${bad.split('=')[0]} must be a whole number from`));
    }
    // The edge draws seeds over the whole range; the next link of the highest one works too.
    const drawn = { read: site.read, random: () => 0.9999999999 };
    const first = await (await handleRequest(new Request('https://sif.test/api/v1/search/card?order=random&page_size=2'), drawn))!.json();
    expect(first.next).toMatch(/&seed=2147483647$/);
    const next = await get(`/api/v1/search/${first.next}`);
    expect(next.status, next.body.error).toBe(200);
    expect(next.body.page).toBe(2);
  });
  it('applies stubs and keys to the results', async () => {
    const { body } = await get('/api/v1/search/card?q=rarity:ur&stubs=yes&keys=ordinal,skill');
    const ur = cards.filter((c) => c.rarity === 4);
    expect(body.result).toEqual(ur.slice(0, 20).map((c) => ({ ordinal: c.ordinal, skill: c.skill && { ref: `/api/v1/skill_t/${c.skill.id}` } })));
    expect(body.total).toBe(ur.length);
  });
});

describe('/api/v1/card/random.json?q=', () => {
  it('is a card the query matches, and a JSON 404 when none does', async () => {
    const { body } = await get('/api/v1/card/random.json?q=rarity:ur attr:cool');
    expect(body.cards).toHaveLength(1);
    expect(body.cards[0]).toMatchObject({ rarity: 4, attribute: 3 });
    const none = await get('/api/v1/card/random.json?q=rarity:ur rarity:n');
    expect(none.status).toBe(404);
    expect(none.body.error).toBe('no card matches the query');
  });
});

describe('worked examples', () => {
  it.each(EXAMPLES.map((e) => [e.q, e] as const))('%s', async (_q, example) => {
    const { status, body } = await get(`/api/v1/${exampleUrl(example)}`);
    expect(status, body.error).toBe(200);
    expect(body.total).toBeGreaterThanOrEqual(0);
    if (example.same) expect(await found(example.q, example.kind), `${example.q} = ${example.same}`).toEqual(await found(example.same, example.kind));
  });
});

// ---- properties ---------------------------------------------------------------

/** Random queries over the card fields: valid terms combined by AND, or, negation and groups. */
const cardTerm = fc.oneof(
  fc.constantFrom('ur', 'sr', 'ssr', 'r', 'n', '4', '5').chain((v) => fc.constantFrom(`rarity:${v}`, `rarity>=${v}`, `rarity<${v}`)),
  fc.constantFrom('smile', 'pure', 'cool', 'all', '1').map((v) => `attr:${v}`),
  fc.tuple(fc.constantFrom('smile', 'pure', 'cool', 'hp', 'year', 'ordinal', 'id'), fc.constantFrom(':', '>', '>=', '<', '<='), fc.integer({ min: 0, max: 6000 }))
    .map(([f, op, n]) => `${f}${op}${f === 'hp' ? n % 6 : f === 'year' ? n % 4 : f === 'ordinal' ? n % 40 : n}`),
  fc.constantFrom('score', 'heal', '"perfect lock"', '11', 'sync').map((v) => `skill:${v}`),
  fc.constantFrom('notes', '"star notes"', 'combo', 'time', 'perfects').map((v) => `trigger:${v}`),
  fc.constantFrom('smile', 'pure', 'cool', '112').map((v) => `center:${v}`),
  fc.constantFrom('promo', 'support', 'event', 'costume').map((v) => `is:${v}`),
  fc.constantFrom('healer', 'perfect lock', 'score up', 'pl', 'skill up', 'first year', '2nd years', 'year 3', 'perfect', 'first', 'year:"third year"'),
  fc.constantFrom('2019', '2020-06', '2021-01-15').chain((v) => fc.constantFrom(`released:${v}`, `released>${v}`, `released<=${v}`)),
  fc.constantFrom('a', 'yu', 'star', 'ｓｔａｒ', '花', 'hanamura').chain((v) => fc.constantFrom(v, `char:${v}`, `title:${v}`, `"${v}"`)),
);
const query: fc.Arbitrary<string> = fc.letrec((tie) => ({
  expr: fc.oneof({ depthSize: 'small', withCrossShrink: true }, cardTerm, tie('and'), tie('or'), tie('not'), tie('group')),
  and: fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `${a} ${b}`),
  or: fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `${a} or ${b}`),
  not: tie('expr').map((e) => (/^[-(]/.test(e as string) || !(e as string).includes(' ') ? `-${e}` : `-(${e})`)),
  group: tie('expr').map((e) => `(${e})`),
})).expr as fc.Arbitrary<string>;

describe('properties', () => {
  it('the edge and the page\'s copy of the module answer the same, in the same order', async () => {
    const index = await readJson(out, 'api/v1/search_index/card.json');
    await fc.assert(fc.asyncProperty(query, fc.constantFrom('ordinal', 'smile', 'released', 'rarity'), fc.constantFrom('asc', 'desc'), async (q, order, dir) => {
      const rows = pageModule.search(index, { q, order, dir, seed: null });
      const byPage = rows.map((row: number) => index.columns.ordinal[row]);
      expect(await found(q, 'card', { order, dir })).toEqual(byPage);
    }), { numRuns: 60 });
  });
  it('a query and its negation split the cards in two', async () => {
    const index = await readJson(out, 'api/v1/search_index/card.json');
    const all = cards.map((c) => c.ordinal);
    await fc.assert(fc.property(query, (q) => {
      const ordinals = (text: string) => pageModule.search(index, { q: text, order: 'ordinal', dir: 'asc', seed: null }).map((row: number) => index.columns.ordinal[row] as number);
      const yes = ordinals(q);
      const no = ordinals(`-(${q})`);
      expect(yes.filter((o) => no.includes(o))).toEqual([]);
      expect([...yes, ...no].sort((a, b) => a - b)).toEqual(all);
    }), { numRuns: 300 });
  });
  it('AND is the intersection and OR the union of what each side finds (the whole-mask evaluation)', async () => {
    const index = await readJson(out, 'api/v1/search_index/card.json');
    const ordinals = (text: string) => new Set<number>(pageModule.search(index, { q: text, order: 'ordinal', dir: 'asc', seed: null }).map((row: number) => index.columns.ordinal[row] as number));
    await fc.assert(fc.property(query, query, (a, b) => {
      const [left, right] = [ordinals(`(${a})`), ordinals(`(${b})`)];
      expect([...ordinals(`(${a}) (${b})`)].sort()).toEqual([...left].filter((o) => right.has(o)).sort());
      expect([...ordinals(`(${a}) or (${b})`)].sort()).toEqual([...new Set([...left, ...right])].sort());
    }), { numRuns: 200 });
  });
});

describe('the work of a query that finds nothing is bounded', () => {
  const suggestion = async (q: string) => (await get(`/api/v1/search/card?q=${encodeURIComponent(q)}`)).body.suggestion;
  it('corrects at most MAX_CORRECTED unknown words, and suggests nothing for a query of more', async () => {
    expect(await suggestion('hanamra')).toBe('hanamura');
    const unknown = Array.from({ length: MAX_CORRECTED + 2 }, (_, i) => `zq${i}x`);
    expect(await suggestion(['hanamra', ...unknown].join(' '))).toBeNull();
  });
  it('leaves a term out only of a query of at most MAX_LEFT_OUT_TERMS terms', async () => {
    // One unknown word among rarity words: left out, the rest finds cards, up to the limit of terms.
    const query = (n: number) => [...Array.from({ length: n - 1 }, () => 'ur'), 'zzqqxx'].join(' ');
    expect(await suggestion(query(MAX_LEFT_OUT_TERMS))).toBe(Array.from({ length: MAX_LEFT_OUT_TERMS - 1 }, () => 'ur').join(' '));
    expect(await suggestion(query(MAX_LEFT_OUT_TERMS + 1))).toBeNull();
  });
});

describe('a lexicon knows a word without making its lists', () => {
  it('knows exactly the words of known().all, for every kind: the words of its phrases and texts, and no other', async () => {
    for (const kind of ['card', 'accessory', 'event', 'song'] as const) {
      const index = await readJson<SearchIndex>(out, `api/v1/search_index/${kind}.json`);
      const fresh = () => lexiconOf(kindOf(kind), structuredClone(index)); // a lexicon of its own, whose lists are not made yet
      const { all } = fresh().known();
      expect(all.size, kind).toBeGreaterThan(5);
      const lexicon = fresh();
      const others = ['zqx', 'honokaa', 'μ', 's', '2017', 'perfect', 'lock', '星野', 'the', ''];
      for (const word of [...all, ...others]) expect(lexicon.knows(word), `${kind} ${word}`).toBe(all.has(word));
    }
  });
  it('finds a word in names and titles the same before its lists are made (in the texts joined) and after (in the lists)', async () => {
    for (const kind of ['card', 'accessory', 'event', 'song'] as const) {
      const index = await readJson<SearchIndex>(out, `api/v1/search_index/${kind}.json`);
      const [before, after] = [structuredClone(index), structuredClone(index)];
      const { texts, fields } = lexiconOf(kindOf(kind), after).known();
      const rows = (on: SearchIndex, word: string) => search(on, { q: `"${word}"`, order: kindOf(kind).identity, dir: 'asc', seed: null });
      for (const word of [...texts, ...fields, 'zqx', 's', '2017']) expect(rows(before, word), `${kind} ${word}`).toEqual(rows(after, word));
    }
  });
});
