/** Reads a whole game export folder: databases, keys and curated files. */
import path from 'node:path';
import fs from 'node:fs';
import { findDatabase } from './discover.ts';
import { MasterDb } from './masterDb.ts';
import { parseReleaseKeys, type ReleaseKeys } from './decrypt.ts';
import {
  readGachas, CURATED, readCurated, readMeta, readReleaseDates, readSets, readTranslations,
  type CuratedGacha, type CuratedSet, type Meta,
} from './curated.ts';
import { UserError } from '../errors.ts';
import type { BuildReport } from '../report.ts';

export interface GameExport {
  root: string;
  unit: MasterDb;
  /** event_common, when the export has it. */
  events: MasterDb | null;
  /** The English client's unit database under en/, when present. */
  english: MasterDb | null;
  /** The English client's event_common under en/, when present: English event names. */
  englishEvents: MasterDb | null;
  meta: Meta;
  releaseDates: Map<number, number>;
  sets: CuratedSet[];
  gachas: CuratedGacha[];
  translations: Map<string, string>;
  /** Short digest of every input file, the truth version when meta.json names none. */
  inputHash: string;
}

function readKeys(root: string, file: string): ReleaseKeys {
  return parseReleaseKeys(readCurated(root, file, CURATED.releaseKeys, {}), file);
}

/** `inputDigest`: input/treeDigest.ts's digest of `root`, which the build already computed. */
export function readExport(root: string, report: BuildReport, inputDigest: string): GameExport {
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UserError(`${root}: input folder does not exist`);
  for (const folder of ['en', 'assets', 'translations']) {
    const dir = path.join(root, folder);
    if (fs.existsSync(dir) && !fs.lstatSync(dir).isDirectory()) throw new UserError(`${dir}: expected a folder (not a file or a link)`);
  }
  const keys = readKeys(root, path.join(root, 'release_info.json'));
  const unitFile = findDatabase(root, 'unit', report);
  if (!unitFile) throw new UserError(`${root}: no unit database found (looked for unit.db_, unit.db, unit.sqlite, unit.db.sql or unit.sql)`);
  const open = (file: string | undefined, releaseKeys: ReleaseKeys, label = '') =>
    file ? MasterDb.open(file, releaseKeys, report, label) : null;
  const englishRoot = path.join(root, 'en');
  const englishKeys = new Map([...keys, ...readKeys(root, path.join(englishRoot, 'release_info.json'))]);
  const hasEnglish = fs.existsSync(englishRoot);
  const openEnglish = (name: string) => (hasEnglish ? open(findDatabase(englishRoot, name, report), englishKeys, 'en/') : null);
  const meta = readMeta(root);
  return {
    root,
    unit: open(unitFile, keys)!,
    events: open(findDatabase(root, 'event_common', report), keys),
    english: openEnglish('unit'),
    englishEvents: openEnglish('event_common'),
    meta,
    releaseDates: readReleaseDates(root, meta),
    sets: readSets(root),
    gachas: readGachas(root, meta),
    translations: readTranslations(root, report),
    inputHash: inputDigest.slice(0, 12),
  };
}

export function closeExport(game: GameExport): void {
  for (const db of [game.unit, game.events, game.english, game.englishEvents]) db?.close();
}
