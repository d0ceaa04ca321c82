/**
 * `npm run build -- --archive` (build/archive/): the sample archive (sample/sampleArchive.ts), built
 * once into one site that every read-only test shares; a test that changes the archive or the site
 * builds a copy of both. Every expectation comes from the archive's specs, not from the site.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fs from 'fs-extra';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildArchive, type ArchiveReport } from '../../generator/build/archive/archive.ts';
import { UserError } from '../../generator/build/errors.ts';
import { loadSqlDump } from '../../generator/build/input/sqlDump.ts';
import { writeSampleArchive } from '../../generator/build/sample/make-sample.ts';
import { cardsOf, exportName, SAMPLE_ARCHIVE, type ArchiveExportSpec } from '../../generator/build/sample/sampleArchive.ts';
import { CARDS, unitIdOf } from '../../generator/build/sample/data.ts';
import { REGION_TIMEZONES } from '../../generator/build/input/curated.ts';
import { SAMPLE_MARKER } from '../../generator/build/input/sampleMarker.ts';
import { endpoints } from '../../generator/contract/endpoints.ts';
import { applyPatch } from '../../generator/contract/patch.ts';
import type { CardJson, HistoryJson, VersionsJson } from '../../generator/contract/schemas.ts';
import { copyTree, readJson, recordStats, tempDir } from '../helpers.ts';
import { snapshot } from '../exportEdits.ts';

/** The exports whose region can be known, oldest first; the primary region's are the versions. */
const KNOWN = SAMPLE_ARCHIVE.filter((e) => e.region !== null).sort((a, b) => a.day!.localeCompare(b.day!));
const JP = KNOWN.filter((e) => e.region === 'jp');
const NEWEST_JP = JP.at(-1)!;
const holds = (spec: ArchiveExportSpec, ordinal: number) => cardsOf(spec).includes(ordinal);

/** Midnight of `day` in `region`'s time, as unix seconds. */
const midnight = (day: string, region: string) => Date.parse(`${day}T00:00:00${REGION_TIMEZONES[region]}`) / 1000;

/** The day `years` after `day`. */
const yearsAfter = (day: string, years: number) => `${Number(day.slice(0, 4)) + years}${day.slice(4)}`;

/** What the site's `regions` member of the card `ordinal` must say, knowing `exports` (`released` aside). */
function expectedRegions(exports: readonly ArchiveExportSpec[], ordinal: number) {
  const regions = [...new Set(exports.map((e) => e.region!))].sort();
  return Object.fromEntries(regions.map((region) => {
    const own = exports.filter((e) => e.region === region);
    const first = own.find((e) => holds(e, ordinal));
    return [region, { present: holds(own.at(-1)!, ordinal), first_seen: first?.day ?? null, first_seen_version: first ? exportName(first) : null }];
  }));
}

const withoutReleased = (regions: CardJson['regions']) =>
  Object.fromEntries(Object.entries(regions!).map(([region, { released: _, ...entry }]) => [region, entry]));

interface Built {
  archive: string;
  out: string;
  report: ArchiveReport;
}

/** Writes `exports` as an archive in a fresh folder and builds it; `primary` as --primary. */
async function buildNew(exports: readonly ArchiveExportSpec[] = SAMPLE_ARCHIVE, primary?: string): Promise<Built> {
  const dir = await tempDir('sif-archive-');
  const archive = path.join(dir, 'archive');
  await writeSampleArchive(archive, { exports });
  const out = path.join(dir, 'site', 'public');
  return { archive, out, report: await buildArchive({ archive, out, primary }) };
}

let shared: Built;
beforeAll(async () => {
  shared = await buildNew();
});

const cardOf = async (out: string, ordinal: number): Promise<CardJson> => (await readJson(out, endpoints.card.file(ordinal))).cards[0];

/**
 * A copy of the shared archive and its site, with the builder's and the archive's own files (the
 * record, the census), which later builds take for the site they built.
 */
async function copyOfShared(): Promise<{ archive: string; out: string }> {
  const dir = await tempDir('sif-archive-copy-');
  const archive = path.join(dir, 'archive');
  copyTree(shared.archive, archive);
  copyTree(path.dirname(shared.out), path.join(dir, 'site'));
  const out = path.join(dir, 'site', path.basename(shared.out));
  await recordStats(out);
  return { archive, out };
}

