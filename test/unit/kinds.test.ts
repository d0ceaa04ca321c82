/**
 * The table of kinds (generator/contract/kinds.ts) and the lists derived from it: the orders
 * clients and earlier sites already know stay as they were (a new kind may only come after them),
 * every search kind has a row, and the optional kinds go together with their database.
 */
import { describe, expect, it } from 'vitest';
import { CHANGE_TYPES, DATABASES, KINDS, LATER_CHANGE_TYPES, OBJECT_TYPE_NAMES, PACKED_KINDS, kindOfSearch, kindsPublishedWith, objectTypesWith } from '../../generator/contract/kinds.ts';
import { BULK_KINDS, HISTORY_ALIASES, HISTORY_TYPES, LINES_ONLY_KINDS, OBJECT_TYPES, PACKED_HISTORY_TYPES, packedPack } from '../../generator/contract/endpoints.ts';
import { KINDS as SEARCH_KINDS } from '../../generator/web/search/kinds.js';

describe('the table of kinds', () => {
  it('keeps the published orders of the lists it derives (a new kind may come anywhere, the known ones keep their order)', () => {
    const keeps = (list: readonly string[], known: string[]) => expect(list.filter((name) => known.includes(name))).toEqual(known);
    const generic = ['card_t', 'char_t', 'skill_t', 'leader_skill_t', 'accessory_t', 'event_t', 'removable_skill_t', 'song_t', 'live_t'];
    keeps(OBJECT_TYPE_NAMES, generic);
    expect(Object.keys(OBJECT_TYPES)).toEqual(OBJECT_TYPE_NAMES);
    keeps(CHANGE_TYPES, ['cards', 'skills', 'center_skills', 'accessories', 'characters', 'events', 'sets', 'pairs', 'songs', 'charts']);
    expect(LATER_CHANGE_TYPES).toEqual(CHANGE_TYPES.slice(CHANGE_TYPES.indexOf('songs')));
    keeps(BULK_KINDS, ['cards', 'accessories', 'sets', 'pairs', ...generic, 'notes']);
    keeps(HISTORY_TYPES, ['card', 'accessory', ...generic, 'notes']);
    expect(PACKED_HISTORY_TYPES).toEqual(['notes']);
    expect(HISTORY_ALIASES).toEqual({ card_t: 'card', accessory_t: 'accessory' });
    keeps(DATABASES, ['unit', 'event_common', 'live']);
  });

  it('gives every change type its own place, and every kind a name of its own', () => {
    const places = KINDS.flatMap((k) => (k.change ? [k.change.place] : [])).sort((a, b) => a - b);
    expect(places).toEqual(places.map((_, i) => i));
    expect(new Set(KINDS.map((k) => k.name)).size).toBe(KINDS.length);
    expect(new Set(KINDS.map((k) => k.published)).size).toBe(KINDS.length);
  });

  it('has a row with a generic type for every search kind of the search language', () => {
    for (const { name } of SEARCH_KINDS) expect(kindOfSearch(name)?.objectType, name).toBeTruthy();
    expect(KINDS.filter((k) => k.search).map((k) => k.search).sort()).toEqual(SEARCH_KINDS.map((k) => k.name).sort());
  });

  it('names, for a kind in packs only, its packs, the member holding its ids and the generic type naming its objects', () => {
    expect(PACKED_KINDS.map((k) => k.name)).toEqual(['notes']);
    for (const k of PACKED_KINDS) {
      expect(packedPack(k.name).file(3)).toBe(`api/v1/pack/${k.name}/3.json`);
      expect(packedPack(k.name).parameters[0].description).toContain(k.packedOnly.key);
      expect(OBJECT_TYPE_NAMES).toContain(k.packedOnly.namedBy.type);
      expect(PACKED_HISTORY_TYPES).toContain(k.own.history);
    }
    expect(LINES_ONLY_KINDS).toEqual(['notes']);
  });

  it('publishes the live database\'s kinds together, or none of them', () => {
    expect(KINDS.filter((k) => k.optional).map((k) => k.name)).toEqual(['song', 'chart', 'notes']);
    const without = objectTypesWith((database) => database !== 'live');
    expect(without).toEqual(OBJECT_TYPE_NAMES.filter((type) => type !== 'song_t' && type !== 'live_t'));
    expect(kindsPublishedWith(without).map((k) => k.name)).not.toContain('notes');
    expect(kindsPublishedWith(OBJECT_TYPE_NAMES).length).toBe(KINDS.length);
  });
});
