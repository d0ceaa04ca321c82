/** Events and release dates from the export itself, at the model level. */
import { describe, expect, it } from 'vitest';
import fs from 'fs-extra';
import path from 'node:path';
import { modelAt, modelOf, SAMPLE_INPUT, tempDir } from '../helpers.ts';
import { readMeta } from '../../generator/build/input/curated.ts';
import { toUnixSeconds } from '../../generator/build/input/time.ts';
import { eventTables, unitTables, type EventRewards } from '../fixtures.ts';
import type { Row } from '../../generator/build/sample/sql.ts';
import type { Card } from '../../generator/build/model/types.ts';

const unix = (iso: string) => Date.parse(iso) / 1000;

/** Cards with ordinals 1..6, unit_id = 100 + ordinal. */
const cards: Row[] = [1, 2, 3, 4, 5, 6].map((o) => ({ unit_id: 100 + o, unit_number: o }));
const unit = unitTables('modern', { cards });

/** A model of the six cards with the given events, rewards and other files. */
const withEvents = (events: Row[], rewards: EventRewards = {}, files: Record<string, unknown> = {}) =>
  modelOf({ 'unit.sql': unit, 'event_common.sql': eventTables(events, rewards), ...files });

const dateOf = (card: Card) => [card.ordinal, card.releaseDate, card.releaseDateIsDirty];

describe('release dates from events', () => {
  it('a card an event rewards was released when that event started: a known date (dirty 0)', async () => {
    const { model } = await withEvents([{ event_id: 7, start_date: '2014/01/10 16:00:00' }], { pointCount: [[7, 103]] });
    const card = model.cards.find((c) => c.ordinal === 3)!;
    expect(dateOf(card)).toEqual([3, unix('2014-01-10T16:00:00+09:00'), false]);
    expect(card.events.map((e) => e.id)).toEqual([7]);
    expect(model.events[0].rewardCards.map((c) => c.ordinal)).toEqual([3]);
  });

  it('counts card rewards of all three reward tables, each joined to its event through its parent table', async () => {
    const { model } = await withEvents(
      [1, 2, 3].map((id) => ({ event_id: id, start_date: `201${id}/05/01 16:00:00` })),
      { pointCount: [[1, 101]], pointRanking: [[2, 103]], liveRanking: [[3, 105]] },
    );
    const known = model.cards.filter((c) => !c.releaseDateIsDirty).map((c) => [c.ordinal, c.releaseDate]);
    expect(known).toEqual([
      [1, unix('2011-05-01T16:00:00+09:00')], [3, unix('2012-05-01T16:00:00+09:00')], [5, unix('2013-05-01T16:00:00+09:00')],
    ]);
  });

  it('a rerun keeps the first event\'s start; each card is listed once per event, events in start order', async () => {
    const { model } = await withEvents(
      [{ event_id: 9, start_date: '2016/03/01 16:00:00' }, { event_id: 2, start_date: '2014/03/01 16:00:00' }],
      { pointCount: [[9, 104], [2, 104], [2, 102]], pointRanking: [[2, 104]] },
    );
    const card = model.cards.find((c) => c.ordinal === 4)!;
    expect(dateOf(card)).toEqual([4, unix('2014-03-01T16:00:00+09:00'), false]);
    expect(card.events.map((e) => e.id)).toEqual([2, 9]);
    expect(model.events.map((e) => [e.id, e.rewardCards.map((c) => c.ordinal)])).toEqual([[2, [2, 4]], [9, [4]]]);
  });

  it('curated dates win over derived ones', async () => {
    const { model } = await withEvents([{ event_id: 1, start_date: '2014/01/10 16:00:00' }], { pointCount: [[1, 103]] }, {
      'release_dates.json': { 3: 1_000_000 },
    });
    expect(dateOf(model.cards[2])).toEqual([3, 1_000_000, false]);
    expect(model.cards[2].events.map((e) => e.id)).toEqual([1]);
  });

  it('a card between two known ones takes the nearest known below, marked dirty; outside them the date is null (dirty)', async () => {
    const { model, report } = await withEvents([{ event_id: 1, start_date: '1970/01/01 9:05:00' }], { liveRanking: [[1, 102]] }, {
      'release_dates.json': { 5: 600 },
    });
    expect(model.cards.map(dateOf)).toEqual([
      [1, null, true], [2, 300, false], [3, 300, true], [4, 300, true], [5, 600, false], [6, null, true],
    ]);
    expect(report.warnings).toContain('release dates: 1 card (ordinals 6 to 6) come after the last card with a known date (#5, 1970-01-01): ' +
      'their release_date is null. The unit database runs past the event database; a newer event_common or release_dates.json dates them');
  });

  it('are null (and dirty) only when neither events nor curated files give any date', async () => {
    const { model } = await withEvents([{ event_id: 1 }], { pointCount: [[1, 103, 3001], [1, 999]] });
    expect(model.cards.map((c) => [c.releaseDate, c.releaseDateIsDirty])).toEqual(cards.map(() => [null, true]));
    expect(model.events[0].rewardCards).toEqual([]);
  });

  it('ignore rewards of events that are left out for unreadable dates', async () => {
    const { model } = await withEvents([{ event_id: 1, start_date: 'soon' }], { pointCount: [[1, 103]] });
    expect(model.events).toEqual([]);
    expect(model.cards[2].releaseDate).toBeNull();
  });

  it('reward tables are optional; a reward whose parent table is missing is linked to no event, with a warning', async () => {
    const tables = eventTables([{ event_id: 1 }], { pointCount: [[1, 103]] }).filter((t) => t.name !== 'event_point_count_m');
    const { model, report } = await modelOf({ 'unit.sql': unit, 'event_common.sql': tables });
    expect(model.cards[2].releaseDate).toBeNull();
    expect(report.warnings.join('\n')).toMatch(/event_point_count_reward_m: 1 card rewards name no event_point_count_m row/);
  });

  it('a reward row that carries its own event_id is taken at its word', async () => {
    const tables = eventTables([{ event_id: 1, start_date: '2015/01/01 0:00:00' }]);
    tables.push({
      name: 'event_point_ranking_reward_m',
      columns: { event_point_ranking_reward_id: 'INTEGER', event_id: 'INTEGER', add_type: 'INTEGER', item_id: 'INTEGER' },
      rows: [{ event_point_ranking_reward_id: 1, event_id: 1, add_type: 1001, item_id: 106 }],
    });
    const { model } = await modelOf({ 'unit.sql': unit, 'event_common.sql': tables });
    expect(dateOf(model.cards[5])).toEqual([6, unix('2015-01-01T00:00:00+09:00'), false]);
  });
});

