// @ts-check
// What can be searched: for cards, accessories, events and songs (their charts), each field a query may name, what
// it reads from the published object, the values it takes, and the compact index column it
// is evaluated on. The build makes the index from the published objects with `indexRows`;
// the edge and the browse page evaluate queries on it (query.js).
import { BARE_YEARS, CENTERS, DIFFICULTIES, EFFECTS, RARITIES, SCHOOL_YEARS, TRIGGERS, codesOf } from './words.js';

/** @typedef {(columns: Record<string, unknown[]>, row: number) => boolean} Test */
/** @typedef {(message: string) => Error} Problem */

/**
 * @typedef {object} Field
 * @property {string} name
 * @property {string[]} aliases
 * @property {string} about what it matches, for the documentation
 * @property {string} values the values it takes, for the documentation
 * @property {string[]} ops
 * @property {string} column the index column it reads
 * @property {((value: unknown) => number | null) | undefined} sortKey set on fields `order` takes
 * @property {(op: string, value: string, problem: Problem) => Test} compile value already normalized
 * @property {boolean} [text] a text field: its column holds lists of texts, a value matches a part of one
 * @property {boolean} [optional] its column is in the index only when some object has the value
 *   (the regions of an archive site's objects, the statistics of charts' notes); where it is absent,
 *   the field matches nothing
 * @property {boolean} [sparse] its column is in the index only when some object has the value, as an
 *   optional field's, but the field still means something where it is absent (has:swing reads
 *   swing_flag on a site without note files), so it is never said to match nothing there
 */

/**
 * @typedef {object} Kind
 * @property {'card' | 'accessory' | 'event' | 'song'} name
 * @property {string} identity the field "#<n>" and the default order name
 * @property {Field[]} fields
 * @property {string[]} words index columns (lists of normalized texts) a bare word is looked for in
 * @property {BareWords} [bare] what a bare word may mean besides text (bare.js)
 * @property {(object: any, context: IndexContext) => Record<string, unknown>} row an object's index columns
 */

/**
 * @typedef {object} BareWords
 * @property {{ field: string, words: string[], plurals?: boolean }[]} values field values a bare word means, `field:<word>`
 *   (`ur` is rarity:ur, `healer` skill:healer; with `plurals`, `urs` and `healers` too)
 * @property {string[]} names list columns whose texts, said as bare words, mean their field (group and character names)
 * @property {string} [person] the names column whose single words mean it too (a given or family name)
 */

/**
 * @typedef {object} IndexContext
 * @property {Map<number, any>} characters char_t objects by id
 * @property {Map<string, string>} sets set display names by set id
 * @property {Map<number, any>} songs song_t objects by id (the song kind's rows are its charts)
 * @property {number} [offsetMinutes] minutes east of UTC of the export's calendar (info.json's timezone): the days a date term names
 */

/**
 * @typedef {object} SearchIndex
 * @property {Kind['name']} kind
 * @property {number} count
 * @property {number} [offset] minutes east of UTC of the site's calendar: `released:2019-01-30` is that day there (absent: UTC)
 * @property {Record<string, unknown[]>} columns a value per row; for a column with a dictionary, the value's position in it
 * @property {Record<string, unknown[]>} dictionaries the distinct values of the list columns (names, titles, sets), each once
 */

const EQUALITY = [':', '='];
const COMPARISONS = [':', '=', '>', '>=', '<', '<='];

/** Word values as tables hold them: single spaces for any run of spaces, "_" or "-". */
export const wordForm = (/** @type {string} */ value) => value.replace(/[\s_-]+/gu, ' ').trim();

/** Case-insensitive, NFKC-normalized text (full-width and half-width forms alike): what searches compare. */
export const normalize = (/** @type {string} */ text) => text.normalize('NFKC').toLowerCase();

