/** Reads a whole game export folder: databases, keys and curated files. */
import path from 'node:path';
import fs from 'node:fs';
import { allCandidates, databaseCandidates, findDatabase, type DatabaseCandidates, type DatabaseName, type ExportFolder } from './discover.ts';
import { refuseMixedSample, SAMPLE_MARKER } from './sampleMarker.ts';
import { unreadFiles } from './unreadFiles.ts';
import { NOTE_FOLDERS, noteFiles, type NoteFiles } from './noteFiles.ts';
import type { InputFolder } from './inputFiles.ts';
import { MasterDb } from './masterDb.ts';
import { parseReleaseKeys, type ReleaseKeys } from './rowCipher.ts';
import { regionLabel } from './fileCipher.ts';
import { parseOffset } from './time.ts';
import {
  REGION_TIMEZONES, readGachas, CURATED, readCurated, readMeta, readReleaseDates, readSets, readTranslations, translationFiles,
  type CuratedGacha, type CuratedSet, type Meta,
} from './curated.ts';
import { UserError } from '../errors.ts';
import type { Findings } from '../findings.ts';
import type { ArchiveStep, RegionFacts } from './archiveStep.ts';

export interface GameExport {
  root: string;
  unit: MasterDb;
  /** event_common, when the export has it. */
  events: MasterDb | null;
  /** The English client's unit database under en/, when present. */
  english: MasterDb | null;
  /** The English client's event_common under en/, when present: English event names. */
  englishEvents: MasterDb | null;
  /** The live database (songs and their charts), when the export has it. */
  live: MasterDb | null;
  /** The English client's live database under en/, when present: English song names. */
  englishLive: MasterDb | null;
  /** The note files under notes/ or livejson/ (charts' notes, read by the model for the charts that name them). */
  notes: NoteFiles;
  meta: Meta;
  releaseDates: Map<number, number>;
  sets: CuratedSet[];
  gachas: CuratedGacha[];
  translations: Map<string, string>;
  /** Short digest of every input file, the truth version when meta.json names none. */
  inputHash: string;
  /** Availability per region, when the export is a version of an archive; null otherwise. */
  regions: RegionFacts | null;
  /** The invented sample (its marker, sample.json): its warnings are planted on purpose. */
  sample: boolean;
}

function readKeys(root: string, file: string): ReleaseKeys {
  return parseReleaseKeys(readCurated(root, file, CURATED.releaseKeys, {}), file);
}

/**
 * A CN or TW client file says which clock its local times keep; meta.json decides the time
 * zone, so when it names no region and its zone differs, the report says so (the file alone
 * does not change how dates are read: a decrypted copy of it publishes the same).
 */
function warnOtherClock(meta: Meta, dbs: (MasterDb | null)[], findings: Findings): void {
  if (meta.region !== null) return;
  for (const db of dbs) {
    const region = db?.encryption?.scheme.region;
    if (!db || !region || parseOffset(REGION_TIMEZONES[region], 'region') === meta.timezoneOffset) continue;
    findings.warn(`${db.file}: a ${regionLabel(region)} client file, but meta.json names no region, so its local times (event dates) are read at the zone it gives or JP's +09:00; add "region": "${region}" to meta.json if the export comes from that client`);
    return;
  }
}

/** The curated files the build reads (when present), relative to the input folder. */
const curatedFiles = (input: InputFolder) => [
  'meta.json', 'release_info.json', 'en/release_info.json', 'release_dates.json', 'sets.json', 'gachas.json', SAMPLE_MARKER,
  ...translationFiles(input),
];

/** The export's meta as an archive's step sees it: the version's name, region, zone and date are the archive's (which read its meta.json). */
function stepMeta(step: ArchiveStep, file: string): Meta {
  return { truthVersion: step.truthVersion, region: step.region, timezoneOffset: parseOffset(REGION_TIMEZONES[step.region], file), date: step.date };
}

