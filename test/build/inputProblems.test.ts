/** Every problem of an untrusted export is one clear line naming the file, table or key; links never lead outside it. */
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';
import { build } from '../../generator/build/build.ts';
import { StageError, UserError } from '../../generator/build/errors.ts';
import { endpoints } from '../../generator/contract/endpoints.ts';
import { SAMPLE_INPUT, buildInto, buildSample, copySample, copySite, newStaging, publishedSample, renderInMemory, tempDir } from '../helpers.ts';
import { readMeta, readSets } from '../../generator/build/input/curated.ts';
import { readRegularBytes } from '../../generator/build/input/inputFiles.ts';
import { MAX_JSON_BYTES } from '../../generator/build/input/limits.ts';
import { MAX_SITE_BYTES } from '../../generator/build/publish/staging.ts';
import { editDump, snapshot } from '../exportEdits.ts';

/** Builds a copy of the sample after `change`; resolves to the UserError it fails with. */
async function failureOf(change: (input: string) => Promise<unknown>): Promise<UserError> {
  const input = await copySample();
  await change(input);
  const error = await build({ input, out: path.join(input, '..', 'public') }).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(StageError);
  const cause = (error as StageError).cause;
  expect(cause).toBeInstanceOf(UserError); // the CLI prints a UserError as its message alone, no stack trace
  expect((cause as Error).message).not.toMatch(/\n/);
  return cause as UserError;
}

const writeJson = (input: string, rel: string, value: unknown) => fs.outputJson(path.join(input, rel), value);