/** The texts of a list column (its dictionary), flattened. @param {SearchIndex} index @param {string} column */
export const textsOf = (index, column) => /** @type {string[][]} */ (index.dictionaries[column] ?? []).flat();
/** Normalized forms of the texts met so far: names and titles repeat across thousands of objects. */
const normalized = new Map();
const normalizeOnce = (/** @type {string} */ text) => {
  let form = normalized.get(text);
  if (form === undefined) {
    if (normalized.size > 100_000) normalized.clear();
    normalized.set(text, (form = normalize(text)));
  }
  return form;
};
/** Distinct non-empty normalized texts. */
const texts = (/** @type {unknown[]} */ values) => [...new Set(values.filter((v) => typeof v === 'string' && v !== '').map((v) => normalizeOnce(/** @type {string} */ (v))))];

/** @param {string} op @param {number} x @param {number} y */
function compare(op, x, y) {
  switch (op) {
    case '>': return x > y;
    case '>=': return x >= y;
    case '<': return x < y;
    case '<=': return x <= y;
    default: return x === y;
  }
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** @param {string} value @param {string} name @param {Problem} problem */
function numberValue(value, name, problem) {
  if (!NUMBER.test(value)) throw problem(`expected a number for ${name}, found "${value.slice(0, 20)}"`);
  return Number(value);
}

/** @param {Partial<Field> & Pick<Field, 'name' | 'about' | 'values' | 'column' | 'compile'>} field @returns {Field} */
const field = (field) => ({ aliases: [], ops: EQUALITY, sortKey: undefined, ...field });

const asNumber = (/** @type {unknown} */ v) => (typeof v === 'number' ? v : null);

/**
 * The test of a number field: its column's value compared with `n`; an object without a value
 * matches no comparison, nor does any object where an optional column is absent.
 */
function numberTest(/** @type {string} */ name, /** @type {string} */ op, /** @type {number} */ n) {
  return /** @type {Test} */ ((cols, row) => {
    const v = cols[name]?.[row];
    return typeof v === 'number' && compare(op, v, n);
  });
}

/** A number compared with = and > >= < <=; an object without it matches no comparison. */
function numberField(/** @type {string} */ name, /** @type {string} */ about, /** @type {Partial<Field>} */ more = {}) {
  return field({
    name, about, values: 'a number', column: name, ops: COMPARISONS, sortKey: asNumber,
    compile: (op, value, problem) => numberTest(name, op, numberValue(value, name, problem)),
    ...more,
  });
}

/** The school year: a number, or a word of its table (`year:"first year"`, `year>=2nd-year`: the year it names). */
const yearField = numberField('year', 'school year (1-3; 0 when the character has none)', {
  values: 'a number, or a word of its table (below)',
  compile: (op, value, problem) => {
    const [code] = codesOf(SCHOOL_YEARS, wordForm(value));
    if (code !== undefined) return numberTest('year', op, code);
    if (!NUMBER.test(value)) throw problem(`expected a number or a school year for year (first year, 2nd years, year 3, ...), found "${value.slice(0, 20)}"`);
    return numberTest('year', op, Number(value));
  },
});

/** Substring of any of the texts in `column` (each already normalized). */
function textTest(/** @type {string} */ column, /** @type {string} */ value) {
  return /** @type {Test} */ ((cols, row) => /** @type {string[]} */ (cols[column][row]).some((t) => t.includes(value)));
}

function textField(/** @type {string} */ name, /** @type {string} */ about, /** @type {Partial<Field>} */ more = {}) {
  return field({ name, about, values: 'text (a part of it matches)', column: name, text: true, compile: (_op, value) => textTest(name, value), ...more });
}

/**
 * A game code, given as its number or as a word of its table (words.js); the documentation
 * lists each word with the codes it stands for.
 * @param {string} name @param {string} about @param {import('./words.js').Word[]} table
 */
function codeField(name, about, table, more = {}) {
  return field({
    name, about, column: name, sortKey: asNumber,
    values: table.length ? 'a code, or a word of its table (below)' : 'a code (a number)',
    compile: (_op, value, problem) => {
      const codes = /^\d+$/.test(value) ? [Number(value)] : codesOf(table, wordForm(value));
      if (!codes.length) {
        const words = [...new Set(table.flatMap((e) => e.words))].join(', ');
        throw problem(table.length ? `unknown ${name} word "${value.slice(0, 30)}"; expected a code or one of: ${words}` : `expected a ${name} code (a number), found "${value.slice(0, 20)}"`);
      }
      return (cols, row) => codes.includes(/** @type {number} */ (cols[name][row]));
    },
    ...more,
  });
}

/** A name matched by a part of it, or by the game's code when the value is a number. */
function namedCodeField(/** @type {string} */ name, /** @type {string} */ about, /** @type {string} */ codeAbout) {
  return field({
    name, about, column: `${name}_names`, values: `text (a part of a name matches), or a number: ${codeAbout}`, text: true,
    compile: (_op, value) => {
      if (!/^\d+$/.test(value)) return textTest(`${name}_names`, value);
      const code = Number(value);
      return (cols, row) => cols[name][row] === code;
    },
  });
}

const RARITY_RANK = new Map(RARITIES.map(([code], rank) => [code, rank]));
const RARITY_WORDS = new Map(RARITIES.map(([code, word]) => [word.toLowerCase(), code]));

/** Rarity: a word (n r sr ssr ur) or code (1-5); comparisons go by rank, N < R < SR < SSR < UR. */
const rarityField = field({
  name: 'rarity', about: 'rarity; > >= < <= compare by rank (N < R < SR < SSR < UR), not by code',
  values: RARITIES.map(([code, word]) => `${word.toLowerCase()} (${code})`).join(', '),
  column: 'rarity', ops: COMPARISONS,
  sortKey: (v) => (typeof v === 'number' ? RARITY_RANK.get(v) ?? v : null),
  compile: (op, value, problem) => {
    const code = /^\d+$/.test(value) ? Number(value) : RARITY_WORDS.get(value);
    if (code === undefined) throw problem(`expected a rarity (${[...RARITY_WORDS.keys()].join(', ')} or 1-5), found "${value.slice(0, 20)}"`);
    if (op === ':' || op === '=') return (cols, row) => cols.rarity[row] === code;
    const rank = RARITY_RANK.get(code);
    if (rank === undefined) throw problem(`rarity ${code} has no rank to compare with; use one of ${[...RARITY_WORDS.keys()].join(', ')}`);
    return (cols, row) => {
      const r = RARITY_RANK.get(/** @type {number} */ (cols.rarity[row]));
      return r !== undefined && compare(op, r, rank);
    };
  },
});

const ATTRIBUTE_CODES = new Map([['smile', 1], ['pure', 2], ['cool', 3], ['all', 5]]);
const attributeField = field({
  name: 'attribute', aliases: ['attr'], about: 'attribute', column: 'attribute', sortKey: asNumber,
  values: [...ATTRIBUTE_CODES].map(([word, code]) => `${word} (${code})`).join(', '),
  compile: (_op, value, problem) => {
    const code = /^\d+$/.test(value) ? Number(value) : ATTRIBUTE_CODES.get(value);
    if (code === undefined) throw problem(`expected an attribute (smile, pure, cool, all or a code), found "${value.slice(0, 20)}"`);
    return (cols, row) => cols.attribute[row] === code;
  },
});

/**
 * Seconds to add to an instant to read it on the site's calendar, by the decoded columns of its
 * index (indexColumns): a date term's day is the export's day, as the page shows it.
 * @type {WeakMap<Record<string, unknown[]>, number>}
 */
const CALENDAR_SHIFT = new WeakMap();

/**
 * The period a date value names: [start, end) in unix seconds of the calendar's UTC-read days, and
 * whether it is an instant (unix seconds, compared as they are) rather than a calendar period.
 * @returns {[number, number, boolean]}
 */
function datePeriod(/** @type {string} */ value, /** @type {Problem} */ problem) {
  if (/^\d{5,}$/.test(value)) return [Number(value), Number(value) + 1, true];
  const m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(value);
  const [year, month, day] = m ? [Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1)] : [0, 0, 0];
  if (!m || month < 1 || month > 12 || day < 1 || day > 31) throw problem(`expected a date (YYYY, YYYY-MM, YYYY-MM-DD or unix seconds), found "${value.slice(0, 20)}"`);
  const start = Date.UTC(year, month - 1, day) / 1000;
  const end = (m[3] ? Date.UTC(year, month - 1, day + 1) : m[2] ? Date.UTC(year, month, 1) : Date.UTC(year + 1, 0, 1)) / 1000;
  return [start, end, false];
}

