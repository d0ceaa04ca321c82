// @ts-check
// The one table of skill triggers, skill effects and center skill effects: for each game code,
// the words a search finds it by and the sentence the browse page says it with. Only codes
// confirmed by a public source get words; any other code is searched and shown as its number.
//
// Skill trigger and effect codes: the Skill::Trigger and Skill::Effect enums of a public SIF live
// simulator (C++, Skill.h: Time = 1, NotesCount = 3, ComboCount = 4, Score = 5, PerfectCount = 6,
// StarPerfect = 12, Chain = 100; GreatToPerfect = 4, GoodToPerfect = 5, HpRestore = 9,
// ScorePlus = 11, SkillRateUp = 2000, Mimic = 2100, PerfectBonusRatio = 2200,
// PerfectBonusFixedValue = 2201, ComboBonusRatio = 2300, ComboBonusFixedValue = 2301,
// SyncStatus = 2400, GainSkillLevel = 2500, GainStatus = 2600).
// Center skill codes: public notes on unit_leader_skill_m (1 +Smile, 2 +Pure, 3 +Cool,
// 112 +Pure by Smile, 113 +Cool by Smile, 121 +Smile by Pure, 123 +Cool by Pure,
// 131 +Smile by Cool, 132 +Pure by Cool; unit_leader_skill_extra_m uses the same codes).

/** Rarity codes with their names, lowest first in game order: SSR (5) ranks between SR (3) and UR (4). */
/** @type {readonly (readonly [id: number, name: string])[]} */
export const RARITIES = [[1, 'N'], [2, 'R'], [3, 'SR'], [5, 'SSR'], [4, 'UR']];

/** Words a query may hold between others without meaning a field or text, so "all SSR from 2017" reads as "SSR 2017". */
export const FILLERS = ['all', 'any', 'every', 'from', 'in', 'of', 'the', 'card', 'cards', 'released', 'with'];

/** The years a bare number means as a release year (the game's service years). */
export const BARE_YEARS = Array.from({ length: 2023 - 2013 + 1 }, (_, i) => String(2013 + i));

/**
 * Romanized names of the game's main characters by their Japanese name (family name first, as
 * the game's romanized names are; common spellings of one name side by side), so a bare
 * `honoka` or `kousaka` finds 高坂穂乃果 in an export that carries only Japanese names, and
 * `kosaka` where it carries another spelling. Public facts about the franchise's cast.
 * @type {readonly (readonly [japanese: string, ...romanized: string[]])[]}
 */
export const CHARACTER_NAMES = [
  ['高坂穂乃果', 'kousaka honoka', 'kosaka honoka'], ['絢瀬絵里', 'ayase eli', 'ayase eri'], ['南ことり', 'minami kotori'],
  ['園田海未', 'sonoda umi'], ['星空凛', 'hoshizora rin'], ['西木野真姫', 'nishikino maki'], ['東條希', 'toujou nozomi', 'tojo nozomi'],
  ['小泉花陽', 'koizumi hanayo'], ['矢澤にこ', 'yazawa nico', 'yazawa niko'],
  ['高海千歌', 'takami chika'], ['桜内梨子', 'sakurauchi riko'], ['松浦果南', 'matsuura kanan', 'matsura kanan'], ['黒澤ダイヤ', 'kurosawa dia'],
  ['渡辺曜', 'watanabe you', 'watanabe yo'], ['津島善子', 'tsushima yoshiko', 'tsushima yohane'], ['国木田花丸', 'kunikida hanamaru'],
  ['小原鞠莉', 'ohara mari'], ['黒澤ルビィ', 'kurosawa ruby'],
  ['上原歩夢', 'uehara ayumu'], ['中須かすみ', 'nakasu kasumi'], ['桜坂しずく', 'ousaka shizuku', 'osaka shizuku'], ['朝香果林', 'asaka karin'],
  ['宮下愛', 'miyashita ai'], ['近江彼方', 'konoe kanata'], ['優木せつ菜', 'yuuki setsuna', 'yuki setsuna'], ['エマ・ヴェルデ', 'emma verde'],
  ['天王寺璃奈', 'tennouji rina', 'tennoji rina'], ['三船栞子', 'mifune shioriko'],
  ['綺羅ツバサ', 'kira tsubasa'], ['優木あんじゅ', 'yuuki anju', 'yuki anju'], ['統堂英玲奈', 'toudou erena', 'todo erena'],
  ['鹿角聖良', 'kazuno sarah', 'kazuno seira'], ['鹿角理亞', 'kazuno leah', 'kazuno ria'],
  ['高坂雪穂', 'kousaka yukiho', 'kosaka yukiho'], ['絢瀬亜里沙', 'ayase alisa', 'ayase arisa'],
];