/**
 * The English export's databases: the input's own en/ folder, else (an archive's step) the
 * English client's export the archive names.
 */
function englishSource(input: InputFolder, candidates: DatabaseCandidates, step: ArchiveStep | undefined): { root: string; folder: ExportFolder; candidates: DatabaseCandidates } | null {
  if (fs.existsSync(path.join(input.root, 'en'))) return { root: input.root, folder: 'en/', candidates };
  return step?.english ? { root: step.english.root, folder: '', candidates: databaseCandidates(step.english) } : null;
}

/**
 * `input`: the input folder as the check stage walked it; `inputDigest`: input/treeDigest.ts's
 * digest of it, which the build already computed; `step`: what an archive adds, when the export
 * is one of its versions.
 */
export function readExport(input: InputFolder, findings: Findings, inputDigest: string, step?: ArchiveStep): GameExport {
  const { root } = input;
  for (const folder of ['en', 'assets', 'translations', ...NOTE_FOLDERS]) {
    const dir = path.join(root, folder);
    if (fs.existsSync(dir) && !fs.lstatSync(dir).isDirectory()) throw new UserError(`${dir}: expected a folder (not a file or a link)`);
  }
  const candidates = databaseCandidates(input);
  const sample = refuseMixedSample(root, allCandidates(candidates));
  const keys = readKeys(root, path.join(root, 'release_info.json'));
  const unitFile = findDatabase(candidates, root, '', 'unit', findings);
  if (!unitFile) throw new UserError(`${root}: no unit database found (looked for unit.db_, unit.db, unit.sqlite, unit.db.sql or unit.sql)`);
  /** `name` is the database's name in the client (unit, event_common): its file there is `<name>.db_`. */
  const open = (file: string | undefined, name: string, releaseKeys: ReleaseKeys, label = '') =>
    file ? MasterDb.open(file, `${name}.db_`, releaseKeys, findings, label) : null;
  const english = englishSource(input, candidates, step);
  const englishKeys = english ? new Map([...keys, ...readKeys(english.root, path.join(english.root, english.folder, 'release_info.json'))]) : keys;
  const openEnglish = (name: DatabaseName) => (english ? open(findDatabase(english.candidates, english.root, english.folder, name, findings), name, englishKeys, 'en/') : null);
  const meta = step ? stepMeta(step, path.join(root, 'meta.json')) : readMeta(root);
  const unit = open(unitFile, 'unit', keys)!;
  const events = open(findDatabase(candidates, root, '', 'event_common', findings), 'event_common', keys);
  const live = open(findDatabase(candidates, root, '', 'live', findings), 'live', keys);
  warnOtherClock(meta, [unit, events, live], findings);
  const [englishUnit, englishEvents, englishLive] = [openEnglish('unit'), openEnglish('event_common'), openEnglish('live')];
  const databases = [unit, events, live, ...(english?.root === root ? [englishUnit, englishEvents, englishLive] : [])].flatMap((db) => (db ? [path.relative(root, db.file).split(path.sep).join('/')] : []));
  const notes = noteFiles(input);
  // Note files are the model's to read: it tells the ones no chart names (model/notes.ts).
  findings.noteUnreadFiles(unreadFiles(input, [...databases, ...curatedFiles(input), ...notes.all], candidates));
  return {
    root,
    unit,
    events,
    english: englishUnit,
    englishEvents,
    live,
    englishLive,
    notes,
    meta,
    releaseDates: readReleaseDates(root, meta),
    sets: readSets(root),
    gachas: readGachas(root, meta),
    translations: readTranslations(input, findings),
    inputHash: inputDigest.slice(0, 12),
    regions: step?.regions ?? null,
    sample,
  };
}

export function closeExport(game: GameExport): void {
  for (const db of [game.unit, game.events, game.english, game.englishEvents, game.live, game.englishLive]) db?.close();
}
