/**
 * The client's whole-file encryption (input/fileCipher.ts) run forwards: turns a SQLite file
 * into what a phone stores as `db/unit/unit.db_`, for tests. Not the row encryption of
 * sample/rowEncrypt.ts.
 */
import { V5_SEED, schemeHeader, xorKeyStream, type FileScheme } from '../input/fileCipher.ts';

/** `plain` (a SQLite file's bytes) encrypted with `scheme` for the base name `name`, header first. */
export function encryptClientFile(plain: Buffer, scheme: FileScheme, name: string): Buffer {
  const body = Buffer.from(plain);
  xorKeyStream(body, scheme, name);
  // V5 also XORs each byte with the previous encrypted one.
  if (scheme.version === 5) for (let i = 0; i < body.length; i++) body[i] ^= i ? body[i - 1] : V5_SEED;
  return Buffer.concat([schemeHeader(scheme, name), body]);
}
