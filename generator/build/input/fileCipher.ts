/**
 * WHOLE-FILE encryption of the game client's databases: what a phone stores as
 * `db/unit/unit.db_` is the SQLite file XORed with a key stream derived from a region
 * prefix and the file's base name (the scheme the open-source decrypter HonokaMiku
 * and its successor libhonoka document, MIT licensed; this is our own implementation).
 * Not to be confused with input/rowCipher.ts: encrypted ROWS inside a readable database
 * (AES with release keys).
 *
 * Versions, told apart by the file's header:
 * - V1: no header; XOR with a 32-bit key that grows by (name length + 1) every 4 bytes.
 * - V2: 4 header bytes = MD5(prefix + name)[4..7]; Park-Miller generator, 2 bytes a step.
 * - V3-V6: 16 header bytes; bytes 0-2 = NOT MD5(prefix + name)[4..6], byte 3 = 0x0C,
 *   byte 7 the sub-version: 0 V3 (key from the region's table by name sum, bytes 10-11),
 *   1 V3 with that key inverted, 2 V4 (key MD5[8..11], generator picked by byte 6),
 *   3 V5 (inverted V4 key, generator picked by the name, each byte also XORed with the
 *   previous encrypted byte), 4 V6 (two generators XORed, keys MD5[8..11] and MD5[12..15]).
 * Only V1-V4 are described by HonokaMiku itself; V5 and V6 follow libhonoka's description.
 */
import { createHash } from 'node:crypto';

export type ClientRegion = 'jp' | 'ww' | 'tw' | 'cn';

/** How a client file is encrypted. */
export interface FileScheme {
  region: ClientRegion;
  version: 1 | 2 | 3 | 4 | 5 | 6;
  /** V3 only: the table key inverted (sub-version 1). */
  flipped?: boolean;
  /** V4 only: which generator (header byte 6). */
  generator?: number;
}

interface RegionKeys {
  label: string;
  prefix: string;
  /** V3 keys, picked by the name sum. */
  table: number[];
}

const hexWords = (hex: string): number[] => Array.from({ length: hex.length / 8 }, (_, i) => parseInt(hex.slice(i * 8, i * 8 + 8), 16));

/** KR clients use JP's prefix (their files read as JP V2). */
const REGIONS: Record<ClientRegion, RegionKeys> = {
  jp: {
    label: 'JP',
    prefix: 'Hello',
    table: hexWords(
      '48230029678418be3d6c4ae172ae2cd65f9069526df1164941bb5af101eb26e92ea60bb3153c12db390c7e8700990f3e305e0124491c440d4db74d0654de1547' +
      '2d1239b34dc8074d66bb644326a6428b5d03701f767d7a5a123845091e1f3b251ad46e5d6bfc63cb7ff57f96323b4e45260d2213030a6b890bdb301c073256ae' +
      '759a012022ee235058784b405cfd6b361a493e123bf65f32797d3a9e0ddc5f49314f4cad4df25e142e4049441cd0136666c4366b7eb742302c3b6032542215a1' +
      '08223ef6409d5991798b12e173da121f26ca58b00902369957727bb97049139d4a80692c16c5187e3cd56899408013e933ea5db248cc23c960bf57533cd65c67',
    ),
  },
  ww: {
    label: 'EN/WW',
    prefix: 'BFd3EnkcKa',
    table: hexWords(
      'aa90a916d7f5c1a3e10ad2bfc3d3b9c583cb5955b77d66681bb3fd4c2a9615a31a38745e19181f07b2aa3584259853c758bd2c454f900893baf438212f7ed7fd' +
      '9b43e409f08d83ff29576003441418cd450a1c0421df6991d7df966fd9464f22f5e08a84c04f6a97b836fd1d44350c3534701da4aecdf62f723b91dfa42e3c00' +
      '58c237d8d3e8de648c4c84a56449903025e4aec1cdf4b9081fbd52edf4c5fb097c1751660886a95c9d36c4b24400e964cad08e9f13f1e6116fbb1161337ad8cf' +
      '62763d124882d35ca2c5873a58be5c40a59b2030ecde179b5f7e1daaab7ef80153d2481355f48afd82e9de809aefa31db0a2a22fc5b0037e133cdaebd280c2a3',
    ),
  },
  tw: {
    label: 'TW',
    prefix: 'M2o2B7i3M6o6N88',
    table: hexWords(
      'a925e5185ab9c4a401950558acff7182e81833319d1b69630b8e9d1596dad0bb0f941e35c968e3632058a6aa7176bb024a4b2403ed7a4e233bb41ee671634c06' +
      '7e0dd1da343325c9e97b42f6f68f3c8f1587ded809935f9b3273309befbc317894c01bdd40cea3bbd5785c8a0ec1b98ec8d2d2b6ef7d77b171814aaf2e838eab' +
      '6b187f58a9bc924e6eab5ba6738f6d2fc1b49aa4ab6a5d53f958f7285a0cdb5bb8133931923336c3b5a41de05f819b331f3a76af56fb7a7c64ae7167f39c00f2' +
      '8f6f61c46a79b9b95b0ab1a6b7f07a0a223035ff1aa8664c553edb16379230c6a2aeeb8af647d0eaa91cb2f6bb70f81794d6358149a7fad67beddd15c6913ced',
    ),
  },
  cn: {
    label: 'CN',
    prefix: 'iLbs0LpvJrXm3zjdhAr4',
    table: hexWords(
      '1b6956580a43a2130ead08631400056dd470461db6152300fbe054bc9ac9f11223d3cab6cd8fe0286905bd7401a3a6126e96a579333d7ad1b6688bff29160495' +
      'd7743bcf8ede97bbcacb7e8d24d81c23dbfc6947b07521c8f506e2ae3f48df2f52beb172695935e813e2a0a9e2edf40996cba5c1dbb1e8904c2af96817fd17c6' +
      '1b9af5a897c0bc258413c879d9b13fe14066a9489662023a74a4feee1f24b4f6637688c87a7ccf7091042eec57edd02c666da2dd92839de943baa9ed024a8e2c' +
      'd4ee7b7234c18b7213b275c4ed506a6ebc1c29b9fa66a220c2364de3767e52b2e2d32439e6f0cef5d18c868714bba295cd84d15ba0290f82d3e95afc9c6a97b4',
    ),
  },
};