describe('event_m rows', () => {
  it('read dates with a one-digit hour, as real exports write them', async () => {
    const { model } = await withEvents([{ event_id: 1, start_date: '2013/05/03 0:00:01', end_date: '2013/05/13 9:59:59', close_date: '2013/05/16 9:00:00' }]);
    expect(model.events.map((e) => [e.start, e.end, e.resultEnd])).toEqual([
      [unix('2013-05-03T00:00:01+09:00'), unix('2013-05-13T09:59:59+09:00'), unix('2013-05-16T09:00:00+09:00')],
    ]);
  });

  it('give type (event_category_id), name and result end (close_date, null when absent)', async () => {
    const { model } = await withEvents([{ event_id: 4, event_category_id: 3, name: 'メドレー' }]);
    expect(model.events[0]).toMatchObject({ id: 4, type: 3, name: { original: 'メドレー', secondary: null }, resultEnd: null });
  });

  it('take the English name from the English export\'s event_m, else from the crowd translations', async () => {
    const { model } = await withEvents([{ event_id: 1, name: 'いち' }, { event_id: 2, name: 'に' }, { event_id: 3, name: 'さん' }], {}, {
      'en/event_common.sql': [{ name: 'event_m', columns: { event_id: 'INTEGER', name: 'TEXT' }, rows: [{ event_id: 1, name: 'One' }] }],
      'en/unit.sql': unit,
      'translations/events.json': { 'いち': 'Uno', 'に': 'Two' },
    });
    expect(model.events.map((e) => e.name.secondary)).toEqual(['One', 'Two', null]);
  });
});

describe('event time zone: meta.json region and timezone', () => {
  const startWith = async (meta: unknown) =>
    (await withEvents([{ event_id: 1, start_date: '2020/01/01 16:00:00' }], {}, { 'meta.json': meta })).model.events[0].start;

  const regions: [string, string][] = [['jp', '+09:00'], ['ww', '+09:00'], ['cn', '+08:00'], ['tw', '+08:00'], ['kr', '+09:00']];
  for (const [region, offset] of regions) {
    it(`region "${region}" reads local times at ${offset}`, async () => {
      expect(await startWith({ region })).toBe(unix(`2020-01-01T16:00:00${offset}`));
    });
  }

  it('is JP (+09:00) when meta.json names neither', async () => {
    expect(await startWith({ truth_version: 'x' })).toBe(unix('2020-01-01T16:00:00+09:00'));
  });

  it('accepts region names in any case', async () => {
    expect(await startWith({ region: 'CN' })).toBe(unix('2020-01-01T16:00:00+08:00'));
  });

  it('timezone wins over region', async () => {
    expect(await startWith({ region: 'cn', timezone: '+00:00' })).toBe(unix('2020-01-01T16:00:00Z'));
  });

  it('an unknown region is one clear error naming meta.json', async () => {
    await expect(startWith({ region: 'us' })).rejects.toThrow(/meta\.json: region "us" is not one of jp, ww, cn, tw, kr$/);
  });
});