/**
 * A date (unix seconds in the index): `:`/`=` within the period the value names (a year, a month,
 * a day, of the site's calendar: the export's region's, as the page shows dates; UTC for an index
 * that names none), `>` after it, `>=` from its start, `<` before it, `<=` up to its end.
 */
function dateField(/** @type {string} */ name, /** @type {string} */ about, /** @type {Partial<Field>} */ more = {}) {
  return field({
    name, about, column: name, ops: COMPARISONS, sortKey: asNumber,
    values: 'a date: YYYY, YYYY-MM or YYYY-MM-DD (a day of the site\'s calendar, info.json\'s timezone), or unix seconds',
    compile: (op, value, problem) => {
      const [start, end, instant] = datePeriod(value, problem);
      /** @type {Record<string, (t: number) => boolean>} */
      const tests = {
        '>': (t) => t >= end, '>=': (t) => t >= start, '<': (t) => t < start, '<=': (t) => t < end,
      };
      const within = tests[op] ?? ((t) => t >= start && t < end);
      return (cols, row) => {
        const t = cols[name][row];
        return typeof t === 'number' && within(instant ? t : t + (CALENDAR_SHIFT.get(cols) ?? 0));
      };
    },
    ...more,
  });
}

/** Region codes as the regions member keys them; `en` and `global` are what people also call ww. */
const REGIONS = ['jp', 'ww', 'cn', 'tw', 'kr'];
const REGION_ALIASES = new Map([['en', 'ww'], ['global', 'ww']]);

