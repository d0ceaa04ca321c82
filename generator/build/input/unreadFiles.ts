/** Which files under the input folder the build did not read, and why: what the report tells a user to fix. */
import path from 'node:path';
import type { InputFolder } from './inputFiles.ts';
import type { UnreadFile } from '../findings.ts';
import { DATABASE_EXTENSION, lookalikeDatabase, type DatabaseCandidates } from './discover.ts';


/** Folders whose files are read by the paths the databases name (pictures), or are never input. */
const NOT_LISTED = new Set(['assets', 'node_modules']);

/** The database files read, by export (main '', English 'en/') and name, and every other candidate for each: rel -> [name, rel read]. */
function databasesRead(candidatesOf: DatabaseCandidates, read: Set<string>): { used: Map<string, string>; seconds: Map<string, [string, string]> } {
  const [used, seconds] = [new Map<string, string>(), new Map<string, [string, string]>()];
  for (const [folder, byName] of candidatesOf) {
    for (const [name, files] of byName) {
      const candidates = files.map((rel) => folder + rel);
      const first = candidates.find((rel) => read.has(rel));
      if (!first) continue;
      used.set(folder + name, first);
      for (const rel of candidates) if (rel !== first) seconds.set(rel, [name, first]);
    }
  }
  return { used, seconds };
}

/**
 * Every file of `input` (but pictures) that is not in `read` (relative paths), with the reason
 * and, for a misnamed database, a hint; `candidates`: the input's database candidates.
 */
export function unreadFiles(input: InputFolder, read: string[], candidates: DatabaseCandidates): UnreadFile[] {
  const readSet = new Set(read);
  const { used, seconds } = databasesRead(candidates, readSet);
  return input.files((rel) => !NOT_LISTED.has(rel.split('/', 1)[0])).sort().filter((rel) => !readSet.has(rel)).map((file): UnreadFile => {
    const second = seconds.get(file);
    if (second) return { file, reason: `a second ${second[0]} database; ${second[1]} is read instead` };
    const lookalike = lookalikeDatabase(file);
    // A client database the build does not use (item.db_, card.db_): the game keeps many.
    if (!lookalike) return { file, reason: DATABASE_EXTENSION.test(file) ? 'a database the build does not use' : 'not a file the build reads' };
    const already = used.get((file.startsWith('en/') ? 'en/' : '') + lookalike);
    const hint = already
      ? `looks like a second ${lookalike} database; ${already} is read as that one`
      : `looks like the ${lookalike} database: name it ${path.posix.join(path.posix.dirname(file), `${lookalike}.db_`)}, the client's name (a file copied from a device is decrypted with a key made from that name)`;
    return { file, reason: 'not a name the build reads', hint };
  });
}