/** A card's history replayed: its object as each version that changed it published it (null: removed). */
function replay(history: HistoryJson): Map<string, CardJson | null> {
  const objects = new Map<string, CardJson | null>();
  let object: unknown = null;
  for (const version of history.versions) {
    object = version.patch === null ? null : applyPatch(structuredClone(object), version.patch);
    objects.set(version.truth_version, structuredClone(object) as CardJson | null);
  }
  return objects;
}

describe('build --archive: versions', () => {
  it('lists exactly the primary region\'s exports as versions, oldest first, each dated midnight of its day in JP time; the newest is the site\'s', async () => {
    const { versions } = await readJson<VersionsJson>(shared.out, endpoints.versions.file());
    expect(versions.map((v) => v.truth_version)).toEqual(JP.map(exportName));
    expect(versions.map((v) => v.date)).toEqual(JP.map((e) => midnight(e.day!, 'jp')));
    expect((await readJson(shared.out, endpoints.info.file())).truth_version).toBe(exportName(NEWEST_JP));
    expect(shared.report.built).toBe(JP.length);
  });

  it('publishes the history of a card whose stats an export changed: replayed, its first version has the first export\'s stats as its 2015 database states them', async () => {
    const [first, second] = JP;
    const [ordinal, gain] = Object.entries(second.smile ?? {}).map(([o, g]) => [Number(o), g - (first.smile?.[Number(o)] ?? 0)]).find(([, g]) => g !== 0)!;
    const history = await readJson<HistoryJson>(shared.out, endpoints.history.file('card', ordinal));
    const entry = history.versions.find((v) => v.truth_version === exportName(second))!;
    expect(entry.change).toBe('changed');
    expect(entry.patch!.some((op) => op.path === '/smile' || op.path.startsWith('/smile/'))).toBe(true);

    const objects = replay(history);
    expect(objects.get(history.versions.at(-1)!.truth_version)).toEqual(await cardOf(shared.out, ordinal));
    const before = objects.get(exportName(first))!;
    const after = objects.get(exportName(second))!;
    expect(after.smile.map((smile, i) => smile - before.smile[i])).toEqual(before.smile.map(() => gain));

    // The first export is the 2015 shape: stats stated per level in unit_level_m (pure named cute).
    expect([first.generation, first.format]).toEqual(['2015', 'sql']);
    const db = loadSqlDump(path.join(shared.archive, first.rel, 'unit.sql'));
    const levels = db.prepare('SELECT hp, smile, cute, cool FROM unit_level_m WHERE unit_id = ? ORDER BY unit_level').all(unitIdOf(ordinal)) as Record<string, number>[];
    db.close();
    expect(levels.length).toBe(before.smile.length);
    expect({ smile: before.smile, pure: before.pure, cool: before.cool, stamina: before.stamina })
      .toEqual({ smile: levels.map((l) => l.smile), pure: levels.map((l) => l.cute), cool: levels.map((l) => l.cool), stamina: levels.map((l) => l.hp) });
  });
});

