/** The inverse of input/rowCipher.ts (encrypted rows), for the sample export and test fixtures; whole files: sample/fileEncrypt.ts. */
import { createCipheriv, createHash } from 'node:crypto';

/** Deterministic key for a release id, so the sample regenerates byte-identically. */
export function sampleKey(releaseId: number): Buffer {
  return createHash('sha256').update(`sample-release-${releaseId}`).digest().subarray(0, 16);
}

/** base64(IV + AES-128-CBC(JSON(values))), with an IV derived from the content. */
export function encryptValues(values: Record<string, unknown>, key: Buffer): string {
  const json = JSON.stringify(values);
  const iv = createHash('sha256').update(json).digest().subarray(0, 16);
  const cipher = createCipheriv('aes-128-cbc', key, iv);
  return Buffer.concat([iv, cipher.update(json, 'utf8'), cipher.final()]).toString('base64');
}
