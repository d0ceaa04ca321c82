/**
 * What one export of an archive holds, as the archive needs it: the ids of its readable cards,
 * accessories, songs and charts, the release dates its own event data gives its cards, and
 * what its data says of its region and date. Read through the build's own read and model
 * stages (so an id counts exactly when the build would publish it), one export at a time, and
 * kept by the export's digest, so an unchanged export is never read twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { InputFolder } from '../input/inputFiles.ts';
import { readExport, closeExport } from '../input/readExport.ts';
import { buildModel, type Model } from '../model/buildModel.ts';
import { Findings } from '../findings.ts';

const Ids = Type.Array(Type.Integer());
const CensusSchema = Type.Object({
  /** The region the client files' encryption or the texts' script names; null when neither tells. */
  dataRegion: Type.Union([Type.String(), Type.Null()]),
  /** The newest event start or known card release of the data (unix seconds); null when nothing is dated. */
  dataDate: Type.Union([Type.Integer(), Type.Null()]),
  cards: Ids,
  /** [unit_id, release date] for the cards its own data dates (curated or the first event rewarding them). */
  released: Type.Array(Type.Tuple([Type.Integer(), Type.Integer()])),
  accessories: Ids,
  songs: Type.Union([Ids, Type.Null()]),
  charts: Type.Union([Ids, Type.Null()]),
});
export type Census = Static<typeof CensusSchema>;

/** Kana: Japanese text. Hangul: Korean. Latin letters with no CJK at all: the English client. */
const KANA = /[\u3040-\u30ff]/;
const HANGUL = /[\uac00-\ud7af]/;
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

/**
 * The region the texts' script says, from the characters' names and card titles: null when it
 * does not tell (Chinese text is CN's or TW's, which the script alone cannot separate).
 */
export function regionOfTexts(texts: readonly string[]): string | null {
  const all = texts.join('\n');
  if (!all.trim()) return null;
  if (KANA.test(all)) return 'jp';
  if (HANGUL.test(all)) return 'kr';
  return CJK.test(all) ? null : 'ww';
}

function censusOf(model: Model, clientRegion: string | null): Census {
  const texts = [...model.characters.values()].map((c) => c.name.original).concat(model.cards.flatMap((c) => (c.title ? [c.title.original] : [])));
  const dates = [...model.events.map((e) => e.start), ...model.cards.flatMap((c) => (c.releaseDate !== null && !c.releaseDateIsDirty ? [c.releaseDate] : []))];
  return {
    dataRegion: clientRegion ?? regionOfTexts(texts),
    dataDate: dates.length ? Math.max(...dates) : null,
    cards: model.cards.map((c) => c.id),
    released: model.cards.flatMap((c): [number, number][] => (c.releaseDate !== null && !c.releaseDateIsDirty ? [[c.id, c.releaseDate]] : [])),
    accessories: model.accessories.map((a) => a.id),
    songs: model.songs?.map((s) => s.id) ?? null,
    charts: model.songs?.flatMap((s) => s.charts.map((c) => c.id)) ?? null,
  };
}

/** Reads the export in `dir` (digest `digest`) through the read and model stages. */
function takeCensus(folder: InputFolder, digest: string): Census {
  const game = readExport(folder, new Findings(), digest);
  try {
    const clientRegion = [game.unit, game.live, game.events].map((db) => db?.encryption?.scheme.region).find(Boolean) ?? null;
    return censusOf(buildModel(game, new Findings()), clientRegion);
  } finally {
    closeExport(game);
  }
}

/** The census of the export `folder`, from `cacheDir` when an earlier build took it of the same bytes. */
export function census(folder: InputFolder, digest: string, cacheDir: string): Census {
  const file = path.join(cacheDir, `${digest}.json`);
  try {
    const kept: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (Value.Check(CensusSchema, kept)) return kept;
  } catch {
    // not kept yet, or unreadable: taken again below
  }
  const taken = takeCensus(folder, digest);
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(taken));
  fs.renameSync(`${file}.tmp`, file);
  return taken;
}
