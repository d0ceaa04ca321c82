/** Id lists in URLs: `5` or `1,2,3` (SPEC 6: at most 100 ids; anything else is malformed). */
import { HttpError } from './http.ts';

const MAX_IDS = 100;
const ID = /^\d{1,9}$/;

/** The ids of a comma list in request order (duplicates kept); a 400 HttpError when malformed or too long. */
export function parseIds(list: string): number[] {
  const parts = list.split(',');
  if (parts.length > MAX_IDS) throw new HttpError(400, `too many ids: ${parts.length} (at most ${MAX_IDS} per request)`);
  const bad = parts.find((part) => !ID.test(part));
  if (bad !== undefined) throw new HttpError(400, `malformed id "${bad}" in "${list}": ids are decimal numbers separated by commas`);
  return parts.map(Number);
}
