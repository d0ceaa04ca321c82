/**
 * Id lists in URLs as the original services parsed them: `5` or `1,2,3`, empty parts ignored
 * (`1,2,` is `1,2`), leading zeros allowed (`01` is `1`), at most MAX_IDS ids per request.
 */
import { MAX_IDS, MAX_ID_DIGITS } from '../../contract/limits.ts';
import { HttpError } from './http.ts';

const ID = /^\d+$/;

/** The ids of a comma list in request order (duplicates kept); a 400 HttpError when malformed, empty or too long. */
export function parseIds(list: string): number[] {
  const parts = list.split(',').map((part) => part.trim()).filter((part) => part !== '');
  if (!parts.length) throw new HttpError(400, `no id in "${list}": ids are decimal numbers separated by commas`);
  if (parts.length > MAX_IDS) throw new HttpError(400, `too many ids: ${parts.length} (at most ${MAX_IDS} per request)`);
  const bad = parts.find((part) => !ID.test(part) || (part.length > MAX_ID_DIGITS && part.replace(/^0+(?=\d)/, '').length > MAX_ID_DIGITS));
  if (bad !== undefined) throw new HttpError(400, `malformed id "${bad.slice(0, 40)}": ids are decimal numbers separated by commas`);
  return parts.map(Number);
}

/** Whether `name` is exactly the canonical form of one id (the name of its published file). */
export const isCanonicalId = (name: string, ids: number[]) => ids.length === 1 && String(ids[0]) === name;
