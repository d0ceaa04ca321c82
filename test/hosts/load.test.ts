/**
 * `npm start` under hostile load, in its own process on the generated 4,000-card site: many
 * concurrent 1,000-id lists are answered or refused with a JSON 503, never by running out of
 * memory; long answers are streamed. (Speed under load is measured in bench/load.ts.)
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigSite, readJson } from '../helpers.ts';
import { peakRssMb, startServerProcess, type ServerProcess } from '../serverProcess.ts';
import { RUNNING_REQUESTS, WAITING_REQUESTS } from '../../generator/hosts/node/runtime/server.ts';

let server: ServerProcess;
let ordinals: number[];

beforeAll(async () => {
  const { out } = await bigSite();
  ordinals = (await readJson<{ stubs: { ordinal: number }[] }>(out, 'api/v1/card_list.json')).stubs.map((s) => s.ordinal);
  server = await startServerProcess(out);
});

afterAll(() => server?.stop());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: number;
  /** The body when it is short (errors); long bodies are only counted. */
  text: string;
}

/** A GET on its own connection, the body counted and dropped past 4 KiB. */
function get(path: string, agent: http.Agent, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http.request(new URL(path, server.url), { agent, method }, (response) => {
      let bytes = 0;
      let text = '';
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (text.length < 4096) text += chunk.toString('utf8');
      });
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, bytes, text }));
      response.on('error', reject);
    }).on('error', reject).end();
  });
}

const list = (from: number) => `api/v1/card/${ordinals.slice(from, from + 1000).join(',')}.json`;

describe('npm start under load', () => {
  it('600 concurrent 1,000-id lists: each answered whole or refused with a JSON 503 and Retry-After; memory stays bounded', async () => {
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const answers = await Promise.all(Array.from({ length: 600 }, (_, i) => get(list(i % 3000), agent)));
    const served = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 503);
    expect(served.length + refused.length).toBe(600);
    expect(served.length).toBeGreaterThanOrEqual(RUNNING_REQUESTS + WAITING_REQUESTS);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['retry-after']).toBe('1');
      expect(JSON.parse(answer.text).error).toMatch(/^server busy/);
    }
    // Every served list is complete: 1,000 cards of about 3 KB each.
    for (const answer of served) expect(answer.bytes).toBeGreaterThan(1_000_000);
    expect((await get('api/v1/info', agent)).status).toBe(200);
    expect(peakRssMb(server.child.pid!)).toBeLessThan(400);
  });

  it('a long list is streamed (chunked, no Content-Length) and is the same JSON as the cards one by one', async () => {
    const agent = new http.Agent();
    const ids = ordinals.slice(0, 1000).reverse();
    const response = await fetch(new URL(`api/v1/card/${ids.join(',')}.json`, server.url));
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const { cards } = (await response.json()) as { cards: { id: number }[] };
    expect(cards).toHaveLength(1000);
    const single = await (await fetch(new URL(`api/v1/card/${ids[500]}.json`, server.url))).json();
    expect(cards[500]).toEqual(single.cards[0]);
    const head = await get(`api/v1/card/${ids.join(',')}.json`, agent, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.bytes).toBe(0);
    agent.destroy();
  });
});