/**
 * The regions an object is present in (its regions member's entries with present true), in code
 * order; null for an object without the member (every object of a site built from one export).
 * @param {Record<string, { present: boolean }> | undefined} regions
 */
const presentIn = (regions) => (regions ? Object.keys(regions).filter((code) => regions[code]?.present).sort() : null);

/**
 * `region:<r>` and `only:<r>`: a test on the list of regions an object is present in (the column
 * `region`, a dictionary position per object: a handful of distinct lists in a whole site). On a
 * site whose objects have no regions member the column is absent and both match nothing.
 * @param {string} name @param {string} about @param {(present: string[], code: string) => boolean} test
 */
function regionField(name, about, test) {
  return field({
    name, about, column: 'region', optional: true,
    values: `a region: ${REGIONS.join(', ')} (en and global are ww)`,
    compile: (_op, value, problem) => {
      const code = REGION_ALIASES.get(value) ?? value;
      if (!REGIONS.includes(code)) throw problem(`unknown ${name}: value "${value.slice(0, 20)}"; expected a region: ${REGIONS.join(', ')} (en and global are ww)`);
      return (cols, row) => {
        const present = /** @type {string[] | null | undefined} */ (cols.region?.[row]);
        return !!present && test(present, code);
      };
    },
  });
}

/** The two region fields of a kind; `what` names its object in the documentation. @param {string} what */
const regionFields = (what) => [
  regionField('region', `${what} is present in that region: regions.<r>.present (an archive site's objects only: on a site built from one export, which has no regions, it matches nothing)`,
    (present, code) => present.includes(code)),
  regionField('only', `${what} is present in that region and in no other region of the site (regions.<r>.present)`,
    (present, code) => present.length === 1 && present[0] === code),
];

/** `is:<flag>`: each flag a 0/1 column named is_<flag>. @param {Record<string, string>} flags */
function isField(flags) {
  const names = Object.keys(flags);
  return field({
    name: 'is', about: 'a property the object has', column: `is_${names[0]}`,
    values: names.map((n) => `${n} (${flags[n]})`).join('; '),
    compile: (_op, value, problem) => {
      if (!names.includes(value)) throw problem(`unknown is: value "${value.slice(0, 20)}"; expected one of ${names.join(', ')}`);
      return (cols, row) => cols[`is_${value}`][row] === 1;
    },
  });
}

