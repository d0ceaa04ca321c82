/** The build report: on stdout at the end, as JSON beside the site, and progress on stderr. */
import path from 'node:path';
import { Writable } from 'node:stream';
import fs from 'fs-extra';
import { beforeAll, describe, expect, it } from 'vitest';
import { BuildReport, endpointOf } from '../../generator/build/report.ts';
import { progressDisplay } from '../../generator/build/progress.ts';
import { build } from '../../generator/build/build.ts';
import { buildSummary } from '../../generator/build/summary.ts';
import { publishLayout } from '../../generator/build/publish/layout.ts';
import { NOT_FOUND_FILE, endpoints, objectEndpoint } from '../../generator/contract/endpoints.ts';
import { buildSample, SAMPLE_INPUT, tempDir } from '../helpers.ts';
import { snapshot } from '../exportEdits.ts';
import { packOf } from '../../generator/contract/format.ts';
import { runCli as cli } from '../cli.ts';


describe('counts per endpoint', () => {
  it('files with a fixed path count as themselves, others by their folder', () => {
    expect([
      endpoints.card.file(12), endpoints.cardList.file(), endpoints.setList.file(), endpoints.set.file('album-1'), objectEndpoint.card_t.pack.file(packOf(1030)),
      objectEndpoint.char_t.list.file(), endpoints.info.file(), NOT_FOUND_FILE, 'images/card/icon/1030t.webp', 'site/app.js', 'index.html',
    ].map(endpointOf)).toEqual(['card', 'card_list', 'card/set_list', 'set', 'pack/card_t', 'list/char_t', 'info', '404', 'images/card', 'site', 'index.html']);
  });
});

describe('warnings', () => {
  it('of one kind share a line with their count and the first three in full; a lone one stays as it is', () => {
    const report = new BuildReport();
    report.warn('once only');
    for (let card = 1; card <= 5; card++) report.warn(`card ${card}: skill 99 does not exist`, 'cards naming a skill that does not exist');
    report.warn('card 9: character 7 does not exist', 'cards naming a character that does not exist');
    expect(report.warnings).toEqual([
      'once only',
      'cards naming a skill that does not exist (5 warnings): card 1: skill 99 does not exist / card 2: skill 99 does not exist / card 3: skill 99 does not exist / and 2 more',
      'card 9: character 7 does not exist',
    ]);
    expect(report.toJSON().warning_kinds['cards naming a skill that does not exist']).toEqual({
      count: 5, examples: ['card 1: skill 99 does not exist', 'card 2: skill 99 does not exist', 'card 3: skill 99 does not exist'],
    });
  });
});

describe('report.json beside the site', () => {
  let report: Record<string, any>;
  let published: Awaited<ReturnType<typeof snapshot>>;
  beforeAll(async () => {
    const { out } = await buildSample();
    report = await fs.readJson(publishLayout(out).report);
    published = await snapshot(out);
  });

  it('counts every published file once, per endpoint', () => {
    const total = Object.values(report.counts as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(total).toBe(published.files.size);
    const cardFiles = [...published.files.keys()].filter((rel) => /^api\/v1\/card\/\d+\.json$/.test(rel));
    expect(report.counts).toMatchObject({ card: cardFiles.length, card_list: 1, 'card/set_list': 1, info: 1 });
  });

  it('names unreadable rows, warnings, timings of every stage and what changed', () => {
    expect(report).toMatchObject({
      ok: true, error: null, unreadable: { unit_m: 1, live_track_m: 1, live_setting_m: 1 }, unreadable_releases: { 8: { rows: 3, key_given: false } },
      changed: published.files.size, unchanged: 0, removed: 0,
    });
    expect(report.warnings).toContain('sets.json: set rainbow-collection names ordinal 36, which is not a readable card');
    expect(Object.keys(report.timings_ms)).toEqual(['check', 'read', 'model', 'images', 'render', 'search', 'changes', 'history', 'bulk', 'manifest', 'hosts', 'write']);
  });

  it('is not published', () => {
    // The manifests published are the file list (api/v1/manifest.json) and its block sums, not the builder's record.
    expect([...published.files.keys()].filter((rel) => rel.endsWith('report.json') || rel.includes('manifest'))).toEqual([endpoints.manifestBlocks.file(), endpoints.fileManifest.file()]);
  });
});

describe('the CLI summary', () => {
  it('ends with changed/unchanged/removed, counts, timings and the report path; a rebuild says 0 changed', async () => {
    const out = path.join(await tempDir(), 'public');
    const first = await cli('--input', SAMPLE_INPUT, '--out', out);
    expect(first.stdout).toMatch(/^build: \d+ changed, 0 unchanged, 0 removed\n/);
    expect(first.stdout).toMatch(/\nfiles: .*card=35 .*card_list=1/);
    expect(first.stdout).toMatch(/\nunreadable encrypted rows: unit_m=1 live_track_m=1 live_setting_m=1 \(release_info\.json has no key for release 8\)\n/);
    expect(first.stdout).toMatch(/\ntimings: check=\d+ms read=\d+ms model=\d+ms images=\d+ms render=\d+ms search=\d+ms changes=\d+ms history=\d+ms bulk=\d+ms manifest=\d+ms hosts=\d+ms write=\d+ms\n/);
    expect(first.stdout).toContain(`\nreport: ${publishLayout(out).report}\n`);
    // Not a terminal: the timings once, in the summary; nothing on stderr.
    expect(first.stderr).toBe('');
    // The rebuild's summary, as the CLI prints it (buildSummary): a process more would only start up again.
    const second = buildSummary(await build({ input: SAMPLE_INPUT, out }), publishLayout(out).report);
    expect(second).toMatch(/^build: 0 changed, \d+ unchanged, 0 removed \(up to date/);
    expect(second).toMatch(/\nfiles: .*card=35/);
    expect(second).toMatch(/\nunreadable encrypted rows: unit_m=1 live_track_m=1 live_setting_m=1 \(release_info\.json has no key for release 8\)\n/);
  });
});

describe('progress on stderr', () => {
  const capture = (isTTY: boolean) => {
    const chunks: string[] = [];
    const stream = Object.assign(new Writable({ write: (chunk, _enc, done) => { chunks.push(String(chunk)); done(); } }), { isTTY });
    return { listener: progressDisplay(stream), text: () => chunks.join('') };
  };

  it('draws a bar on a terminal and clears it when the stage ends', () => {
    const { listener, text } = capture(true);
    listener({ kind: 'start', stage: 'write' });
    listener({ kind: 'advance', stage: 'write', done: 500, total: 1000 });
    listener({ kind: 'end', stage: 'write', ms: 12 });
    expect(text()).toContain('\r\x1b[Kwrite...');
    expect(text()).toContain('write [############------------] 500/1000');
    expect(text().endsWith('\r\x1b[K')).toBe(true);
  });

  it('writes nothing elsewhere: the summary\'s timings line says it once', () => {
    const { listener, text } = capture(false);
    listener({ kind: 'start', stage: 'read' });
    listener({ kind: 'advance', stage: 'read', done: 1, total: 2 });
    listener({ kind: 'end', stage: 'read', ms: 7 });
    expect(text()).toBe('');
  });
});