describe('build --archive: regions and names', () => {
  it('gives every card the regions member its exports say: present in each region\'s newest, first seen in its earliest holding it', async () => {
    const ordinals = cardsOf(NEWEST_JP);
    for (const ordinal of ordinals) {
      expect(withoutReleased((await cardOf(shared.out, ordinal)).regions), `card ${ordinal}`).toEqual(expectedRegions(KNOWN, ordinal));
    }
    // Cards of both kinds are among them: one held everywhere, one JP alone ever had.
    const everywhere = ordinals.find((o) => KNOWN.every((e) => holds(e, o)))!;
    const regions = (await cardOf(shared.out, everywhere)).regions!;
    expect(Object.keys(regions).sort()).toEqual(['cn', 'jp', 'ww']);
    for (const region of ['jp', 'ww', 'cn']) {
      const first = KNOWN.find((e) => e.region === region)!;
      expect(regions[region]).toMatchObject({ present: true, first_seen: first.day, first_seen_version: exportName(first) });
    }
    const jpOnly = ordinals.find((o) => !KNOWN.some((e) => e.region !== 'jp' && holds(e, o)))!;
    expect((await cardOf(shared.out, jpOnly)).regions!.ww).toEqual({ present: false, first_seen: null, first_seen_version: null, released: null });
  });

  it('finds the region of an export whose meta.json gives only its day from its client files\' encryption', async () => {
    const phone = KNOWN.find((e) => e.meta === 'day')!;
    expect(await fs.readJson(path.join(shared.archive, phone.rel, 'meta.json'))).toEqual({ date: phone.day });
    expect(phone.encrypt?.region).toBe(phone.region);
    expect(shared.report.exports.find((e) => e.rel === phone.rel)).toMatchObject({ region: phone.region, name: exportName(phone), version: null });
    // A card its region first had in it names it.
    const earlier = KNOWN.filter((e) => e.region === phone.region && e.day! < phone.day!);
    const arrived = cardsOf(phone).find((o) => !earlier.some((e) => holds(e, o)))!;
    expect((await cardOf(shared.out, arrived)).regions![phone.region!].first_seen_version).toBe(exportName(phone));
  });

  it('names a JP card in English from the WW export (the JP exports have no English), and a card WW never had not at all', async () => {
    const ww = KNOWN.filter((e) => e.region === 'ww');
    const titled = CARDS.filter((c) => c.title && c.titleEn && holds(NEWEST_JP, c.ordinal));
    const inEnglish = titled.find((c) => ww.every((e) => holds(e, c.ordinal)))!;
    const notInEnglish = titled.find((c) => !ww.some((e) => holds(e, c.ordinal)))!;
    expect((await cardOf(shared.out, inEnglish.ordinal)).title_en).toBe(inEnglish.titleEn);
    expect((await cardOf(shared.out, notInEnglish.ordinal)).title_en).toBe('');
    // The first version knew no WW export yet.
    const history = await readJson<HistoryJson>(shared.out, endpoints.history.file('card', inEnglish.ordinal));
    expect(replay(history).get(exportName(JP[0]))!.title_en).toBe('');
  });
});

