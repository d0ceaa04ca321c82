/** Versions of the sample export, edited step by step and rendered in memory one after another: what the version tests check. */
import path from 'node:path';
import fs from 'fs-extra';
import { siteSnapshot } from '../generator/build/changes/readBack.ts';
import type { Snapshot } from '../generator/build/changes/snapshot.ts';
import { memorySite } from '../generator/build/input/previousSite.ts';
import { copySample, nextInMemory, type SiteInMemory } from './helpers.ts';
import { editDump } from './exportEdits.ts';

const unitSql = (sql: string) => (input: string) => editDump(input, 'unit.sql', sql);
/** Edits in turn. */
const both = (...edits: ((input: string) => Promise<void>)[]) => async (input: string) => {
  for (const edit of edits) await edit(input);
};
type Note = Record<string, number>;
/** Rewrites the note file `rel` of the export as `edit` makes its notes; null deletes the file. */
const notesEdit = (rel: string, edit: (notes: Note[]) => Note[] | null) => async (input: string) => {
  const file = path.join(input, rel);
  const notes = edit(await fs.readJson(file));
  if (notes) await fs.writeFile(file, JSON.stringify(notes));
  else await fs.remove(file);
};
/** Song 1's Easy chart remade: every note a quarter second later, the first one a star. */
export const REMADE_CHART = { id: 11, file: 'notes/0001_1.json' };
/** Song 3's Easy chart loses its note file (in v3). */
export const UNNOTED_CHART = { id: 31, file: 'notes/0003_1.json' };
/** A copy of the ordinal-1 card as a new card. */
const ADD_CARD = `CREATE TEMP TABLE c AS SELECT * FROM unit_m WHERE unit_number = 1;
  UPDATE c SET unit_id = 99001, unit_number = 9001; INSERT INTO unit_m SELECT * FROM c;`;

/** The versions made in order (the last site of a truth version is that version's site), each with its edit of the export. */
const STEPS: { version: string; edit?: (input: string) => Promise<void> }[] = [
  { version: 'v1' },
  {
    version: 'v2',
    edit: both(
      unitSql(`UPDATE unit_m SET hp_max = hp_max + 5 WHERE unit_number IN (1, 2); DELETE FROM unit_m WHERE unit_number = 3; ${ADD_CARD}`),
      notesEdit(REMADE_CHART.file, (notes) => notes.map((note, i) => ({ ...note, timing_sec: note.timing_sec + 0.25, ...(i === 0 ? { effect: 4 } : {}) }))),
    ),
  },
  {
    version: 'v3',
    edit: both(
      unitSql("UPDATE unit_m SET hp_max = 40 WHERE unit_number = 1; UPDATE unit_skill_m SET name_en = 'Renamed' WHERE unit_skill_id = 1;"),
      notesEdit(UNNOTED_CHART.file, () => null),
    ),
  },
  // The same truth version again (a key arrived): its entries are replaced, not added.
  { version: 'v3', edit: unitSql('UPDATE unit_m SET hp_max = 41 WHERE unit_number = 2; DELETE FROM unit_m WHERE unit_number = 9001;') },
];

/** Writes meta.json naming `version`, dated `date`. */
export const writeVersion = (input: string, version: string, date: number) =>
  fs.writeJson(path.join(input, 'meta.json'), { truth_version: version, region: 'jp', date });

/**
 * A copy of the sample (the export as the last step left it) and the sites of STEPS, each
 * following the one before as a build into one output folder follows its previous build; with
 * what each truth version's site published, read back as a later build reads it.
 */
export async function successiveVersions(): Promise<{ input: string; sites: SiteInMemory[]; published: Map<string, Snapshot> }> {
  const input = await copySample();
  await fs.remove(path.join(input, 'assets')); // pictures are no data
  const sites: SiteInMemory[] = [];
  const published = new Map<string, Snapshot>();
  for (const [i, step] of STEPS.entries()) {
    await step.edit?.(input);
    await writeVersion(input, step.version, 1500000000 + i * 86400);
    sites.push(await nextInMemory(input, sites.at(-1) ?? null));
    published.set(step.version, await siteSnapshot(memorySite(sites.at(-1)!.files)));
  }
  return { input, sites, published };
}
