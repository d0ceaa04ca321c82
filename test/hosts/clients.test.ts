/**
 * Client compatibility: the way real programs written for the original services use the
 * API, replayed over HTTP against the local server of `npm start` (in-process: the programs are
 * the subject here, not the server's process, which test/hosts/server.test.ts starts), reading
 * exactly the keys they read and checking the types they assume (the original services' field tables).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSample } from '../helpers.ts';
import { startServer, type RunningServer } from '../../generator/hosts/node/runtime/server.ts';

let server: RunningServer;
let base: URL;

beforeAll(async () => {
  server = await startServer((await buildSample()).out, 0);
  base = new URL(server.url);
});

afterAll(() => server?.close());

/** GET as a script would: fail on anything but 200 JSON. */
async function getJson(path: string, headers: Record<string, string> = {}): Promise<any> {
  const response = await fetch(new URL(path, base), { headers });
  expect(response.status, path).toBe(200);
  expect(response.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
  return response.json();
}

const isInt = (v: unknown) => Number.isInteger(v);
const isFlag = (v: unknown) => v === 0 || v === 1;
const isNumbers = (v: unknown) => Array.isArray(v) && v.every((n) => typeof n === 'number');

describe('a card tracker (sif.kirara.ca card API)', () => {
  it('finds a stub by id in card_list.json, then reads its card by ordinal', async () => {
    const { counts, stubs } = await getJson('api/v1/card_list.json');
    expect([counts.n_count, counts.t_count, counts.lm_count, counts.km_count].every(isInt)).toBe(true);
    const wanted = stubs[stubs.length - 1].id;
    const stub = stubs.find((s: any) => s.id === wanted);
    expect([stub.ordinal, stub.rarity].every(isInt) && typeof stub.char_name === 'string').toBe(true);
    for (const ordinal of stubs.map((s: any) => s.ordinal)) {
      const { cards: [card] } = await getJson(`api/v1/card/${ordinal}.json`);
      const line = [card.title, card.title_en, card.char_name, card.original_char_name];
      expect(line.every((t) => typeof t === 'string'), `card ${ordinal} texts`).toBe(true);
      if (card.skill) expect([card.skill.name, card.skill.name_en].every((t) => typeof t === 'string'), `card ${ordinal} skill`).toBe(true);
      if (card.center_skill) {
        const c = card.center_skill;
        expect(typeof c.name === 'string' && typeof c.name_en === 'string' && isInt(c.percent), `card ${ordinal} center skill`).toBe(true);
      }
      expect(Array.isArray(card.sets) && card.sets.every((s: unknown) => typeof s === 'string')).toBe(true);
      // A date the data does not bound (after the last known one) is null, and dirty.
      const { release_date: date, release_date_is_dirty: dirty } = card.extra_data;
      expect((isInt(date) && isFlag(dirty)) || (date === null && dirty === 1), `card ${ordinal} release`).toBe(true);
      expect([card.rarity, card.attribute].every(isInt) && [card.is_transform_disabled, card.is_pre_transformed].every(isFlag)).toBe(true);
    }
  });
});

describe('a team simulator', () => {
  it('asks for 1,000 ordinals at once and reads what a team needs', async () => {
    const ordinals = Array.from({ length: 1000 }, (_, i) => i + 1);
    const { cards } = await getJson(`api/v1/card/${ordinals.join(',')}.json`);
    const { stubs } = await getJson('api/v1/card_list.json');
    expect(cards.map((c: any) => c.ordinal)).toEqual(stubs.map((s: any) => s.ordinal));
    // The checks below that depend on a skill or center skill must meet some.
    expect(cards.filter((c: any) => c.skill && c.center_skill).length).toBeGreaterThan(5);
    for (const card of cards) {
      const at = `card ${card.ordinal}`;
      expect([card.type_id, card.affiliation, card.year, card.sub_affiliation, card.hp_base, card.attribute].every(isInt), at).toBe(true);
      expect([card.smile.at(-1), card.pure.at(-1), card.cool.at(-1)].every(isInt), at).toBe(true);
      const center = card.center_skill;
      if (center) expect([center.effect_type, center.percent, center.extra_apply_type, center.extra_effect, center.extra_percent].every(isInt), at).toBe(true);
      const skill = card.skill;
      if (skill) {
        expect(isInt(skill.trigger_type) && isInt(skill.effect_type), at).toBe(true);
        expect([skill.probability, skill.trigger_val, skill.effect_dur, skill.effect_val].every(isNumbers), at).toBe(true);
        expect(skill.probability).toHaveLength(skill.level_max);
      }
    }
  });

  it('reads accessory_list.json, then the valid accessories in one request', async () => {
    const { accessories: list } = await getJson('api/v1/accessory_list.json');
    const valid = list.filter((a: any) => a.is_valid === true).map((a: any) => a.id);
    expect(valid.length).toBeGreaterThan(0);
    expect(list.every((a: any) => isInt(a.id) && typeof a.is_valid === 'boolean')).toBe(true);
    const { accessories } = await getJson(`api/v1/accessory/${valid.join(',')}.json`);
    expect(accessories.map((a: any) => a.id)).toEqual(valid);
    for (const a of accessories) {
      expect(a.effect_targets === null || (Array.isArray(a.effect_targets) && a.effect_targets.length > 0), `accessory ${a.id}`).toBe(true);
      expect(a.trigger_type === null || isInt(a.trigger_type)).toBe(true);
      expect(a.smile.length).toBeGreaterThan(a.level_max);
      expect(a.trigger_val.every((v: unknown) => v === null || typeof v === 'number')).toBe(true);
    }
    expect(accessories.some((a: any) => a.trigger_type === null && a.trigger_val.includes(null))).toBe(true);
  });
});

describe('starlight-style object clients', () => {
  it('read info', async () => {
    const info = await getJson('api/v1/info');
    expect(typeof info.truth_version === 'string' && isInt(info.api_major) && isInt(info.api_revision)).toBe(true);
  });

  it('ask card_t with a trailing comma and missing ids: one entry per id, null where missing', async () => {
    const { stubs } = await getJson('api/v1/card_list.json');
    const { result } = await getJson(`api/v1/card_t/${stubs[0].id},999999,${stubs[1].id},`);
    expect(result.map((c: any) => c?.id ?? null)).toEqual([stubs[0].id, null, stubs[1].id]);
    expect(await getJson('api/v1/card_t/999998,999999')).toEqual({ result: [null, null] });
  });

  it('list card_t with ?keys=', async () => {
    const { result } = await getJson('api/v1/list/card_t?keys=id,ordinal');
    expect(result.length).toBeGreaterThan(30);
    for (const entry of result) expect(Object.keys(entry)).toEqual(['id', 'ordinal']);
  });

  it('read happening at a timestamp with extended_time_period_for_events=yes', async () => {
    const { events: all } = await getJson('api/v1/happening.json');
    const event = all.at(-1);
    const afterEnd = event.end_date + 3600;
    const { events, gachas } = await getJson(`api/v1/happening/${afterEnd}?extended_time_period_for_events=yes`);
    expect(events.map((e: any) => e.id)).toContain(event.id);
    for (const e of events) {
      expect(typeof e.name === 'string' && [e.start_date, e.end_date, e.type].every(isInt), `event ${e.id}`).toBe(true);
      expect(e.result_end_date === null || isInt(e.result_end_date)).toBe(true);
    }
    expect(gachas.length).toBeGreaterThan(0);
    for (const g of gachas) expect(['type', 'subtype', 'rates', 'start_date', 'end_date'].every((k) => k in g)).toBe(true);
  });

  it('call read_tl from a browser origin with a custom header (preflight first)', async () => {
    const url = new URL('api/v1/read_tl', base);
    const origin = 'https://tools.example.org';
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-requested-with' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-requested-with');
    const response = await fetch(url, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify(['はじまりの朝', 'no translation']),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ 'はじまりの朝': 'First Morning' });
  });
});