/**
 * What a chart's note file holds, as one small number per chart with notes (`has` in the index,
 * null for a chart without them): a bit per kind of note. `has:notes` is a chart with a published
 * note file; `has:swing` a chart with swing notes, by its notes where it has them, else by its
 * swing_flag (the game's word for a swing chart: the one fact a site without note files has).
 */
const NOTE_BITS = { star: 1, hold: 2, swing: 4 };
/** @type {Record<string, { about: string, test: (has: number | null | undefined, cols: Record<string, unknown[]>, row: number) => boolean }>} */
const HAS = {
  notes: { about: 'a note file is published: note_count not null', test: (has) => has != null },
  star: { about: 'star notes: star_notes > 0', test: (has) => has != null && (has & NOTE_BITS.star) !== 0 },
  hold: { about: 'hold notes: hold_notes > 0', test: (has) => has != null && (has & NOTE_BITS.hold) !== 0 },
  swing: {
    about: 'swing notes: swing_notes > 0, or swing_flag 1 for a chart without notes',
    test: (has, cols, row) => (has != null ? (has & NOTE_BITS.swing) !== 0 : cols.is_swing[row] === 1),
  },
};
/** The plural a person may type (`has:stars`, `has:swings`) for each value. */
const HAS_VALUES = new Map(Object.keys(HAS).flatMap((name) => [[name, name], [name.endsWith('s') ? name.slice(0, -1) : `${name}s`, name]]));

/** `has:<kind of note>`, from the chart's `has` bits (kept out of the index where no chart has notes). */
const hasField = field({
  name: 'has', about: 'what the chart\'s note file holds (notes/<live_setting_id>.json); a chart without notes has nothing but, for has:swing, its swing_flag', column: 'has', sparse: true,
  values: Object.entries(HAS).map(([name, { about }]) => `${name} (${about})`).join('; '),
  compile: (_op, value, problem) => {
    const name = HAS_VALUES.get(wordForm(value));
    if (name === undefined) throw problem(`unknown has: value "${value.slice(0, 20)}"; expected one of ${Object.keys(HAS).join(', ')}`);
    const { test } = HAS[name];
    return (cols, row) => test(/** @type {number | null | undefined} */ (cols.has?.[row]), cols, row);
  },
});

/** A chart's `has` bits: null without notes. @param {any} live */
function noteBits(live) {
  if (live.note_count == null) return null;
  return (live.star_notes > 0 ? NOTE_BITS.star : 0) | (live.hold_notes > 0 ? NOTE_BITS.hold : 0) | (live.swing_notes > 0 ? NOTE_BITS.swing : 0);
}

/** The last entry of a per-level array (the idolized max-level stat), null when there is none. */
const top = (/** @type {unknown} */ values) => (Array.isArray(values) && values.length ? values.at(-1) ?? null : null);
const flag = (/** @type {unknown} */ value) => (value ? 1 : 0);

/** A character's group: its display tags that are neither a school year (1-3) nor its sub-unit. */
function groupTags(/** @type {any} */ character, /** @type {number} */ subUnit) {
  return (character?.tags ?? []).filter((/** @type {any} */ t) => t.display && t.id > 3 && t.id !== subUnit);
}

/** Tag names, original and English; μ's also as "muse", as people type it. */
const tagNames = (/** @type {any[]} */ tags) => texts(tags.flatMap((t) => [t.name, t.name_en])).flatMap((n) => (n.includes("μ's") ? [n, n.replace("μ's", 'muse')] : [n]));

const CARD_FLAGS = {
  promo: 'always idolized: is_pre_transformed 1',
  support: 'a support card: is_support_card 1',
  event: 'rewarded by an event: events not empty',
  costume: 'a costume card: is_costume_card 1',
};