export const CLIENT_REGIONS = Object.keys(REGIONS) as ClientRegion[];
/** "JP", "EN/WW", "TW", "CN". */
export const regionLabel = (region: ClientRegion): string => REGIONS[region].label;

/** Linear congruential generators of V3-V6: state * mul + add (mod 2^32), key byte = state >>> shift. */
const GENERATORS = [
  { mul: 1103515245, add: 12345, shift: 15 },
  { mul: 22695477, add: 1, shift: 23 },
  { mul: 214013, add: 2531011, shift: 24 },
  { mul: 65793, add: 4282663, shift: 8 },
];
/** V3 always uses this one (Microsoft C's rand). */
const V3_GENERATOR = 2;
/** The first "previous byte" of V5's chaining. */
export const V5_SEED = 89;
/** Header byte 3 of V3-V6 files. */
const V3_MARK = 0x0c;

export const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export const headerSize = (version: FileScheme['version']): number => (version === 1 ? 0 : version === 2 ? 4 : 16);

/** "JP V3", "EN/WW V2": how messages and the report name a scheme. */
export const describeScheme = (s: FileScheme): string => `${regionLabel(s.region)} V${s.version}${s.flipped ? ' (inverted key)' : ''}`;

const md5 = (region: ClientRegion, name: string): Buffer => createHash('md5').update(REGIONS[region].prefix + name, 'utf8').digest();
const word = (bytes: Buffer, at: number): number => bytes.readUInt32BE(at);
const byteSum = (text: string): number => [...Buffer.from(text, 'utf8')].reduce((sum, b) => sum + b, 0);
/** V3's name sum: the prefix's bytes plus the name's, as the header stores it (16 bits). */
const nameSum = (region: ClientRegion, name: string): number => (byteSum(REGIONS[region].prefix) + byteSum(name)) & 0xffff;
/** V5/V6 pick generators from the name's length plus its bytes (V6's second: plus its inverted bytes). */
const generatorOf = (name: string, invert: boolean): number => {
  const bytes = [...Buffer.from(name, 'utf8')];
  return (bytes.length + bytes.reduce((sum, b) => sum + (invert ? ~b : b), 0)) & 3;
};

/** XORs `buf` in place with the key stream of a generator starting at `state`. */
function xorGenerator(buf: Buffer, state: number, generator: number): void {
  const { mul, add, shift } = GENERATORS[generator];
  for (let i = 0; i < buf.length; i++) {
    buf[i] ^= state >>> shift;
    state = (Math.imul(mul, state) + add) >>> 0;
  }
}

/** V2's key update, with HonokaMiku's 32-bit arithmetic (a Park-Miller step, not always fully reduced). */
function v2Next(key: number): number {
  const high = key >>> 16;
  const b = ((Math.imul(high, 0x41a70000) & 0x7fffffff) + (key & 0xffff) * 0x41a7) >>> 0;
  const c = (high * 0x41a7) >>> 15;
  return b > 0x7ffffffe ? (c + b - 0x7fffffff) >>> 0 : (b + c) >>> 0;
}

/**
 * XORs `buf` in place with the key stream of `scheme` for the file `name` (the body from its
 * first byte, after the header). Symmetric for every version; V5 also chains bytes, see
 * unchainV5.
 */
