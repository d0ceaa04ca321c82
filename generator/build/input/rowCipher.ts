/**
 * Encrypted ROWS inside a readable database (unreleased content): `release_tag` holds base64
 * of a 16-byte IV followed by AES-128-CBC ciphertext of a JSON object with the row's real
 * values; `_encryption_release_id` names the key in `release_info.json`. Not to be confused
 * with input/fileCipher.ts: the client's encryption of whole database files.
 */
import { createDecipheriv } from 'node:crypto';
import { UserError } from '../errors.ts';

/** Release id -> 16-byte AES key. */
export type ReleaseKeys = Map<string, Buffer>;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The raw payload when `tag` is an encryption payload, else null (plain row). */
export function encryptedPayload(tag: unknown): Buffer | null {
  if (typeof tag !== 'string' || tag.length % 4 !== 0 || !BASE64.test(tag)) return null;
  const bytes = Buffer.from(tag, 'base64');
  return bytes.length >= 32 && (bytes.length - 16) % 16 === 0 ? bytes : null;
}

/** Decrypts a payload to the row's real column values, or null when no key opens it. */
export function decryptPayload(payload: Buffer, key: Buffer | undefined): Record<string, unknown> | null {
  if (!key || key.length !== 16) return null;
  try {
    const decipher = createDecipheriv('aes-128-cbc', key, payload.subarray(0, 16));
    const text = Buffer.concat([decipher.update(payload.subarray(16)), decipher.final()]).toString('utf8');
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null; // wrong key or damaged payload: the row stays unreadable
  }
}

/** Keys as a key file gives them: `{"<release id>": "<base64>"}` or `[{"id": <release id>, "key": "<base64>"}]`; `source` names the file in errors. */
export function parseReleaseKeys(json: Record<string, string> | { id: number | string; key: string }[], source: string): ReleaseKeys {
  const entries = Array.isArray(json) ? json.map((k) => [String(k.id), k.key] as const) : Object.entries(json);
  const keys: ReleaseKeys = new Map();
  for (const [id, value] of entries) {
    const key = Buffer.from(value, 'base64');
    if (key.length !== 16) throw new UserError(`${source}: key for release ${id} is not a base64 16-byte key`);
    keys.set(id, key);
  }
  return keys;
}
