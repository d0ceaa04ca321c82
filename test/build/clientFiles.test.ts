/** Databases as the client stores them on a device: whole-file encryption, every version and region. */
import path from 'node:path';
import fs from 'fs-extra';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_INPUT, buildInto, buildSample, copySample, renderInMemory, tempDir } from '../helpers.ts';
import { dumpToClientDb, snapshot } from '../exportEdits.ts';
import {
  CLIENT_REGIONS, SQLITE_MAGIC, decryptClientFile, detectScheme, describeScheme, type FileScheme,
} from '../../generator/build/input/fileCipher.ts';
import { encryptClientFile } from '../../generator/build/sample/fileEncrypt.ts';
import { writeSampleExport } from '../../generator/build/sample/make-sample.ts';

const VERSIONS: FileScheme[] = [
  { region: 'jp', version: 1 }, { region: 'jp', version: 2 }, { region: 'jp', version: 3 },
  { region: 'jp', version: 3, flipped: true }, { region: 'jp', version: 4, generator: 1 },
  { region: 'jp', version: 5 }, { region: 'jp', version: 6 },
];
/** Every version in JP, every region in each version. */
const SCHEMES: FileScheme[] = [
  ...VERSIONS,
  ...CLIENT_REGIONS.filter((r) => r !== 'jp').flatMap((region) => VERSIONS.map((v) => ({ ...v, region }))),
];

/** The sample as a device holds it: client files (db/<group>/<name>.db_, the English ones too), each encrypted with `scheme`. */
async function encryptedSample(scheme: FileScheme, images = false): Promise<string> {
  const input = await tempDir('sif-device-');
  await writeSampleExport(input, { format: 'sqlite', encrypt: scheme, images });
  return input;
}

describe('the client file cipher', () => {
  const plain = Buffer.concat([SQLITE_MAGIC, Buffer.from(Array.from({ length: 4093 }, (_, i) => (i * 7) & 0xff))]);

  for (const scheme of SCHEMES) {
    it(`${describeScheme(scheme)}: found from the header and name, and decrypted back`, () => {
      const encrypted = encryptClientFile(plain, scheme, 'unit.db_');
      expect(encrypted.subarray(0, 16).equals(plain.subarray(0, 16))).toBe(false);
      const found = detectScheme(encrypted, 'unit.db_');
      expect(found.scheme).toEqual({ ...scheme, flipped: scheme.version === 3 ? !!scheme.flipped : undefined, generator: scheme.version === 4 ? 1 : undefined });
      expect(decryptClientFile(encrypted, found.scheme!, 'unit.db_').equals(plain)).toBe(true);
      // The key is the name's: under another name nothing opens it.
      expect(detectScheme(encryptClientFile(plain, scheme, 'unit.db_'), 'item.db_').scheme).toBeNull();
    });
  }
});