/** @type {Kind} */
const CARD = {
  name: 'card',
  identity: 'ordinal',
  words: ['char', 'title'],
  bare: {
    values: [
      { field: 'rarity', words: RARITIES.map(([, word]) => word.toLowerCase()), plurals: true },
      { field: 'attribute', words: ['smile', 'pure', 'cool'] },
      { field: 'released', words: BARE_YEARS },
      { field: 'skill', words: [...new Set(EFFECTS.flatMap((e) => e.words))], plurals: true },
      { field: 'year', words: SCHOOL_YEARS.flatMap((e) => e.words) },
    ],
    names: ['group_names', 'unit_names', 'char'],
    person: 'char',
  },
  fields: [
    rarityField,
    attributeField,
    textField('char', 'char_name (romanized) or original_char_name', { aliases: ['name', 'character'] }),
    textField('title', 'title or title_en'),
    namedCodeField('group', 'the character\'s group: its display tags that are neither a school year nor its sub-unit (char_t tags)', 'affiliation (1 μ\'s, 2 Aqours, ...)'),
    namedCodeField('unit', 'the character\'s sub-unit (the char_t tag of sub_affiliation)', 'sub_affiliation, the tag id'),
    yearField,
    codeField('skill', 'skill.effect_type', EFFECTS),
    codeField('trigger', 'skill.trigger_type', TRIGGERS),
    codeField('center', 'center_skill.effect_type (the main effect, not the extra one)', CENTERS),
    numberField('smile', 'idolized max-level Smile (the last entry of smile)'),
    numberField('pure', 'idolized max-level Pure (the last entry of pure)'),
    numberField('cool', 'idolized max-level Cool (the last entry of cool)'),
    numberField('hp', 'idolized max-level stamina (the last entry of stamina)', { aliases: ['stamina'] }),
    dateField('released', 'extra_data.release_date (known or estimated; a card without one matches no date)', { aliases: ['release', 'date'] }),
    field({
      name: 'set', about: 'the card\'s sets: a set id exactly, or a part of a set\'s display name', values: 'a set id or display name', column: 'set',
      compile: (_op, value) => (cols, row) => /** @type {string[]} */ (cols.set[row]).includes(value) || /** @type {string[]} */ (cols.set_names[row]).some((n) => n.includes(value)),
    }),
    numberField('id', 'unit_id'),
    numberField('ordinal', 'album ordinal (unit_number)', { aliases: ['number', 'no'] }),
    ...regionFields('the card'),
    isField(CARD_FLAGS),
  ],
  row: (card, { characters, sets }) => {
    const character = characters.get(card.type_id);
    const unit = (character?.tags ?? []).filter((/** @type {any} */ t) => t.id === card.sub_affiliation && card.sub_affiliation);
    return {
      ordinal: card.ordinal,
      id: card.id,
      rarity: card.rarity,
      attribute: card.attribute,
      char: texts([card.char_name, card.original_char_name]),
      title: texts([card.title, card.title_en]),
      group: card.affiliation,
      group_names: tagNames(groupTags(character, card.sub_affiliation)),
      unit: card.sub_affiliation,
      unit_names: tagNames(unit),
      year: card.year,
      skill: card.skill?.effect_type ?? null,
      trigger: card.skill?.trigger_type ?? null,
      center: card.center_skill?.effect_type ?? null,
      smile: top(card.smile),
      pure: top(card.pure),
      cool: top(card.cool),
      hp: top(card.stamina),
      released: card.extra_data?.release_date ?? null,
      set: texts(card.sets),
      set_names: texts(card.sets.map((/** @type {string} */ id) => sets.get(id))),
      is_promo: flag(card.is_pre_transformed),
      is_support: flag(card.is_support_card),
      is_event: flag(card.events?.length),
      is_costume: flag(card.is_costume_card),
      region: presentIn(card.regions),
    };
  },
};

