/** What the build report says is missing: files not read (and why), English per kind, release dates by how they were found; the sample never mixed with a user's export. */
import path from 'node:path';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';
import { buildSample, copySample, copyTree, readJson, renderInMemory, SAMPLE_INPUT, tempDir } from '../helpers.ts';
import { buildSummary, SAMPLE_NOTE } from '../../generator/build/summary.ts';
import { UNREAD_FILES_KEPT } from '../../generator/build/findings.ts';
import { SAMPLE_MARKER } from '../../generator/build/input/sampleMarker.ts';
import type { CardJson } from '../../generator/contract/schemas.ts';

describe('coverage in the report', () => {
  it('counts English titles and release dates as the published cards have them', async () => {
    const { out, report } = await buildSample();
    const stubs: { ordinal: number }[] = (await readJson(out, 'api/v1/card_list.json')).stubs;
    const cards: CardJson[] = await Promise.all(stubs.map(async (s) => (await readJson(out, `api/v1/card/${s.ordinal}.json`)).cards[0]));
    const titled = cards.filter((c) => c.title !== '');
    const dated = (c: CardJson) => c.extra_data.release_date !== null;
    expect(report.coverage!.english.card_titles).toEqual({ with: titled.filter((c) => c.title_en !== '').length, without: titled.filter((c) => c.title_en === '').length });
    expect(report.coverage!.release_dates).toEqual({
      known: cards.filter((c) => dated(c) && !c.extra_data.release_date_is_dirty).length,
      estimated: cards.filter((c) => dated(c) && c.extra_data.release_date_is_dirty).length,
      unknown: cards.filter((c) => !dated(c)).length,
    });
    expect(report.coverage!.release_dates.unknown).toBeGreaterThan(0);
    const events: { name: string; name_en: string | null }[] = (await readJson(out, 'api/v1/list/event_t.json')).result;
    expect(report.coverage!.english.events).toEqual({ with: events.filter((e) => e.name_en).length, without: events.filter((e) => !e.name_en).length });
    const summary = buildSummary(report, 'report.json');
    const d = report.coverage!.release_dates;
    expect(summary).toContain(`release dates: ${d.known} known, ${d.estimated} estimated, ${d.unknown} unknown`);
    expect(summary).toMatch(/^english: card titles \d+ of \d+, skills \d+ of \d+, center skills \d+ of \d+, events \d+ of \d+$/m);
    // The sample's warnings are planted: the summary says so once, right before them.
    const lines = summary.split('\n');
    expect(report.warnings.length).toBeGreaterThan(0);
    expect(lines.indexOf(SAMPLE_NOTE)).toBe(lines.findIndex((l) => l.startsWith('warning: ')) - 1);
    expect(report.toJSON().sample).toBe(true);
  });

  it('lists every file not read with the reason, and the client name a misnamed database needs', async () => {
    const input = await copySample();
    await fs.move(path.join(input, 'event_common.sql'), path.join(input, 'data_db_event_event_common_2017-01-05.db_'));
    await fs.copy(path.join(input, 'unit.sql'), path.join(input, 'old/unit.sql'));
    await fs.outputFile(path.join(input, 'notes.txt'), 'mine');
    await fs.copy(path.join(input, 'unit.sql'), path.join(input, 'unit_backup.sql'));
    const { report } = await renderInMemory(input);
    expect(report.unreadFiles).toEqual([
      {
        file: 'data_db_event_event_common_2017-01-05.db_', reason: 'not a name the build reads',
        hint: expect.stringMatching(/^looks like the event_common database: name it event_common\.db_/),
      },
      { file: 'notes.txt', reason: 'not a file the build reads' },
      { file: 'old/unit.sql', reason: 'a second unit database; unit.sql is read instead' },
      { file: 'unit_backup.sql', reason: 'not a name the build reads', hint: 'looks like a second unit database; unit.sql is read as that one' },
    ]);
    // A copy without the sample's marker is anyone's export: its warnings are its own.
    expect(report.sample).toBe(false);
    expect(buildSummary(report, 'report.json')).not.toContain(SAMPLE_NOTE);
    expect(buildSummary(report, 'report.json')).toMatch(/^not read: 4 files: data_db_event_event_common_2017-01-05\.db_ \(not a name the build reads; looks like the event_common database/m);
    expect(report.toJSON().unread_files).toEqual(report.unreadFiles);
  });

  it('says a client database the build has no use for is one, and keeps the first thousand of a flood of stray files', async () => {
    const input = await copySample();
    await fs.outputFile(path.join(input, 'db/item/item.db_'), 'x');
    for (let i = 0; i < UNREAD_FILES_KEPT + 5; i++) await fs.outputFile(path.join(input, `stray/${String(i).padStart(4, '0')}.txt`), '');
    const { report } = await renderInMemory(input);
    expect(report.unreadFiles[0]).toEqual({ file: 'db/item/item.db_', reason: 'a database the build does not use' });
    expect([report.unreadFiles.length, report.unreadFileCount]).toEqual([UNREAD_FILES_KEPT, UNREAD_FILES_KEPT + 6]);
    expect(buildSummary(report, 'report.json')).toMatch(new RegExp(`^not read: ${UNREAD_FILES_KEPT + 6} files: .*; and ${UNREAD_FILES_KEPT + 1} more \\(report\\.json unread_files\\)$`, 'm'));
  });

  it('lists nothing for the shipped sample: every file but its pictures is read', async () => {
    expect((await buildSample()).report.unreadFiles).toEqual([]);
  });
});

describe('the shipped sample and a user\'s export', () => {
  it('never mix: databases beside the sample\'s are refused in one line saying what to do', async () => {
    const input = path.join(await tempDir(), 'input');
    copyTree(SAMPLE_INPUT, input);
    await fs.copy(path.join(input, 'unit.sql'), path.join(input, 'mine/unit.db.sql'));
    // The stages name the one that failed (the CLI prints the rest as its one line).
    await expect(renderInMemory(input)).rejects.toThrow(new RegExp(
      `^read stage: ${input.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} holds the invented sample \\(sample\\.json\\) and another export's databases \\(mine/unit\\.db\\.sql\\); put your export in a folder of its own and build it with --input <folder>`,
    ));
  });

  it('a folder without the marker builds as anyone\'s export', async () => {
    const input = await copySample();
    expect(await fs.pathExists(path.join(input, SAMPLE_MARKER))).toBe(false);
    await fs.copy(path.join(input, 'unit.sql'), path.join(input, 'mine/unit.db.sql'));
    expect((await renderInMemory(input)).report.warnings.join('\n')).toMatch(/several unit databases/);
  });
});