describe('build --archive: the report', () => {
  it('has one line per export, in date order, and leaves out the folder whose region cannot be known, saying what to add', () => {
    const { exports, leftOut } = shared.report;
    expect(exports.map((e) => e.rel)).toEqual(KNOWN.map((e) => e.rel));
    expect(exports.map((e) => [e.name, e.region, e.day, e.version])).toEqual(KNOWN.map((e) => [exportName(e), e.region, e.day, e.region === 'jp' ? exportName(e) : null]));
    for (const line of exports.filter((e) => e.version)) expect(line.cost!.files).toBeGreaterThan(0);
    // Each export carries the sample's marker listing its own files, which the build takes as one export per folder.
    for (const e of SAMPLE_ARCHIVE) expect(fs.existsSync(path.join(shared.archive, e.rel, SAMPLE_MARKER)), e.rel).toBe(true);
    const unknown = SAMPLE_ARCHIVE.filter((e) => e.region === null);
    expect(leftOut.map((l) => l.rel)).toEqual(unknown.map((e) => e.rel));
    expect(leftOut[0].reason).toMatch(/region cannot be known.*add "region" to its meta\.json/);
  });

  it('refuses two exports of one region and day, in one line naming both folders', async () => {
    const dir = await tempDir('sif-archive-twice-');
    const archive = path.join(dir, 'archive');
    const [a, b] = ['one/copy', 'two/copy'];
    await writeSampleArchive(archive, { exports: [{ ...JP[0], rel: a }, { ...JP[0], rel: b, format: 'sqlite' }] });
    const error = await buildArchive({ archive, out: path.join(dir, 'public') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    const { message } = error as UserError;
    expect(message).not.toContain('\n');
    expect(message).toContain(a);
    expect(message).toContain(b);
    expect(message).toContain(JP[0].day!);
  });
});

describe('build --archive: incremental builds', () => {
  it('builds nothing when the archive is as it was, and changes no file of the site', async () => {
    const { archive, out } = await copyOfShared();
    const before = await snapshot(out);
    const report = await buildArchive({ archive, out });
    expect(report.built).toBe(0);
    expect(report.exports.map((e) => e.rel)).toEqual(shared.report.exports.map((e) => e.rel));
    expect((await snapshot(out)).files).toEqual(before.files);
  });

  it('builds one version for one new JP export, the versions before it kept', async () => {
    const { archive, out } = await copyOfShared();
    const next: ArchiveExportSpec = { ...NEWEST_JP, rel: 'jp/next', day: yearsAfter(NEWEST_JP.day!, 1), cards: NEWEST_JP.cards + 1 };
    await writeSampleArchive(archive, { exports: [next] });
    const { versions: before } = await readJson<VersionsJson>(out, endpoints.versions.file());
    const report = await buildArchive({ archive, out });
    expect(report.built).toBe(1);
    const { versions } = await readJson<VersionsJson>(out, endpoints.versions.file());
    expect(versions.map((v) => v.truth_version)).toEqual([...JP, next].map(exportName));
    expect(versions.slice(0, -1)).toEqual(before);
    const added = cardsOf(next).find((o) => !holds(NEWEST_JP, o))!;
    expect((await cardOf(out, added)).regions!.jp.first_seen_version).toBe(exportName(next));
    expect(report.exports.filter((e) => e.cost !== null).map((e) => e.rel)).toEqual([next.rel]);
  });

  it('rebuilds only the newest version for a WW export dated after it, which changes a card\'s regions', async () => {
    const { archive, out } = await copyOfShared();
    const lastWw = KNOWN.filter((e) => e.region === 'ww').at(-1)!;
    const later: ArchiveExportSpec = { ...lastWw, rel: 'ww/later', day: yearsAfter(NEWEST_JP.day!, 1), meta: 'region and day', cards: NEWEST_JP.cards, without: [] };
    const ordinal = cardsOf(later).find((o) => !KNOWN.some((e) => e.region === 'ww' && holds(e, o)))!;
    expect((await cardOf(out, ordinal)).regions!.ww.present).toBe(false);
    const kept = cardsOf(JP[0])[0];
    const oldHistory = await readJson<HistoryJson>(out, endpoints.history.file('card', kept));
    await writeSampleArchive(archive, { exports: [later] });
    const report = await buildArchive({ archive, out });
    expect(report.built).toBe(1);
    expect(report.exports.filter((e) => e.cost !== null).map((e) => e.rel)).toEqual([NEWEST_JP.rel]);
    expect((await cardOf(out, ordinal)).regions!.ww).toMatchObject({ present: true, first_seen: later.day, first_seen_version: exportName(later) });
    const { versions } = await readJson<VersionsJson>(out, endpoints.versions.file());
    expect(versions.map((v) => v.truth_version)).toEqual(JP.map(exportName));
    // The versions before the newest keep their history entries.
    const history = await readJson<HistoryJson>(out, endpoints.history.file('card', kept));
    expect(history.versions.slice(0, -1)).toEqual(oldHistory.versions.slice(0, -1));
  });

  it('fails with one clear line when a new export cannot be read, leaving the site as it was', async () => {
    const { archive, out } = await copyOfShared();
    const broken: ArchiveExportSpec = { ...NEWEST_JP, rel: 'jp/broken', day: yearsAfter(NEWEST_JP.day!, 1), format: 'sqlite' };
    await writeSampleArchive(archive, { exports: [broken] });
    const unit = path.join(archive, broken.rel, 'db', 'unit', 'unit.db_');
    const bytes = readFileSync(unit);
    await fs.writeFile(unit, Buffer.concat([bytes.subarray(0, 100), Buffer.alloc(4000, 0x41), bytes.subarray(4100)]));
    const manifest = readFileSync(path.join(out, endpoints.fileManifest.file()));
    const before = await snapshot(out);
    const error = await buildArchive({ archive, out }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).message).toContain(path.join(broken.rel, 'db', 'unit', 'unit.db_'));
    expect((error as UserError).message).not.toContain('\n');
    expect(readFileSync(path.join(out, endpoints.fileManifest.file()))).toEqual(manifest);
    expect((await snapshot(out)).files).toEqual(before.files);
  });
});

describe('build --archive --primary cn', () => {
  it('reads a bare day as midnight in the region\'s time, also when the data tells the region', async () => {
    const cn = KNOWN.find((e) => e.region === 'cn')!;
    const phone: ArchiveExportSpec = { ...cn, rel: 'cn-phone', day: yearsAfter(cn.day!, 1), meta: 'day', format: 'sqlite', encrypt: { region: 'cn', version: 2 } };
    const { out, report } = await buildNew([cn, phone], 'cn');
    expect(report.exports.map((e) => [e.rel, e.name, e.version])).toEqual([cn, phone].map((e) => [e.rel, exportName(e), exportName(e)]));
    const { versions } = await readJson<VersionsJson>(out, endpoints.versions.file());
    expect(versions.map((v) => [v.truth_version, v.date])).toEqual([cn, phone].map((e) => [exportName(e), midnight(e.day!, 'cn')]));
    expect(midnight(cn.day!, 'cn') - midnight(cn.day!, 'jp')).toBe(3600);
  });
});