/** @type {Kind} */
const ACCESSORY = {
  name: 'accessory',
  identity: 'id',
  words: ['name'],
  fields: [
    textField('name', 'name or name_en'),
    rarityField,
    numberField('smile', 'smile_max'),
    numberField('pure', 'pure_max'),
    numberField('cool', 'cool_max'),
    codeField('effect', 'effect_type', []),
    codeField('trigger', 'trigger_type (null for most accessories: they then match no trigger)', []),
    textField('char', 'the char_name of the card it belongs to (unit_stub)', { aliases: ['character'] }),
    numberField('ordinal', 'unit_ordinal: the ordinal of the card it belongs to'),
    numberField('level', 'level_max'),
    numberField('id', 'accessory id'),
    ...regionFields('the accessory'),
    isField({ limited: 'belongs to a card: is_limited true', material: 'a material: is_material true' }),
  ],
  row: (accessory) => ({
    id: accessory.id,
    name: texts([accessory.name, accessory.name_en]),
    rarity: accessory.rarity,
    smile: accessory.smile_max,
    pure: accessory.pure_max,
    cool: accessory.cool_max,
    effect: accessory.effect_type,
    trigger: accessory.trigger_type,
    char: texts([accessory.unit_stub?.char_name]),
    ordinal: accessory.unit_ordinal,
    level: accessory.level_max,
    is_limited: flag(accessory.is_limited),
    is_material: flag(accessory.is_material),
    region: presentIn(accessory.regions),
  }),
};

/** @type {Kind} */
const EVENT = {
  name: 'event',
  identity: 'id',
  words: ['name'],
  fields: [
    textField('name', 'name or name_en'),
    numberField('type', 'the event type (event_category_id)'),
    dateField('start', 'start_date', { aliases: ['started', 'begins'] }),
    dateField('end', 'end_date', { aliases: ['ended', 'ends'] }),
    dateField('results', 'result_end_date (null for some: they match no date)'),
    field({
      name: 'reward', about: 'the ordinal of a card it rewards (reward_ordinals)', values: 'an ordinal', column: 'reward',
      compile: (_op, value, problem) => {
        const ordinal = numberValue(value, 'reward', problem);
        return (cols, row) => /** @type {number[]} */ (cols.reward[row]).includes(ordinal);
      },
    }),
    numberField('id', 'event id'),
  ],
  row: (event) => ({
    id: event.id,
    name: texts([event.name, event.name_en]),
    type: event.type,
    start: event.start_date,
    end: event.end_date,
    results: event.result_end_date,
    reward: event.reward_ordinals,
  }),
};

/**
 * Songs: a row per chart (live_t), with its song's name, group and length, so that one query's
 * terms about a chart (difficulty, stars, combo) hold for the same chart.
 * @type {Kind}
 */
const SONG = {
  name: 'song',
  identity: 'id',
  words: ['name'],
  // `aqours master`, `μ's expert`, `snow halation master`: a group and a difficulty mean those fields, other words the song's name.
  bare: {
    values: [{ field: 'difficulty', words: [...new Set(DIFFICULTIES.flatMap((e) => e.words))] }],
    names: ['group_names'],
  },
  fields: [
    textField('name', 'the song\'s name, name_en or name_kana'),
    namedCodeField('group', 'the song\'s group: group_name or group_name_en (the group tag of its characters)', 'member_category (1 μ\'s, 2 Aqours, ...)'),
    codeField('difficulty', 'the chart\'s difficulty', DIFFICULTIES, { aliases: ['diff'] }),
    numberField('stars', 'the chart\'s stars (stage_level)', { aliases: ['level'] }),
    { ...attributeField, about: 'the chart\'s attribute (attribute_icon_id)' },
    numberField('combo', 'the chart\'s full combo: s_rank_combo (its note count in every real export; in the database, so every chart has it)'),
    numberField('notes', 'the notes in the chart\'s note file: note_count (a chart without notes matches no notes term)', { aliases: ['note_count'], optional: true }),
    numberField('nps', 'notes per second: nps, note_count / duration_sec to two decimals (a chart without notes matches none)', { optional: true }),
    numberField('duration', 'seconds until the chart\'s last note ends: duration_sec, to the millisecond (a chart without notes matches none)', { aliases: ['duration_sec'], optional: true }),
    hasField,
    numberField('length', 'the song\'s length in seconds (live_time_m; a song without one matches no length)', { aliases: ['seconds'] }),
    numberField('song', 'the song\'s id (live_track_id)'),
    numberField('id', 'the chart\'s id (live_setting_id)'),
    ...regionFields('the chart (live_t\'s regions; its song\'s when it has none)'),
    isField({ swing: 'a swing chart by the game\'s flag: swing_flag 1 (has:swing counts its notes)', ac: 'an arcade chart: ac_flag 1', special: 'played as a special live (special_live_m)' }),
  ],
  row: (live, { songs }) => {
    const song = songs.get(live.song_id);
    return {
      id: live.id,
      song: live.song_id,
      name: texts([live.name, live.name_en, song?.name_kana]),
      group: song?.member_category ?? null,
      group_names: tagNames([{ name: song?.group_name, name_en: song?.group_name_en }]),
      difficulty: live.difficulty,
      stars: live.stars,
      attribute: live.attribute,
      combo: live.s_rank_combo,
      notes: live.note_count ?? null,
      nps: live.nps ?? null,
      duration: live.duration_sec ?? null,
      has: noteBits(live),
      length: song?.length ?? null,
      is_swing: flag(live.swing_flag),
      is_ac: flag(live.ac_flag),
      is_special: flag(live.plays.some((/** @type {any} */ p) => p.kind === 'special')),
      region: presentIn(live.regions ?? song?.regions),
    };
  },
};