describe('agreement with HonokaMiku', () => {
  /**
   * Header and first 24 key-stream bytes of a file as HonokaMiku 5.0's own encrypter wrote
   * them (a SQLite file XORed with its output), so a mistake made alike in our encrypter and
   * decrypter cannot pass unseen.
   */
  const KNOWN: [FileScheme, string, string, string?][] = [
    [{ region: 'jp', version: 1 }, '', 'fef03603fef0360cfef03615fef0361efef03627fef03630'],
    [{ region: 'jp', version: 2 }, '39056a19', 'fde098d4a72833ee5c902596db0cfd561a2edfb8c954cd44'],
    [{ region: 'jp', version: 3 }, 'c6fa950c000000000000050700000000', '01e5d53c086a61a499a23fad066d861d1b66c67cdde3fa06'],
    [{ region: 'jp', version: 4, generator: 0 }, 'c6fa950c2c0000020000000000000000', '73d0b0d1a77a472da8d8eff4b2d0bd42ab744d0b3b3a9714'],
    [{ region: 'ww', version: 1 }, '', '989cf20a989cf213989cf21c989cf225989cf22e989cf237'],
    [{ region: 'ww', version: 2 }, 'e080f032', '3139cfac645d4ecdaae8737d54b29410bfc3db724ccc1a64'],
    [{ region: 'ww', version: 3 }, '1f7f0f0c000000000000065f00000000', 'a40fbc5432dd184ee84ba971c96d1086ad5d5f6909e4fdec'],
    [{ region: 'tw', version: 1 }, '', 'd1568debd1568df4d1568dfdd1568e06d1568e0fd1568e18'],
    [{ region: 'tw', version: 2 }, '95597f6f', 'a2ad12fe178fd455429fdd6fb394de55b6991a0d89a6f816'],
    [{ region: 'tw', version: 3 }, '6aa6800c000000000000072e00000000', '647c268b48ca650dd577bdd9327f296ad40bd1a0629928aa'],
    [{ region: 'cn', version: 1 }, '', '68de8a1d68de8a2668de8a2f68de8a3868de8a4168de8a4a'],
    [{ region: 'cn', version: 2 }, 'b3c0e48e', 'd1bdd47beda7a6cd172c6251de39a3c1e194d8bab962f3b1'],
    [{ region: 'cn', version: 3 }, '4c3f1b0c0000000000000a4a00000000', '69833602ea27d0bed1ed8fa69b41e4936ecf922402fc1ef2'],
    // Another name: another key, name sum and V1 step.
    [{ region: 'jp', version: 1 }, '', '59b05c9259b05ca359b05cb459b05cc559b05cd659b05ce7', 'event_common.db_'],
    [{ region: 'jp', version: 2 }, 'ab686abf', 'b360931be3b069a757459aebef587e728f73035375b6013d', 'event_common.db_'],
    [{ region: 'jp', version: 3 }, '5497950c000000000000085100000000', '4d4e2175e696684875d3ea23808ffd816b6b933fc48d14de', 'event_common.db_'],
    [{ region: 'jp', version: 4, generator: 0 }, '5497950c2c0000020000000000000000', '646948ea160eaf17586c88415d5b80dc7f817a4a35f24433', 'event_common.db_'],
    [{ region: 'ww', version: 1 }, '', '5b34af635b34af745b34af855b34af965b34afa75b34afb8', 'event_common.db_'],
    [{ region: 'cn', version: 3 }, '1d68810c0000000000000d9400000000', 'dbb3e563ae4592d523f0242f7711b001d9b56cd46d7a98c2', 'event_common.db_'],
  ];
  for (const [scheme, header, keyStream, name = 'unit.db_'] of KNOWN) {
    it(`${describeScheme(scheme)} ${name}: the same header and key stream`, () => {
      expect(encryptClientFile(Buffer.alloc(24), scheme, name).toString('hex')).toBe(header + keyStream);
    });
  }
});

describe('an encrypted sample', () => {
  let plainFiles: Map<string, Buffer>;
  beforeAll(async () => {
    plainFiles = (await renderInMemory(SAMPLE_INPUT)).files;
  });

  // Every version once, the regions taking turns (the cipher tests above cover every pair).
  const rotated = VERSIONS.map((v, i) => ({ ...v, region: CLIENT_REGIONS[i % CLIENT_REGIONS.length] }));
  for (const scheme of rotated) {
    it(`${describeScheme(scheme)}: renders byte-identical output, decrypted in memory only`, async () => {
      const input = await encryptedSample(scheme);
      const before = await snapshot(input);
      const { files, report } = await renderInMemory(input);
      expect([...files.keys()]).toEqual([...plainFiles.keys()]);
      expect([...files].filter(([rel, bytes]) => !bytes.equals(plainFiles.get(rel)!)).map(([rel]) => rel)).toEqual([]);
      expect(report.databases.map((d) => [path.relative(input, d.file), d.encryption])).toEqual([
        ['db/unit/unit.db_', describeScheme(scheme)], ['db/event/event_common.db_', describeScheme(scheme)], ['db/live/live.db_', describeScheme(scheme)],
        ['en/db/unit/unit.db_', describeScheme(scheme)], ['en/db/event/event_common.db_', describeScheme(scheme)], ['en/db/live/live.db_', describeScheme(scheme)],
      ]);
      expect(await snapshot(input)).toEqual(before);
    });
  }

  it('builds the same site as the plain sample, byte for byte', async () => {
    const { out: plain } = await buildSample();
    const { out } = await buildInto(await encryptedSample({ region: 'jp', version: 3 }, true));
    const hashes = async (dir: string) => [...(await snapshot(dir)).files].map(([rel, f]) => [rel, f.sha256]);
    expect(await hashes(out)).toEqual(await hashes(plain));
  });

  it('says when a CN or TW file is read at a zone meta.json did not choose', async () => {
    const input = await encryptedSample({ region: 'cn', version: 2 });
    await fs.writeJson(path.join(input, 'meta.json'), { truth_version: 'cn' });
    expect((await renderInMemory(input)).report.warnings).toContainEqual(expect.stringMatching(/unit\.db_: a CN client file, but meta\.json names no region.*"region": "cn"/));
    await fs.writeJson(path.join(input, 'meta.json'), { truth_version: 'cn', region: 'cn' });
    expect((await renderInMemory(input)).report.warnings.filter((w) => w.includes('client file'))).toEqual([]);
  });
});

