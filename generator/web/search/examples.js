// @ts-check
// Worked examples of the search language: the one list docs/search.md, the API reference
// (docs/api.md, api.html) and the browse page's help show, and the tests run.

/**
 * @typedef {object} Example
 * @property {'card' | 'accessory' | 'event' | 'song'} kind
 * @property {string} q
 * @property {string} [order]
 * @property {'asc' | 'desc'} [dir]
 * @property {string} means
 * @property {string} [same] a query with the same matches, written with fields (the tests check it)
 */

/** @type {Example[]} */
export const EXAMPLES = [
  { kind: 'card', q: 'rarity:ur attr:smile year:2 skill:score', order: 'smile', dir: 'desc', means: 'UR Smile cards of second-years with a score skill, highest Smile first' },
  { kind: 'card', q: 'rarity:ssr', order: 'random', means: 'SSR cards in random order (the first one is a random SSR)' },
  { kind: 'card', q: 'char:hanayo', means: 'cards of Koizumi Hanayo (a part of the romanized or original name)' },
  { kind: 'card', q: 'hanayo "after school"', means: 'bare words: names and titles, in English or the original; quotes keep words together' },
  { kind: 'card', q: 'honoka ur smile', same: 'char:honoka rarity:ur attr:smile', means: 'bare words that name a character, a rarity or an attribute mean that field' },
  { kind: 'card', q: 'all SSR from 2017', same: 'rarity:ssr released:2017', means: 'a bare year is the release year; filler words (all, from, ...) are skipped' },
  { kind: 'card', q: 'aqours sr', same: 'group:aqours rarity:sr', means: 'a group or sub-unit name means that field' },
  { kind: 'card', q: 'healer', same: 'skill:heal', means: 'a skill word means the skill: healer, scorer, score up, pl, skill up, encore, combo fever, amplify, ... (the Skill effects table)' },
  { kind: 'card', q: 'perfect lock ur', same: 'skill:"perfect lock" rarity:ur', means: 'a skill word of several words is one term, read before its words alone' },
  { kind: 'card', q: 'first year cool ur', same: 'year:1 attr:cool rarity:ur', means: 'a school year (first year, 1st years, second-year, year 3, 3年生) means year:' },
  { kind: 'card', q: 'unit:guilty kiss', same: 'unit:"guilty kiss"', means: 'a field value takes the words after it while it still names something, so a two-word name needs no quotes' },
  { kind: 'card', q: 'maki', same: 'char:maki', means: 'Nishikino Maki\'s cards: bare words match whole words, so not a title with "Your" in it' },
  { kind: 'card', q: '穂乃果', means: 'a part of a character\'s original name (a word in a script without spaces matches a part of one)' },
  { kind: 'card', q: '"smile"', means: 'quoted words are always text: titles and names with the word "smile", whatever the attribute' },
  { kind: 'card', q: 'rarity:4', means: 'UR cards by the game\'s code (5 would be SSR)' },
  { kind: 'card', q: 'rarity>=sr -is:promo', means: 'SR, SSR and UR cards that are not promo cards (rarity compares by rank)' },
  { kind: 'card', q: 'attribute:5', means: 'cards of the attribute "all" (code 5)' },
  { kind: 'card', q: 'trigger:notes skill:heal', means: 'healers that trigger every N notes (not star notes: that is trigger:"star notes")' },
  { kind: 'card', q: 'trigger:"star notes"', means: 'skills triggered by perfect star notes (trigger code 12)' },
  { kind: 'card', q: 'skill:"perfect lock" (trigger:time or trigger:combo)', means: 'perfect locks triggered by time or by combo' },
  { kind: 'card', q: 'center:smile rarity:ur', order: 'released', dir: 'desc', means: 'UR cards whose center skill raises Smile, newest first' },
  { kind: 'card', q: 'released:2016', means: 'cards released in 2016, a year of the site\'s calendar (info.json\'s timezone); released>=2016-04 from April 2016 on' },
  { kind: 'card', q: 'smile>=4000 or pure>=4000 or cool>=4000', means: 'cards with at least 4000 in one attribute at idolized max level' },
  { kind: 'card', q: '-(group:1 or group:2)', means: 'cards of characters outside μ\'s (affiliation 1) and Aqours (2)' },
  { kind: 'card', q: 'group:"μ\'s" unit:printemps', means: 'μ\'s cards of the sub-unit Printemps, by tag names' },
  { kind: 'card', q: 'is:event rarity:sr', order: 'released', means: 'SR cards rewarded by events, oldest first' },
  { kind: 'card', q: 'set:album-1', means: 'cards of the set with id album-1 (or whose set name contains "album-1")' },
  { kind: 'card', q: 'ＲＡＲＩＴＹ：ＵＲ', means: 'full-width forms are the same as half-width ones (NFKC)' },
  { kind: 'card', q: 'hp>4 is:support', means: 'support cards with more than 4 stamina' },
  { kind: 'card', q: 'rarity:ur -region:ww', order: 'released', dir: 'desc', means: 'UR cards the worldwide version does not hold, newest first (the regions of a site built with --archive)' },
  { kind: 'card', q: 'only:jp is:event', means: 'event cards only the Japanese version holds, in no other region of the site' },
  { kind: 'accessory', q: 'is:limited rarity:ur', order: 'smile', dir: 'desc', means: 'UR accessories that belong to a card, highest Smile first' },
  { kind: 'event', q: 'start>=2020 -type:1', order: 'start', dir: 'desc', means: 'events since 2020 that are not of type 1, newest first' },
  { kind: 'song', q: 'difficulty:master stars>=11', order: 'combo', dir: 'desc', means: 'Master charts of 11 stars or more, most notes first' },
  { kind: 'song', q: 'group:1 difficulty:expert attr:pure', means: 'Expert charts of μ\'s songs (member_category 1) of the Pure attribute' },
  { kind: 'song', q: '"snow halation"', means: 'every chart of a song by its name (original, English or kana)' },
  { kind: 'song', q: 'aqours master', same: 'group:aqours difficulty:master', means: 'Master charts of Aqours songs: a group\'s name and a difficulty word mean those fields' },
  { kind: 'song', q: 'snow halation master', means: 'the Master chart of a song by the words of its name and a difficulty word' },
  { kind: 'song', q: 'length<=120 combo>=400', order: 'length', means: 'charts of at least 400 notes in songs of two minutes or less, shortest first' },
  { kind: 'song', q: 'diff:6 or is:swing', means: 'Master charts, and charts with swing notes (difficulty 6 is Master: the game\'s codes)' },
  { kind: 'song', q: 'has:notes notes>100', order: 'nps', dir: 'desc', means: 'charts whose note file is published, with more than 100 notes, densest first (notes per second); a chart without notes matches no notes, nps or duration term' },
  { kind: 'song', q: 'has:swing has:star duration<=120', means: 'charts with swing and star notes whose last note ends within two minutes (has:swing: swing notes in the note file, or swing_flag where the chart has none)' },
  { kind: 'song', q: 'region:ww difficulty:master', means: 'Master charts the worldwide version holds (region:en and region:global are ww too)' },
];

/**
 * The search URL of an example, relative to /api/v1/.
 * @param {Example} example
 */
export function exampleUrl(example) {
  const params = new URLSearchParams({ q: example.q });
  if (example.order) params.set('order', example.order);
  if (example.dir) params.set('dir', example.dir);
  return `search/${example.kind}?${params}`;
}
