/**
 * POST /api/v1/read_tl: a JSON array of strings in, `{original: translation}` out for those
 * with a translation that differs. Reads only the shards the strings hash to.
 */
import { translationShard } from '../../contract/format.ts';
import { endpoints } from '../../contract/endpoints.ts';
import { MAX_READ_TL_BYTES as MAX_BODY_BYTES, MAX_READ_TL_STRINGS as MAX_STRINGS } from '../../contract/limits.ts';

type TranslationShardJson = Record<string, string>;
import { HttpError } from './http.ts';
import { readJson, type EdgeSite } from './siteReader.ts';


const tooLarge = () => new HttpError(413, `request body is larger than ${MAX_BODY_BYTES} bytes`);

/** The body as bytes, refusing more than MAX_BODY_BYTES without reading the rest. */
async function readBody(request: Request): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  const body = new Uint8Array(size);
  chunks.reduce((offset, c) => (body.set(c, offset), offset + c.byteLength), 0);
  return body;
}

const [QUOTE, BACKSLASH, OPEN_ARRAY, OPEN_OBJECT] = [0x22, 0x5c, 0x5b, 0x7b];

/**
 * Refuses, by one pass over the bytes and before any parse, a body that cannot be an array of at
 * most MAX_STRINGS strings: one with an array or object inside the array (a megabyte of `[` costs
 * JSON.parse half a second of CPU), or with more strings (each one allocated by a parse). The
 * quote and backslash are ASCII, never part of another character's UTF-8 bytes.
 */
function refuseCheaply(body: Uint8Array): void {
  let [strings, opened, inString] = [0, 0, false];
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
      strings++;
    } else if (byte === OPEN_OBJECT || (byte === OPEN_ARRAY && ++opened > 1)) {
      throw new HttpError(400, 'request body must be a JSON array of strings, with no array or object inside it');
    }
  }
  if (strings > MAX_STRINGS) throw new HttpError(400, `too many strings: ${strings} (at most ${MAX_STRINGS})`);
}

/** The strings of a body; a 400 HttpError unless it is UTF-8 JSON: an array of at most MAX_STRINGS strings. */
function parseStrings(body: Uint8Array): string[] {
  refuseCheaply(body);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new HttpError(400, 'request body is not JSON: send an array of strings');
  }
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) {
    throw new HttpError(400, 'request body must be a JSON array of strings');
  }
  if (value.length > MAX_STRINGS) throw new HttpError(400, `too many strings: ${value.length} (at most ${MAX_STRINGS})`);
  return value;
}

async function translate(site: EdgeSite, strings: string[]): Promise<Record<string, string>> {
  const index = await readJson<{ shards: number }>(site, endpoints.translationIndex.file());
  const shardCount = index?.shards ?? 0;
  // No prototype, so an original named __proto__ is an ordinary key.
  const answer: Record<string, string> = Object.create(null);
  if (!shardCount) return answer;
  const wanted = [...new Set(strings.map((s) => translationShard(s, shardCount)))];
  const shards = new Map(await Promise.all(wanted.map(async (n) =>
    [n, (await readJson<TranslationShardJson>(site, endpoints.translationShard.file(n))) ?? {}] as const)));
  for (const original of strings) {
    const shard = shards.get(translationShard(original, shardCount))!;
    if (Object.hasOwn(shard, original) && shard[original] !== original) answer[original] = shard[original];
  }
  return answer;
}

export async function readTl(site: EdgeSite, request: Request): Promise<Record<string, string>> {
  return translate(site, parseStrings(await readBody(request)));
}