/** Every searchable kind, by its name in /api/v1/search/<kind>. */
export const KINDS = [CARD, ACCESSORY, EVENT, SONG];

/**
 * The search index of one kind: its objects' columns, rows in the order of `objects` (the
 * kind's identity order), for query.js `search`.
 * @param {Kind} kind @param {any[]} objects @param {IndexContext} context
 * @returns {SearchIndex}
 */
export function buildIndex(kind, objects, context) {
  /** @type {Record<string, unknown[]>} */
  const columns = {};
  /** @type {Record<string, Map<string, number>>} */
  const positions = {};
  /** Lists (names, titles, sets) repeat across objects: each distinct one is kept once, the column holds its position. */
  const encode = (/** @type {string} */ column, /** @type {unknown} */ value) => {
    if (!Array.isArray(value)) return value;
    const dictionary = (positions[column] ??= new Map());
    const key = JSON.stringify(value);
    if (!dictionary.has(key)) dictionary.set(key, dictionary.size);
    return dictionary.get(key);
  };
  for (const object of objects) {
    for (const [column, value] of Object.entries(kind.row(object, context))) (columns[column] ??= []).push(encode(column, value));
  }
  // An optional or sparse column no object has a value for (regions, on a site built from one export; notes, on a site without note files) is left out.
  for (const { column, optional, sparse } of kind.fields) if ((optional || sparse) && columns[column]?.every((value) => value === null)) delete columns[column];
  const dictionaries = Object.fromEntries(Object.entries(positions).map(([column, map]) => [column, [...map.keys()].map((key) => JSON.parse(key))]));
  return { kind: kind.name, count: objects.length, ...(context.offsetMinutes ? { offset: context.offsetMinutes } : {}), columns, dictionaries };
}

/** @type {WeakMap<SearchIndex, Record<string, unknown[]>>} */
const decoded = new WeakMap();

/**
 * The index's columns with every value in place (dictionary positions replaced by their
 * values), decoded once per index object, each column the first time it is read: a query's
 * terms read a few columns, and a phrase's test (bare.js) reads its dictionary, not the column.
 * @param {SearchIndex} index
 */
export function indexColumns(index) {
  let columns = decoded.get(index);
  if (!columns) {
    /** @type {Record<string, unknown[]>} */
    const made = {};
    for (const [name, values] of Object.entries(index.columns)) {
      const dictionary = index.dictionaries[name];
      if (!dictionary) {
        Object.defineProperty(made, name, { value: values, writable: true, enumerable: true, configurable: true });
        continue;
      }
      // Replaced by its values on first read (the object keeps its fast properties).
      Object.defineProperty(made, name, {
        configurable: true,
        enumerable: true,
        get() {
          const decodedValues = new Array(values.length);
          for (let row = 0; row < values.length; row++) decodedValues[row] = dictionary[/** @type {number} */ (values[row])];
          Object.defineProperty(made, name, { value: decodedValues, writable: true, enumerable: true, configurable: true });
          return decodedValues;
        },
      });
    }
    columns = made;
    decoded.set(index, columns);
    CALENDAR_SHIFT.set(columns, (index.offset ?? 0) * 60);
  }
  return columns;
}