describe('databases in WAL mode (as an app may keep them)', () => {
  /** The sample's unit database as a plain WAL-mode file at db/unit/unit.db_ (every page checkpointed into it). */
  async function walUnit() {
    const input = await copySample();
    const file = await dumpToClientDb(input, 'unit');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.close();
    return { input, file, bytes: await fs.readFile(file) };
  }

  it('read from the main file alone, plain or encrypted, writing nothing beside the input', async () => {
    const { input, file, bytes } = await walUnit();
    expect([bytes[18], bytes[19]]).toEqual([2, 2]);
    const plainCard = (await renderInMemory(SAMPLE_INPUT)).json('api/v1/card/5.json');
    for (const content of [bytes, encryptClientFile(bytes, { region: 'jp', version: 3 }, 'unit.db_')]) {
      await fs.writeFile(file, content);
      const before = await snapshot(input);
      expect((await renderInMemory(input)).json('api/v1/card/5.json')).toEqual(plainCard);
      expect(await snapshot(input)).toEqual(before);
    }
  });
});

describe('client files that do not open', () => {
  const plainUnit = async () => {
    const input = await copySample();
    const file = await dumpToClientDb(input, 'unit');
    return { input, file, bytes: await fs.readFile(file) };
  };

  it('neither SQLite nor encrypted: one line naming the file, its size and what was tried', async () => {
    const input = await tempDir();
    const file = path.join(input, 'db/unit/unit.db_');
    await fs.outputFile(file, Buffer.alloc(5000, 0x5a));
    await expect(buildInto(input)).rejects.toThrow(new RegExp(
      `^read stage: ${escape(file)}: not a readable SQLite database \\(5000 bytes: not plain SQLite, and no client encryption opens it: `
      + 'tried versions V1 to V6 with the JP, EN/WW, TW, CN keys for the name unit\\.db_; the key depends on the name the client stores the file under, such as unit\\.db_\\)$',
    ));
  });

  it('encrypted under another client name: says which name the key needs', async () => {
    const { input, file, bytes } = await plainUnit();
    await fs.writeFile(file, encryptClientFile(bytes, { region: 'jp', version: 3 }, 'item.db_'));
    await expect(buildInto(input)).rejects.toThrow(/unit\.db_: not a readable SQLite database \(\d+ bytes: a JP V3 client file encrypted under the name item\.db_; its key depends on that name, so give the file that name\)/);
  });

  it('copied flat as unit.db: read with the client name unit.db_ its key needs', async () => {
    const { input, file, bytes } = await plainUnit();
    await fs.remove(file);
    await fs.writeFile(path.join(input, 'unit.db'), encryptClientFile(bytes, { region: 'ww', version: 4, generator: 3 }, 'unit.db_'));
    const { report } = await renderInMemory(input);
    expect(report.databases[0]).toMatchObject({ form: 'client file', encryption: 'EN/WW V4', keyName: 'unit.db_' });
  });

  it('a header naming an encryption sub-version nobody describes: says so', async () => {
    const { input, file, bytes } = await plainUnit();
    const encrypted = encryptClientFile(bytes, { region: 'tw', version: 6 }, 'unit.db_');
    encrypted[7] = 9;
    await fs.writeFile(file, encrypted);
    await expect(buildInto(input)).rejects.toThrow(/a TW client file whose header names encryption sub-version 9, which no public description covers/);
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
