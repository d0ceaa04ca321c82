/**
 * Property tests of the edge handler on the sample build: whatever the path, ids, query
 * string, method or body, it never throws, never answers 5xx, and every error it answers
 * is a JSON `{"error": "<message>"}` with the headers every response keeps.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { handleRequest, type EdgeSite } from '../../generator/runtime/edge/handler.ts';
import { diskReader } from '../../generator/hosts/node/runtime/diskSite.ts';
import { OBJECT_TYPE_NAMES } from '../../generator/contract/endpoints.ts';
import { buildSample } from '../helpers.ts';

const RUNS = 400;
// A fixed seed keeps CI repeatable; change it to explore other inputs (a failure prints its seed).
fc.configureGlobal({ seed: 20261121 });
let site: EdgeSite;

beforeAll(async () => {
  const { out } = await buildSample();
  site = { read: diskReader(out), now: () => Date.parse('2019-04-25T00:00:00Z'), random: () => 0.5 };
});

/**
 * Any code point, lone surrogates included, as `fc.string({ unit: 'binary' })` draws them; and URL
 * paths as `fc.webPath()` draws them: segments of RFC 3986 path characters and percent-encoded
 * UTF-8. Drawn here rather than by those two: either one's first use maps all 1.1 million code
 * points back to their index, half a second of CPU in every process that runs this file.
 */
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code));
const percentEncoded = anyCodePoint.map((char) => [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
const pathChar = fc.oneof(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&\'()*+,;=:@'), percentEncoded);
const webPath = fc.array(fc.array(pathChar, { maxLength: 10 }).map((chars) => chars.join('')), { maxLength: 5 }).map((segments) => `/${segments.join('/')}`);
/** Anything that might stand where an id goes: real ones, near misses and junk. */
const idLike = fc.oneof(
  fc.integer({ min: -5, max: 60 }).map(String),
  fc.constantFrom('0', '00', '1e3', '1.5', '0x10', '+1', ' 1', '', 'random', 'NaN', '9999999999999999999999', '%2C', '%00', '..', '.'),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: anyCodePoint, maxLength: 4 }),
);
const idList = fc.tuple(fc.array(idLike, { maxLength: 120 }), fc.constantFrom(',', ',', ',', '%2C', ';'))
  .map(([ids, separator]) => ids.join(separator));
const suffix = fc.constantFrom('', '.json', '.JSON', '.json.json', '/', '.js');
const first = fc.oneof(
  fc.constantFrom('card', 'accessory', 'list', 'happening', 'read_tl', 'set', 'pair', 'info', 'card_list.json', 'foo_t', '', 'tl'),
  fc.constantFrom(...OBJECT_TYPE_NAMES),
  fc.string({ maxLength: 8 }),
);
/** Mostly well-formed lists of small ids, so that many requests succeed. */
const plausible = fc.tuple(
  fc.constantFrom('card', 'accessory', ...OBJECT_TYPE_NAMES),
  fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
  fc.constantFrom('.json', ''),
).map(([type, ids, end]) => `/api/v1/${type}/${ids.join(',')}${end}`);
const path = fc.oneof(
  plausible,
  fc.tuple(first, idList, suffix).map(([type, ids, end]) => `/api/v1/${type}/${ids}${end}`),
  fc.tuple(first, suffix).map(([type, end]) => `/api/v1/${type}${end}`),
  fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('..', '.', '%2e%2e', '%252e', 'api', 'v1', 'card', '%5C', '%00')), { maxLength: 6 })
    .map((segments) => `/api/${segments.join('/')}`),
  webPath.map((p) => `/api/v1${p}`),
);
const queryValue = fc.oneof(fc.constantFrom('yes', 'no', 'unix', 'iso8601', 'id,name', '', 'ordinal'), fc.string({ maxLength: 10 }));
const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom('stubs', 'datetime', 'keys', 'x'), fc.string({ maxLength: 5 })), queryValue), { maxLength: 4 })
  .map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs)}` : ''));
const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');
const jsonBody = fc.oneof(
  fc.array(fc.string({ maxLength: 20 }), { maxLength: 30 }),
  fc.array(fc.constantFrom('ステラ', 'Stella', 'はじまりの朝', 'x'), { maxLength: 1100 }),
  fc.jsonValue({ maxDepth: 3 }),
).map((value) => JSON.stringify(value));
const body = fc.oneof(jsonBody, fc.string({ maxLength: 50 }), fc.constantFrom('', '[', '[1,2]', 'null', '{"a":1}', '["\\ud800"]'));

/** A Request for the generated parts, or null when the URL or method cannot be sent at all. */
function request(parts: { path: string; query: string; method: string; body: string }): Request | null {
  try {
    const withBody = parts.method !== 'GET' && parts.method !== 'HEAD';
    return new Request(`https://sif.test${parts.path}${parts.query}`, { method: parts.method, body: withBody ? parts.body : undefined });
  } catch {
    return null;
  }
}

