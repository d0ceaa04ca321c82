/** Shared test fixtures: temporary folders, the sample build, and exports built from code. */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'fs-extra';
import { afterAll } from 'vitest';
import { build } from '../generator/build.ts';
import { BuildReport } from '../generator/report.ts';
import { closeExport, readExport } from '../generator/input/readExport.ts';
import { buildModel, type Model } from '../generator/model/buildModel.ts';
import { dumpSql, type TableDump } from '../generator/sample/sql.ts';
import { openSql } from '../generator/input/sqlDump.ts';

export const SAMPLE_INPUT = fileURLToPath(new URL('../input', import.meta.url));

const created: string[] = [];

/** A new temporary folder, removed when the test file is done. */
export async function tempDir(prefix = 'sif-test-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

afterAll(() => Promise.all(created.splice(0).map((dir) => fs.remove(dir))));

export async function readJson<T = any>(dir: string, rel: string): Promise<T> {
  return JSON.parse(await fs.readFile(path.join(dir, rel), 'utf8')) as T;
}

/** Builds `input` into a fresh temporary output folder. */
export async function buildInto(input: string) {
  const out = path.join(await tempDir(), 'public');
  const report = await build({ input, out });
  return { out, report };
}

/** The shipped sample, built once per test file that asks for it. */
let sampleBuild: Promise<Awaited<ReturnType<typeof buildInto>>> | undefined;
export function buildSample() {
  sampleBuild ??= buildInto(SAMPLE_INPUT);
  return sampleBuild;
}

/** A copy of the sample export that a test may change freely. */
export async function copySample(): Promise<string> {
  const dir = path.join(await tempDir(), 'input');
  await fs.copy(SAMPLE_INPUT, dir);
  return dir;
}

/** Writes tables as a database file at `rel` under `dir`: a SQL dump for *.sql, else a real SQLite file. */
export async function writeDb(dir: string, rel: string, tables: TableDump[]): Promise<string> {
  const file = path.join(dir, rel);
  await fs.ensureDir(path.dirname(file));
  const sql = dumpSql(tables);
  if (file.endsWith('.sql')) {
    await fs.writeFile(file, sql);
  } else {
    openSql(sql, file).close();
  }
  return file;
}

/** Reads an export folder and builds its model, as the build's read and model stages do. */
export function modelAt(input: string): { model: Model; report: BuildReport } {
  const report = new BuildReport();
  const game = readExport(input, report, '0'.repeat(64));
  try {
    return { model: buildModel(game, report), report };
  } finally {
    closeExport(game);
  }
}

/** Writes an export folder from code, builds its model, then deletes the folder. Keys ending in .sql or .db_ are databases (tables), others JSON files. */
export async function modelOf(files: Record<string, TableDump[] | unknown>): Promise<{ model: Model; report: BuildReport }> {
  const input = await tempDir('sif-model-');
  try {
    for (const [rel, content] of Object.entries(files)) {
      if (/\.(sql|db_)$/.test(rel)) await writeDb(input, rel, content as TableDump[]);
      else await fs.outputJson(path.join(input, rel), content);
    }
    return modelAt(input);
  } finally {
    await fs.remove(input);
  }
}