export function xorKeyStream(buf: Buffer, scheme: FileScheme, name: string): void {
  const digest = md5(scheme.region, name);
  switch (scheme.version) {
    case 1: {
      const step = Buffer.byteLength(name, 'utf8') + 1;
      for (let i = 0, key = word(digest, 0); i < buf.length; i++) {
        buf[i] ^= key >>> (24 - 8 * (i & 3));
        if ((i & 3) === 3) key = (key + step) >>> 0;
      }
      return;
    }
    case 2: {
      for (let i = 0, key = word(digest, 0) & 0x7fffffff; i < buf.length; i++) {
        buf[i] ^= (i & 1) ? key >>> 15 : key >>> 23;
        if (i & 1) key = v2Next(key);
      }
      return;
    }
    case 3: {
      const key = REGIONS[scheme.region].table[nameSum(scheme.region, name) & 63];
      return xorGenerator(buf, scheme.flipped ? ~key >>> 0 : key, V3_GENERATOR);
    }
    case 4:
      return xorGenerator(buf, word(digest, 8), (scheme.generator ?? 0) & 3);
    case 5:
      return xorGenerator(buf, ~word(digest, 8) >>> 0, generatorOf(name, false));
    case 6: {
      const second = Buffer.alloc(buf.length);
      xorGenerator(second, word(digest, 12), generatorOf(name, true));
      xorGenerator(buf, word(digest, 8), generatorOf(name, false));
      for (let i = 0; i < buf.length; i++) buf[i] ^= second[i];
      return;
    }
  }
}

/** V5: each encrypted byte was also XORed with the previous encrypted byte; undone in place, from the end. */
export function unchainV5(buf: Buffer): void {
  for (let i = buf.length - 1; i > 0; i--) buf[i] ^= buf[i - 1];
  if (buf.length) buf[0] ^= V5_SEED;
}

/** The header a file of `scheme` named `name` starts with. */
export function schemeHeader(scheme: FileScheme, name: string): Buffer {
  const header = Buffer.alloc(headerSize(scheme.version));
  const digest = md5(scheme.region, name);
  if (scheme.version === 2) digest.copy(header, 0, 4, 8);
  if (scheme.version < 3) return header;
  for (let i = 0; i < 3; i++) header[i] = ~digest[4 + i] & 0xff;
  header[3] = V3_MARK;
  if (scheme.version === 4) {
    header[4] = 0x2c; // as HonokaMiku writes it; readers ignore it
    header[6] = scheme.generator ?? 0;
  }
  header[7] = scheme.version === 3 ? (scheme.flipped ? 1 : 0) : scheme.version - 2;
  if (scheme.version === 3) header.writeUInt16BE(nameSum(scheme.region, name), 10);
  return header;
}

/** A 16-byte header of a V3+ file whose sub-version no public description covers. */
export interface UnknownScheme {
  region: ClientRegion;
  subVersion: number;
}

/** The schemes the header admits for `name`, most specific first; V1 (no header) is always possible. */
function candidates(bytes: Buffer, name: string): { schemes: FileScheme[]; unknown: UnknownScheme[] } {
  const schemes: FileScheme[] = [];
  const unknown: UnknownScheme[] = [];
  for (const region of CLIENT_REGIONS) {
    const digest = md5(region, name);
    const v3 = bytes.length >= 16 && bytes[3] === V3_MARK && [0, 1, 2].every((i) => bytes[i] === (~digest[4 + i] & 0xff));
    if (v3) {
      const sub = bytes[7];
      if (sub <= 1) schemes.push({ region, version: 3, flipped: sub === 1 });
      else if (sub === 2) schemes.push({ region, version: 4, generator: bytes[6] & 3 });
      else if (sub <= 4) schemes.push({ region, version: sub === 3 ? 5 : 6 });
      else unknown.push({ region, subVersion: sub });
    }
    if (bytes.length >= 4 && digest.subarray(4, 8).equals(bytes.subarray(0, 4))) schemes.push({ region, version: 2 });
  }
  for (const region of CLIENT_REGIONS) schemes.push({ region, version: 1 });
  return { schemes, unknown };
}

/** Decrypts `body` (the file after its header) in place. */
function decryptBody(body: Buffer, scheme: FileScheme, name: string): void {
  if (scheme.version === 5) unchainV5(body);
  xorKeyStream(body, scheme, name);
}

/** Whether `scheme` turns the file's first bytes into SQLite's magic (checked on a copy). */
function opensAsSqlite(bytes: Buffer, scheme: FileScheme, name: string): boolean {
  const start = headerSize(scheme.version);
  if (bytes.length < start + SQLITE_MAGIC.length) return false;
  const head = Buffer.from(bytes.subarray(start, start + SQLITE_MAGIC.length));
  decryptBody(head, scheme, name);
  return head.equals(SQLITE_MAGIC);
}

export type Detection = { scheme: FileScheme } | { scheme: null; unknown: UnknownScheme[] };

/** Which scheme, if any, decrypts `bytes` as the client file `name` into SQLite. */
export function detectScheme(bytes: Buffer, name: string): Detection {
  const { schemes, unknown } = candidates(bytes, name);
  const scheme = schemes.find((s) => opensAsSqlite(bytes, s, name));
  return scheme ? { scheme } : { scheme: null, unknown };
}

/** The SQLite bytes of a client file encrypted with `scheme` as `name`. Decrypts in place: `bytes` is spent. */
export function decryptClientFile(bytes: Buffer, scheme: FileScheme, name: string): Buffer {
  const body = bytes.subarray(headerSize(scheme.version));
  decryptBody(body, scheme, name);
  return body;
}