describe('curated and key files with hostile values', () => {
  for (const timezone of ['JST', '+99:99', '+09:75']) {
    it(`meta.json timezone ${timezone}: refused naming the file`, async () => {
      const error = await failureOf((input) => writeJson(input, 'meta.json', { timezone }));
      expect(error.message).toMatch(new RegExp(`meta\\.json: timezone "\\${timezone}" is not an offset like \\+09:00`));
    });
  }

  const unportable: [string, RegExp][] = [
    ['CON', /Windows reserves it for a device/],
    ['nul.json', /Windows reserves it for a device/],
    ['a:b', /a character Windows refuses/],
    ['v1.', /ends with "\." or a space/],
    ['caf\u0065\u0301', /not in Unicode normal form C/],
    ['版'.repeat(70), /longer than 200 bytes/],
  ];
  for (const [truthVersion, why] of unportable) {
    it(`meta.json truth_version ${JSON.stringify(truthVersion).slice(0, 20)}, which cannot name a file everywhere: refused in one line`, async () => {
      const error = await failureOf((input) => writeJson(input, 'meta.json', { truth_version: truthVersion }));
      expect(error.message).toMatch(/meta\.json: \/truth_version: ".*" cannot name a file on every system: /);
      expect(error.message).toMatch(why);
    });
  }

  for (const truthVersion of ['Index', 'INDEX', 'iNdEx']) {
    it(`meta.json truth_version ${truthVersion}, whose change list would be changes/index.json on some disk: refused in one line`, async () => {
      const error = await failureOf((input) => writeJson(input, 'meta.json', { truth_version: truthVersion }));
      expect(error.message).toMatch(new RegExp(`meta\\.json: /truth_version: "${truthVersion}" cannot name a change list: api/v1/changes/${truthVersion}\\.json would be the site's api/v1/changes/index\\.json on a case-insensitive file system$`));
    });
  }

  it('a truth_version differing from an earlier one of the site only by case: refused in one line, the site kept', async () => {
    const { out, before } = await publishedSample();
    const input = await copySample();
    const meta = await fs.readJson(path.join(input, 'meta.json'));
    await writeJson(input, 'meta.json', { ...meta, truth_version: meta.truth_version.toUpperCase() });
    const error = await build({ input, out }).then(() => null, (e: unknown) => (e as StageError).cause as Error);
    expect(error).toBeInstanceOf(UserError);
    expect(error!.message).toBe(`${path.join(input, 'meta.json')}: /truth_version: "${meta.truth_version.toUpperCase()}" differs from the earlier version "${meta.truth_version}" only by case or Unicode form, so on some file systems both change lists would be the one file api/v1/changes/${meta.truth_version}.json; use "${meta.truth_version}" or another name`);
    expect(await snapshot(out)).toEqual(before);
  });

  it('with --since, the versions compared with are the --since site\'s, not those of the output folder', async () => {
    const { out: since } = await publishedSample();
    const input = await copySample();
    const meta = await fs.readJson(path.join(input, 'meta.json'));
    await writeJson(input, 'meta.json', { ...meta, truth_version: meta.truth_version.toUpperCase() });
    const out = path.join(await tempDir(), 'public');
    const error = await build({ input, out, since }).then(() => null, (e: unknown) => (e as StageError).cause as Error);
    expect(error).toBeInstanceOf(UserError);
    expect(error!.message).toMatch(/differs from the earlier version .* only by case or Unicode form/);
    expect(await fs.pathExists(out)).toBe(false);
  });

  it('release_info.json with a key that is not 16 bytes of base64: refused naming the file and release', async () => {
    const error = await failureOf((input) => writeJson(input, 'release_info.json', { 7: 'c2hvcnQ=' }));
    expect(error.message).toMatch(/release_info\.json: key for release 7 is not a base64 16-byte key/);
  });

  for (const date of [1e15, -1, '2019/13/45 25:61:61', '2019/02/30 10:00:00', '0050/01/01 00:00:00']) {
    it(`a curated date ${JSON.stringify(date)} out of range: refused naming the file and entry`, async () => {
      const error = await failureOf((input) => writeJson(input, 'release_dates.json', { 3: date }));
      expect(error.message).toMatch(/release_dates\.json: \/3: .* is not a date \(1970 to 9999/);
    });
  }

  it('a curated file that does not fit its schema: refused naming the file and the JSON path', async () => {
    const sets = await failureOf((input) => writeJson(input, 'sets.json', [{ id: 'ok', display_name: 'x', ordinals: [1, 'two'] }]));
    expect(sets.message).toMatch(/sets\.json: \/0\/ordinals\/1: Expected integer/);
    const translations = await failureOf((input) => writeJson(input, 'translations/zz.json', { 'あ': 1 }));
    expect(translations.message).toMatch(/zz\.json: \/あ: Expected string/);
    const meta = await failureOf((input) => writeJson(input, 'meta.json', { truth_version: 7 }));
    expect(meta.message).toMatch(/meta\.json: \/truth_version: Expected string/);
  });

  it('release_info.json in the published list form [{"id", "key"}] opens the same rows', async () => {
    const input = await copySample();
    const keys = await fs.readJson(path.join(input, 'release_info.json'));
    await writeJson(input, 'release_info.json', Object.entries(keys).map(([id, key]) => ({ id: Number(id), key })));
    const cards = async (dir: string) => (await renderInMemory(dir)).json('api/v1/card_list.json').stubs;
    expect(await cards(input)).toEqual(await cards(SAMPLE_INPUT));
  });

  it('a gacha ending in the year 33658: refused naming the gacha', async () => {
    const error = await failureOf((input) => writeJson(input, 'gachas.json', [{ id: 'g', name: 'G', start: 0, end: 1e12, ordinals: [] }]));
    expect(error.message).toMatch(/gachas\.json: \/0\/end: .* is not a date/);
  });
});

describe('folders of the export that are files', () => {
  for (const folder of ['en', 'assets', 'translations']) {
    it(`${folder}/ as a file: refused naming it`, async () => {
      const error = await failureOf(async (input) => {
        await fs.remove(path.join(input, folder));
        await fs.writeFile(path.join(input, folder), 'x');
      });
      expect(error.message).toMatch(new RegExp(`${folder}: expected a folder`));
    });
  }
});

describe('files that are not files', () => {
  const mkfifo = (file: string) => fs.remove(file).then(() => execFileSync('mkfifo', [file]));

  for (const rel of ['meta.json', 'release_info.json', 'unit.sql', 'sets.json', 'translations/titles.json', 'assets/image/units/u_normal_icon_1003.png']) {
    it(`${rel} as a named pipe: refused in one line naming it, the lock released`, async () => {
      const input = await copySample();
      await fs.ensureDir(path.dirname(path.join(input, rel)));
      await mkfifo(path.join(input, rel));
      // The sample's site: the build that shows the lock free has nothing to do but take it.
      const out = await copySite((await buildSample()).out);
      const error = await build({ input, out }).then(() => null, (e: unknown) => (e as StageError).cause as Error);
      expect(error).toBeInstanceOf(UserError);
      expect(error!.message).toBe(`${path.join(input, rel)}: a named pipe, not a regular file; only regular files are read from the input folder`);
      // No build holds the output folder's lock any more.
      await fs.remove(path.join(input, rel));
      await expect(build({ input: SAMPLE_INPUT, out })).resolves.toBeDefined();
    });
  }

  it('the readers themselves open without blocking and read only regular files, up to their size limit', async () => {
    const input = await copySample();
    await mkfifo(path.join(input, 'meta.json'));
    expect(() => readMeta(input)).toThrow(new UserError(`${path.join(input, 'meta.json')}: a named pipe, not a regular file; only regular files are read from the input folder`));
    expect(() => readRegularBytes('/dev/zero', 1024)).toThrow(/^\/dev\/zero: a device, not a regular file/);
    await fs.truncate(path.join(input, 'sets.json'), MAX_JSON_BYTES + 1); // sparse: no disk used
    expect(() => readSets(input)).toThrow(`sets.json: ${MAX_JSON_BYTES + 1} bytes; files over 32 MiB in the input folder are refused`);
  });
});

describe('texts too long to copy into every card', () => {
  it('a skill name of 1 MB in the database: refused in one line naming the table, row and column', async () => {
    const error = await failureOf((input) => editDump(input, 'unit.sql', "UPDATE unit_skill_m SET name = replace(hex(zeroblob(524288)), '0', 'x') WHERE rowid = 1;"));
    expect(error.message).toMatch(/unit\.sql: unit_skill_m row 1 \(unit_skill_id \d+\): name is 1048576 characters long; texts over 1024 characters are refused$/);
  });

  it('an integer beyond 2^53 in the database: refused in one line naming the table, row and column, never published rounded', async () => {
    const error = await failureOf((input) => editDump(input, 'unit.sql', 'UPDATE unit_m SET hp_max = 9007199254740993 WHERE rowid = 2;'));
    expect(error.message).toMatch(/unit\.sql: unit_m row 2 \(unit_id \d+\): hp_max is 9007199254740993; integers beyond ±9007199254740991 \(2\^53 - 1\) have no exact JSON number and are refused$/);
    const negative = await failureOf((input) => editDump(input, 'unit.sql', 'UPDATE unit_skill_m SET max_level = -9007199254740992 WHERE rowid = 1;'));
    expect(negative.message).toMatch(/unit_skill_m row 1 \(unit_skill_id \d+\): max_level is -9007199254740992;/);
  });

  it('a translation of 2,000 characters: refused naming the file and its JSON path', async () => {
    const error = await failureOf((input) => writeJson(input, 'translations/long.json', { 'あ': 'x'.repeat(2000) }));
    expect(error.message).toMatch(/long\.json: \/あ: a text of 2000 characters; texts over 1024 characters are refused$/);
  });

  it('a site larger than the limit is refused as its files are added, before anything is published', async () => {
    const { staging, files } = await newStaging();
    files.set('small.json', Buffer.from('{}'));
    // Only the length is looked at before the limit refuses the file.
    expect(() => files.set('huge.bin', { length: MAX_SITE_BYTES } as Buffer)).toThrow(new UserError('the site would be larger than 16 GiB (at huge.bin); refusing to publish it'));
    await staging.abort();
  });
});

describe('duplicate ids in the databases', () => {
  const cases = [
    { table: 'unit_m', key: 'unit_id', id: 1003 },
    { table: 'accessory_m', key: 'accessory_id', id: 1 },
    { table: 'album_series_m', key: 'album_series_id', id: 1 },
  ];
  for (const { table, key, id } of cases) {
    it(`${table}: two rows with one ${key} are refused naming the table and key`, async () => {
      const error = await failureOf((input) => editDump(input, 'unit.sql', `INSERT INTO ${table} SELECT * FROM ${table} WHERE ${key} = ${id};`));
      expect(error.message).toMatch(new RegExp(`unit\\.sql: ${table} has more than one row with ${key} ${id}$`));
    });
  }
});

describe('unit_number values that are no ordinal', () => {
  const odd = { 1003: '9e999', 1006: '12.5', 1009: "'0x20'", 1012: '-3', 1015: "'text'", 1018: 'NULL' };
  it('are left out, counted in one warning line with the first few in full; nothing like card/Infinity.json is published', async () => {
    const input = await copySample();
    await editDump(input, 'unit.sql', Object.entries(odd).map(([id, n]) => `UPDATE unit_m SET unit_number = ${n} WHERE unit_id = ${id};`).join('\n'));
    const { files, report, json } = await renderInMemory(input);
    const warning = (id: number, shown: string) => `unit_m: unit_id ${id} has unit_number ${shown}, not a whole number from 1 to 999999999; the card is left out`;
    expect(report.warningKinds['unit_m: rows whose unit_number is no ordinal']).toEqual({
      count: 6, examples: [warning(1003, 'Infinity'), warning(1006, '12.5'), warning(1009, '"0x20"')],
    });
    expect(report.warnings.filter((w) => w.includes('unit_number'))).toEqual([
      `unit_m: rows whose unit_number is no ordinal (6 warnings): ${warning(1003, 'Infinity')} / ${warning(1006, '12.5')} / ${warning(1009, '"0x20"')} / and 3 more`,
    ]);
    // What the card folder would hold: its files and folders.
    const published = new Set([...files.keys()].filter((rel) => rel.startsWith('api/v1/card/')).map((rel) => rel.split('/')[3]));
    expect([...published].filter((name) => !/^(\d+|set_list)\.json$/.test(name))).toEqual([]);
    const list = json(endpoints.cardList.file());
    expect(list.stubs.map((c: { id: number }) => c.id)).not.toContain(1003);
  });
});

describe('links in the input folder', () => {
  const icon = 'assets/image/units/u_rankup_icon_1102.png';

  it('a picture linking outside the input folder is not read; one linking inside it is', async () => {
    const input = await copySample();
    const outside = path.join(await tempDir(), 'private.png');
    await fs.move(path.join(input, icon), outside);
    await fs.symlink(outside, path.join(input, icon));
    const inside = 'assets/image/units/u_rankup_icon_1033.png';
    await fs.move(path.join(input, inside), path.join(input, 'shared.png'));
    await fs.symlink(path.join(input, 'shared.png'), path.join(input, inside));
    const { report } = await buildInto(input);
    const { report: sample } = await buildSample();
    // 1102's idolized icon is missing; 1033's is published as before.
    expect(report.images).toMatchObject({ missing: sample.images.missing + 1, published: sample.images.published - 1 });
  });

  it('a linked folder leading outside is not entered, and link cycles never hang the build', async () => {
    const input = await copySample();
    const outside = await tempDir();
    await fs.move(path.join(input, 'assets/image'), path.join(outside, 'image'));
    await fs.symlink(path.join(outside, 'image'), path.join(input, 'assets/image'));
    await fs.symlink('..', path.join(input, 'assets/up'));
    await fs.symlink('.', path.join(input, 'assets/self'));
    await fs.symlink('loop-b', path.join(input, 'assets/loop-a'));
    await fs.symlink('loop-a', path.join(input, 'assets/loop-b'));
    const { report } = await buildInto(input);
    expect(report.images.published).toBe(0);
    expect(report.images.missing).toBeGreaterThan(0);
  });

  it('a database, translation or curated file linking outside is not read', async () => {
    const input = await copySample();
    const outside = await tempDir();
    await fs.move(path.join(input, 'translations/titles.json'), path.join(outside, 'titles.json'));
    await fs.symlink(path.join(outside, 'titles.json'), path.join(input, 'translations/titles.json'));
    await fs.move(path.join(input, 'unit.sql'), path.join(outside, 'unit.sql'));
    await fs.symlink(path.join(outside, 'unit.sql'), path.join(input, 'unit.sql'));
    await expect(buildInto(input)).rejects.toThrow(/no unit database found/);
    await fs.move(path.join(outside, 'unit.sql'), path.join(input, 'unit.sql'), { overwrite: true });
    expect(JSON.stringify((await renderInMemory(input)).json('api/v1/tl/0.json'))).not.toMatch(/First Morning/);
    await fs.writeJson(path.join(outside, 'meta.json'), { timezone: '+09:00' });
    await fs.remove(path.join(input, 'meta.json'));
    await fs.symlink(path.join(outside, 'meta.json'), path.join(input, 'meta.json'));
    await expect(buildInto(input)).rejects.toThrow(/meta\.json: a link leading outside the input folder/);
  });
});
