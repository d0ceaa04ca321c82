// Skills and center skills in words, from their type codes. Only codes confirmed by a public
// source get words; any other code is shown as its number, never guessed.
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
'use strict';

/** A number as people write it: no trailing zeros, at most two decimals. */
export const num = (value) => (value === null || value === undefined ? '?' : String(Math.round(Number(value) * 100) / 100));

const TRIGGERS = {
  1: (n) => `every ${n} seconds`,
  3: (n) => `every ${n} notes`,
  4: (n) => `every ${n} combo`,
  5: (n) => `every ${n} points of score`,
  6: (n) => `every ${n} perfects`,
  12: (n) => `every ${n} perfect star notes`,
  100: (_n, skill) => `once ${skill.translated_trigger_target ?? 'the named members'} have all activated their skills`,
};

const forSeconds = (s) => ` for ${s} seconds`;
const EFFECTS = {
  4: (v, s) => `greats become perfects${forSeconds(s)}`,
  5: (v, s) => `greats and goods become perfects${forSeconds(s)}`,
  9: (v) => `restores ${v} stamina`,
  11: (v) => `score +${v}`,
  2000: (v, s) => `other skills' activation chance +${v}%${forSeconds(s)}`,
  2100: () => 'repeats the last skill activated by another member',
  2200: (v, s) => `perfect score bonus +${v}%${forSeconds(s)}`,
  2201: (v, s) => `each perfect scores +${v}${forSeconds(s)}`,
  2300: (v, s) => `combo bonus +${v}%${forSeconds(s)}`,
  2301: (v, s) => `each note's combo bonus +${v}${forSeconds(s)}`,
  2400: (v, s) => `copies the stats of another member${forSeconds(s)}`,
  2500: (v) => `the next skill activates ${v} levels higher`,
  2600: (v, s) => `stats +${v}%${forSeconds(s)}`,
};

/** The skill at one level (0-based index into its arrays), e.g. "every 20 notes, 36% chance: score +200". */
export function skillText(skill, index) {
  const value = num(skill.effect_val[index]);
  const seconds = num(skill.effect_dur[index]);
  const trigger = TRIGGERS[skill.trigger_type]?.(num(skill.trigger_val[index]), skill)
    ?? `trigger type ${skill.trigger_type} (value ${num(skill.trigger_val[index])})`;
  const effect = EFFECTS[skill.effect_type]?.(value, seconds)
    ?? `effect type ${skill.effect_type} (value ${value}, duration ${seconds} s)`;
  return `${trigger}, ${num(skill.probability[index])}% chance: ${effect}`;
}

const ATTRIBUTES = { 1: 'Smile', 2: 'Pure', 3: 'Cool' };

/** "Smile +9%" or "Pure +12% of Smile" for a center skill effect code, null for an unknown code. */
function centerEffect(code, percent) {
  if (ATTRIBUTES[code]) return `${ATTRIBUTES[code]} +${percent}%`;
  const match = /^1([123])([123])$/.exec(String(code));
  if (!match || match[1] === match[2]) return null;
  return `${ATTRIBUTES[match[2]]} +${percent}% of ${ATTRIBUTES[match[1]]}`;
}

/** The center skill in words, with its extra effect for a group of members when it has one. */
export function centerSkillText(center) {
  const main = centerEffect(center.effect_type, center.percent) ?? `effect type ${center.effect_type} (${center.percent}%)`;
  if (!center.extra_effect) return `${main} for the whole team`;
  const who = center.extra_apply_type_name_en || center.extra_apply_type_name || `member tag ${center.extra_apply_type}`;
  const extra = centerEffect(center.extra_effect, center.extra_percent) ?? `effect type ${center.extra_effect} (${center.extra_percent}%)`;
  return `${main} for the whole team, and ${extra} more for ${who} members`;
}
