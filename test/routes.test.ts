/**
 * One suite, three hosts: the same requests against the edge handler in Node, `npm start`, and
 * the Netlify edge function under Deno in front of a static host that applies the site's own
 * `_redirects` and `_headers` (test/hosts.ts). What a client sees must not depend on the host.
 * Add route tests inside `describe.each` below; they run on every host.
 */
import fs from 'fs-extra';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSample, readJson } from './helpers.ts';
import { HOSTS, type Host, type HostName } from './hosts.ts';
import { STATIC_HEADERS, STATIC_RULES } from '../generator/edge/rewrites.ts';
import { config as edgeConfig } from '../netlify/edge-functions/api.ts';
import type { CardJson, HappeningJson, ObjectListJson } from '../generator/contract/schemas.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const JSON_TYPE = 'application/json; charset=utf-8';
const REVALIDATE = 'public, max-age=0, must-revalidate';

let out: string;
beforeAll(async () => {
  ({ out } = await buildSample());
});

describe.each(Object.keys(HOSTS) as HostName[])('on %s', (name) => {
  let host: Host;
  beforeAll(async () => {
    host = await HOSTS[name](out);
  });
  afterAll(() => host?.close());

  /** A JSON answer with the headers every JSON response keeps. */
  async function answered(p: string, status: number, init?: RequestInit): Promise<Response> {
    const response = await host.fetch(p, init);
    expect(response.status, p).toBe(status);
    expect(response.headers.get('content-type'), p).toBe(JSON_TYPE);
    expect(response.headers.get('access-control-allow-origin'), p).toBe('*');
    return response;
  }
  const ok = async <T = any>(p: string, init?: RequestInit): Promise<T> => (await answered(p, 200, init)).json() as Promise<T>;
  const file = <T = any>(rel: string) => readJson<T>(out, rel);
  const objectIds = async (type: string) => (await file<ObjectListJson>(`api/v1/list/${type}.json`)).result.map((entry) => entry.id);

  describe('/api/v1/card/<ordinal>.json', () => {
    it('serves the published file, revalidated by any cache', async () => {
      const response = await answered('/api/v1/card/1.json', 200);
      expect(response.headers.get('cache-control')).toBe(REVALIDATE);
      expect(await response.json()).toEqual(await file('api/v1/card/1.json'));
    });
  });

  describe('/api/v1/card/<ordinals>.json', () => {
    it('answers the cards of a comma list in request order, each as in its own file', async () => {
      const { cards } = await ok<{ cards: CardJson[] }>('/api/v1/card/3,1,2.json');
      expect(cards.map((c) => c.ordinal)).toEqual([3, 1, 2]);
      expect(cards[1]).toEqual((await file('api/v1/card/1.json')).cards[0]);
    });
  });

  describe('id lists as upstream parsed them', () => {
    it('take 1,000 ordinals, a trailing comma and leading zeros, answered from the packs', async () => {
      const ordinals = Array.from({ length: 1000 }, (_, i) => 1000 - i);
      const { cards } = await ok<{ cards: CardJson[] }>(`/api/v1/card/${ordinals.join(',')},.json`);
      const { stubs } = await file('api/v1/card_list.json');
      expect(cards.map((c) => c.ordinal)).toEqual(stubs.map((s: CardJson) => s.ordinal).reverse());
      expect(await ok('/api/v1/card/01.json')).toEqual(await file('api/v1/card/1.json'));
    });

    it('answer missing generic objects as null entries with 200, even when every id is missing', async () => {
      const [id] = await objectIds('char_t');
      expect(await ok(`/api/v1/char_t/999999,${id},`)).toEqual({ result: [null, (await file(`api/v1/char_t/${id}.json`)).result[0]] });
      expect(await ok('/api/v1/char_t/999999')).toEqual({ result: [null] });
    });

    it('never fail list/<type>: an unknown type is an empty list', async () => {
      expect(await ok('/api/v1/list/nothing_t')).toEqual({ result: [] });
    });
  });

  describe('/api/v1/card_t/<ids>', () => {
    it('answers one id as its published .json file', async () => {
      const [id] = await objectIds('card_t');
      expect(await ok(`/api/v1/card_t/${id}`)).toEqual(await file(`api/v1/card_t/${id}.json`));
    });

    it('answers a comma list with one entry per id in request order', async () => {
      const [a, b] = await objectIds('card_t');
      const [fileA, fileB] = [await file(`api/v1/card_t/${a}.json`), await file(`api/v1/card_t/${b}.json`)];
      expect(await ok(`/api/v1/card_t/${b},${a}`)).toEqual({ result: [fileB.result[0], fileA.result[0]] });
    });
  });

  describe('/api/v1/list/card_t and /api/v1/info', () => {
    it('serve the published .json files under their extensionless URLs', async () => {
      expect(await ok('/api/v1/list/card_t')).toEqual(await file('api/v1/list/card_t.json'));
      expect(await ok('/api/v1/info')).toEqual(await file('api/v1/info.json'));
    });
  });

  describe('/api/v1/happening/<unix seconds>', () => {
    it('answers the events and gachas active at that instant', async () => {
      const at = await ok<HappeningJson>(`/api/v1/happening/${Date.parse('2019-04-25T00:00:00Z') / 1000}`);
      expect([at.events.map((e) => e.id), at.gachas.map((g) => g.id)]).toEqual([[1], ['opening-scout']]);
    });
  });

  describe('POST /api/v1/read_tl', () => {
    it('answers {original: translation} for the strings that have one, whatever the body type', async () => {
      for (const type of ['application/json', 'text/plain']) {
        const body = JSON.stringify(['はじまりの朝', 'nothing', 'パンダ先生']);
        expect(await ok('/api/v1/read_tl', { method: 'POST', body, headers: { 'content-type': type } }))
          .toEqual({ 'はじまりの朝': 'First Morning', 'パンダ先生': 'Panda Sensei' });
      }
    });
  });

  describe('OPTIONS /api/... (the CORS preflight)', () => {
    it('lets any origin POST to read_tl with the headers it asks for', async () => {
      const response = await host.fetch('/api/v1/read_tl', {
        method: 'OPTIONS',
        headers: { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')).toBe('content-type');
    });
  });

  describe('unknown /api/ paths', () => {
    it('are a JSON 404', async () => {
      for (const p of ['/api/v1/nothing', '/api/v2/card/1.json', '/api/']) {
        expect(await (await answered(p, 404)).json(), p).toEqual({ error: 'not found' });
      }
    });
  });

  describe('ETag and If-None-Match', () => {
    it('a computed answer carries a strong ETag and the revalidating cache policy', async () => {
      const response = await answered('/api/v1/card/2,1.json', 200);
      expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
      expect(response.headers.get('cache-control')).toBe(REVALIDATE);
      const other = await host.fetch('/api/v1/card/1,2.json');
      expect(other.headers.get('etag')).not.toBe(response.headers.get('etag'));
    });

    it('is a 304 without body, same ETag and CORS header, when the client has the current copy', async () => {
      for (const p of ['/api/v1/card/2,1.json', '/api/v1/card_t/1003,1006', '/api/v1/card/1.json']) {
        const etag = (await host.fetch(p)).headers.get('etag')!;
        for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
          const cached = await host.fetch(p, { headers: { 'if-none-match': ifNoneMatch } });
          expect(cached.status, `${p} ${ifNoneMatch}`).toBe(304);
          expect(cached.headers.get('etag')).toBe(etag);
          expect(cached.headers.get('access-control-allow-origin')).toBe('*');
          expect(await cached.text()).toBe('');
        }
        expect((await host.fetch(p, { headers: { 'if-none-match': '"stale"' } })).status, p).toBe(200);
      }
    });
  });
});

describe('host rules (_redirects, _headers, netlify.toml)', () => {
  it('the build writes the rule list as _redirects, in order, in the format Netlify and Cloudflare read', () => {
    const lines = fs.readFileSync(path.join(out, '_redirects'), 'utf8').trim().split('\n');
    expect(lines).toEqual(STATIC_RULES.map((rule) => `${rule.from}  ${rule.to}  ${rule.status}`));
  });

  it('the build writes the static headers as _headers', () => {
    const text = fs.readFileSync(path.join(out, '_headers'), 'utf8');
    for (const block of STATIC_HEADERS) {
      const lines = Object.entries(block.values).map(([header, value]) => `  ${header}: ${value}\n`);
      expect(text).toContain(`${block.for}\n${lines.join('')}`);
    }
  });

  it('netlify.toml keeps only the build; the edge function declares its own path', () => {
    const toml = fs.readFileSync(path.join(ROOT, 'netlify.toml'), 'utf8');
    for (const table of ['[[redirects]]', '[[headers]]', '[[edge_functions]]']) expect(toml).not.toContain(table);
    expect(edgeConfig).toEqual({ path: '/api/*' });
  });
});