/** Checks the properties every answer keeps; returns the status (null: passed to the static host). */
async function checkAnswer(req: Request): Promise<number | null> {
  const response = await handleRequest(req, site);
  if (response === null) return null;
  expect(response.status, req.url).toBeLessThan(500);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  if (response.status === 204) return 204;
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const text = await response.text();
  const json = JSON.parse(text);
  if (response.status >= 400) {
    expect(Object.keys(json), `${req.method} ${req.url}`).toEqual(['error']);
    expect(typeof json.error).toBe('string');
  }
  return response.status;
}

describe('edge handler under random requests', () => {
  it('never throws, never answers 5xx, every error is {"error": ...}', async () => {
    const internal = vi.spyOn(console, 'error');
    const seen = new Set<number | null>();
    await fc.assert(
      fc.asyncProperty(fc.record({ path, query, method, body }), async (parts) => {
        const req = request(parts);
        fc.pre(req !== null);
        seen.add(await checkAnswer(req!));
      }),
      { numRuns: RUNS },
    );
    expect(internal).not.toHaveBeenCalled(); // the handler logs only errors it did not expect
    internal.mockRestore();
    // The generators reach every kind of answer, so the properties were checked on each.
    expect([...seen]).toEqual(expect.arrayContaining([null, 200, 204, 400, 404, 405]));
  });

  it('comma lists of random ids on every listed type', async () => {
    const prefix = fc.constantFrom('/api/v1/card/', '/api/v1/accessory/', ...OBJECT_TYPE_NAMES.map((t) => `/api/v1/${t}/`));
    const seen = new Set<number | null>();
    await fc.assert(
      fc.asyncProperty(prefix, fc.array(fc.integer({ min: -3, max: 5000 }), { maxLength: 110 }), suffix, query, async (p, ids, end, q) => {
        const req = request({ path: `${p}${ids.join(',')}${end}`, query: q, method: 'GET', body: '' });
        fc.pre(req !== null);
        seen.add(await checkAnswer(req!));
      }),
      { numRuns: RUNS },
    );
    expect([...seen]).toEqual(expect.arrayContaining([200, 400, 404]));
  });

  it('read_tl with random bodies, content types and sizes', async () => {
    const size = fc.constantFrom(0, 10, 1000, 2 ** 20 - 10, 2 ** 20 + 1); // padded bodies just under and over 1 MiB
    const seen = new Set<number | null>();
    await fc.assert(
      fc.asyncProperty(body, size, fc.constantFrom('application/json', 'text/plain', ''), async (text, padding, type) => {
        const padded = padding > 1000 ? `[${' '.repeat(padding)}"x"]` : text;
        const req = new Request('https://sif.test/api/v1/read_tl', { method: 'POST', body: padded, headers: type ? { 'content-type': type } : {} });
        seen.add(await checkAnswer(req));
      }),
      { numRuns: 60 },
    );
    expect([...seen]).toEqual(expect.arrayContaining([200, 400, 413]));
  });

  it('CORS preflights with random requested headers', async () => {
    await fc.assert(
      fc.asyncProperty(path, fc.string({ maxLength: 40 }), async (p, headers) => {
        let req: Request;
        try {
          req = new Request(`https://sif.test${p}`, { method: 'OPTIONS', headers: { 'access-control-request-headers': headers } });
        } catch {
          return fc.pre(false);
        }
        const response = await handleRequest(req, site);
        if (response) expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });
});