/**
 * @typedef {object} Word
 * @property {number} code the game's code
 * @property {string[]} words what a search value may say for it (lower case, single spaces), first the main one
 * @property {string} about what the code means, for the documentation
 */

/** @typedef {{ translated_trigger_target?: string | null }} SkillTargets */

/**
 * @typedef {Word & { text: (n: string, skill: SkillTargets) => string }} TriggerWord
 * @typedef {Word & { text: (value: string, seconds: string) => string }} EffectWord
 * @typedef {Word & { text: (percent: string) => string }} CenterWord
 */

const forSeconds = (/** @type {string} */ s) => ` for ${s} seconds`;

/** Skill triggers (`trigger_type`). @type {TriggerWord[]} */
export const TRIGGERS = [
  { code: 1, words: ['time', 'seconds', 'timer'], about: 'every N seconds', text: (n) => `every ${n} seconds` },
  { code: 3, words: ['notes', 'note'], about: 'every N notes (star notes are code 12)', text: (n) => `every ${n} notes` },
  { code: 4, words: ['combo'], about: 'every N combo', text: (n) => `every ${n} combo` },
  { code: 5, words: ['score'], about: 'every N points of score', text: (n) => `every ${n} points of score` },
  { code: 6, words: ['perfects', 'perfect'], about: 'every N perfects', text: (n) => `every ${n} perfects` },
  {
    code: 12, words: ['star notes', 'star note', 'star', 'starnotes', 'perfect star notes'], about: 'every N perfect star notes',
    text: (n) => `every ${n} perfect star notes`,
  },
  {
    code: 100, words: ['chain'], about: 'once the named members have all activated their skills',
    text: (_n, skill) => `once ${skill.translated_trigger_target ?? 'the named members'} have all activated their skills`,
  },
];

/**
 * Skill effects (`effect_type`). The first word of each is the one the browse page shows; the
 * others are what players call the effect ("healer", "PL", "scorer", "combo fever", "amplify":
 * the names of the game's English version and of its players). Each word is also a bare word of
 * card searches (`healer` is `skill:healer`), so none may be a word players use for another thing.
 * @type {EffectWord[]}
 */
export const EFFECTS = [
  {
    code: 4, words: ['perfect lock', 'pl', 'great lock', 'perfect support'], about: 'greats become perfects',
    text: (_v, s) => `greats become perfects${forSeconds(s)}`,
  },
  {
    code: 5, words: ['perfect lock', 'pl', 'good lock', 'perfect support'], about: 'greats and goods become perfects',
    text: (_v, s) => `greats and goods become perfects${forSeconds(s)}`,
  },
  { code: 9, words: ['heal', 'healer', 'stamina', 'healing', 'recovery'], about: 'restores stamina', text: (v) => `restores ${v} stamina` },
  { code: 11, words: ['score', 'scorer', 'score up', 'scoreup'], about: 'adds score', text: (v) => `score +${v}` },
  {
    code: 2000, words: ['skill chance up', 'skill up', 'chance up', 'skill rate up', 'rate up'], about: 'raises other skills\' activation chance',
    text: (v, s) => `other skills' activation chance +${v}%${forSeconds(s)}`,
  },
  {
    code: 2100, words: ['repeat', 'encore', 'mimic', 'skill repeat'], about: 'repeats the last skill activated by another member',
    text: () => 'repeats the last skill activated by another member',
  },
  { code: 2200, words: ['perfect bonus', 'perfect score up', 'perfect score', 'psu'], about: 'perfect score bonus (%)', text: (v, s) => `perfect score bonus +${v}%${forSeconds(s)}` },
  { code: 2201, words: ['perfect bonus', 'perfect score up', 'perfect score', 'psu'], about: 'perfect score bonus (fixed)', text: (v, s) => `each perfect scores +${v}${forSeconds(s)}` },
  { code: 2300, words: ['combo bonus', 'combo fever'], about: 'combo bonus (%)', text: (v, s) => `combo bonus +${v}%${forSeconds(s)}` },
  { code: 2301, words: ['combo bonus', 'combo fever'], about: 'combo bonus (fixed)', text: (v, s) => `each note's combo bonus +${v}${forSeconds(s)}` },
  {
    code: 2400, words: ['sync', 'synchro'], about: 'copies the stats of another member',
    text: (_v, s) => `copies the stats of another member${forSeconds(s)}`,
  },
  {
    code: 2500, words: ['skill level up', 'level up', 'amplify', 'skill level boost'], about: 'the next skill activates at a higher level',
    text: (v) => `the next skill activates ${v} levels higher`,
  },
  { code: 2600, words: ['stat up', 'appeal up', 'appeal boost', 'stat boost', 'stats up'], about: 'raises stats', text: (v, s) => `stats +${v}%${forSeconds(s)}` },
];