describe('a bare day as a date: midnight local time at the export\'s offset', () => {
  const metaWith = async (json: unknown) => {
    const input = await tempDir('sif-meta-');
    await fs.outputJson(path.join(input, 'meta.json'), json);
    return readMeta(input);
  };

  it('meta.json date "2018-09-20" (or "2018/09/20") is 00:00:00 at +09:00 (JP), at +08:00 (CN)', async () => {
    expect((await metaWith({ date: '2018-09-20' })).date).toBe(unix('2018-09-20T00:00:00+09:00'));
    expect((await metaWith({ date: '2018/09/20', region: 'jp' })).date).toBe(unix('2018-09-20T00:00:00+09:00'));
    expect((await metaWith({ date: '2018-09-20', region: 'cn' })).date).toBe(unix('2018-09-20T00:00:00+08:00'));
    expect((await metaWith({ date: '2018-09-20', timezone: '-05:00' })).date).toBe(unix('2018-09-20T00:00:00-05:00'));
  });

  it('is the same instant as the day at 0:00:00; ISO 8601 with a time keeps its own offset', () => {
    expect(toUnixSeconds('2018-09-20', 540)).toBe(toUnixSeconds('2018/09/20 0:00:00', 540));
    expect(toUnixSeconds(' 2018/09/20 ', 480)).toBe(unix('2018-09-20T00:00:00+08:00'));
    expect(toUnixSeconds('2018-09-20T00:00:00Z', 540)).toBe(unix('2018-09-20T00:00:00Z'));
  });

  it('dates release_dates.json and gachas.json entries too', async () => {
    const { model } = await modelOf({
      'unit.sql': unit,
      'meta.json': { region: 'cn' },
      'release_dates.json': { 2: '2016-03-01' },
      'gachas.json': [{ id: 'g', name: 'G', start: '2016-03-01', end: '2016/03/15', ordinals: [2] }],
    });
    expect(dateOf(model.cards[1])).toEqual([2, unix('2016-03-01T00:00:00+08:00'), false]);
    expect([model.gachas[0].start, model.gachas[0].end]).toEqual([unix('2016-03-01T00:00:00+08:00'), unix('2016-03-15T00:00:00+08:00')]);
  });

  // 1970-01-01 at +09:00 is before the epoch; 0000-01-01 and 10000-01-01 lie outside the years datetime=iso8601 writes.
  for (const day of ['2018-02-30', '2018-13-01', '2018-9-20', '18-09-20', '1970-01-01', '0000-01-01', '10000-01-01']) {
    it(`refuses ${JSON.stringify(day)} with the one-line message naming meta.json`, async () => {
      await expect(metaWith({ date: day })).rejects.toThrow(new RegExp(`meta\\.json: /date: "${day}" is not a date \\(1970 to 9999, a real calendar date\\)$`));
    });
  }
});

describe('the sample export: events, rewards and School Idol Skills', () => {
  const { model } = modelAt(SAMPLE_INPUT);
  const card = (ordinal: number) => model.cards.find((c) => c.ordinal === ordinal)!;
  const eventStart = (id: number) => model.events.find((e) => e.id === id)!.start;

  it('dates the cards its events reward by the first such event (card 12 is rerun by event 9)', () => {
    expect([12, 15, 26].map((o) => dateOf(card(o)))).toEqual([
      [12, eventStart(1), false], [15, eventStart(2), false], [26, eventStart(5), false],
    ]);
    expect(card(12).events.map((e) => e.id)).toEqual([1, 9]);
    expect([13, 27].map((o) => dateOf(card(o)))).toEqual([[13, eventStart(1), true], [27, eventStart(5), true]]);
  });

  it('links only readable cards: event 8 rewards a card whose row stays encrypted', () => {
    expect(model.events.map((e) => [e.id, e.rewardCards.map((c) => c.ordinal)]).filter(([, o]) => (o as number[]).length)).toEqual([
      [1, [12]], [2, [15]], [5, [26]], [9, [12]],
    ]);
  });

  it('reads its one-digit hour in the region meta.json names (jp, +09:00), with English names from en/', () => {
    expect(eventStart(9)).toBe(unix('2025-01-10T09:00:00+09:00'));
    expect(model.events.map((e) => e.name.secondary)).toEqual([
      'The First Stage', 'Summer Holiday Festival', 'Starry Sky Marathon', 'Cherry Blossom Medley', 'Nova Challenge', 'Stella Cup', null, null, null,
    ]);
  });

  it('has School Idol Skills named by the English export, the name_en column, or not at all', () => {
    expect(model.removableSkills.map((s) => [s.id, s.name.secondary])).toEqual([[1, 'Star Drop'], [2, 'Moon Shard'], [3, 'Song of the Sky'], [4, null]]);
  });
});