/**
 * School years (the card field `year`, the character's school year), as players say them: a
 * bare `first year`, `1st years`, `second-year`, `year 3` or `3年生` means `year:3`. Every word
 * holds "year" (or 年生), so "first" alone stays a word of titles ("A First Step").
 * @type {Word[]}
 */
export const SCHOOL_YEARS = [['first', '1st', 'one', '一'], ['second', '2nd', 'two', '二'], ['third', '3rd', 'three', '三']].map(([word, short, number, kanji], i) => ({
  code: i + 1,
  words: [
    `${word} year`, `${word} years`, `${short} year`, `${short} years`, `year ${i + 1}`, `year ${number}`, `${word} year student`, `${word} year students`,
    `${i + 1}年生`, `${kanji}年生`,
  ],
  about: `${word}-years (school year ${i + 1})`,
}));

/** Attribute names by code, as the game's attribute ids (5: all). */
export const ATTRIBUTE_NAMES = /** @type {const} */ ({ 1: 'Smile', 2: 'Pure', 3: 'Cool', 5: 'All' });

/** Center skill effects: `<T> +X%` (codes 1-3) and `<T> +X% of <S>` (1ST: S the source, T the raised attribute). */
function centerWords() {
  /** @type {CenterWord[]} */
  const words = [];
  for (const raised of [1, 2, 3]) {
    const name = ATTRIBUTE_NAMES[/** @type {1|2|3} */ (raised)];
    words.push({ code: raised, words: [name.toLowerCase()], about: `${name} +X%`, text: (p) => `${name} +${p}%` });
    for (const source of [1, 2, 3]) {
      if (source === raised) continue;
      const from = ATTRIBUTE_NAMES[/** @type {1|2|3} */ (source)];
      words.push({
        code: 100 + source * 10 + raised, words: [name.toLowerCase(), `${name} from ${from}`.toLowerCase()], about: `${name} +X% of ${from}`,
        text: (p) => `${name} +${p}% of ${from}`,
      });
    }
  }
  return words.sort((a, b) => a.code - b.code);
}

/** Center skill effects (`center_skill.effect_type`, also its `extra_effect`). */
export const CENTERS = centerWords();

/**
 * The codes a table gives `word` (already normalized), empty when it names none.
 * @param {Word[]} table
 * @param {string} word
 */
export const codesOf = (table, word) => table.filter((entry) => entry.words.includes(word)).map((entry) => entry.code);

/**
 * The entry of `code`, undefined when the table does not know it.
 * @template {Word} W
 * @param {W[]} table
 * @param {number} code
 * @returns {W | undefined}
 */
export const entryOf = (table, code) => table.find((entry) => entry.code === code);

/**
 * Chart difficulties (live_setting_m `difficulty`), as the game numbers them. 5 is the Expert
 * chart with its notes placed at random (the game's "random" lives).
 * @type {Word[]}
 */
export const DIFFICULTIES = [
  { code: 1, words: ['easy'], about: 'Easy' },
  { code: 2, words: ['normal'], about: 'Normal' },
  { code: 3, words: ['hard'], about: 'Hard' },
  { code: 4, words: ['expert'], about: 'Expert' },
  { code: 5, words: ['random', 'expert random'], about: 'Expert random (notes placed at random)' },
  { code: 6, words: ['master'], about: 'Master' },
];
