// Skills and center skills in words, from their type codes: the sentences of the one word table
// the search uses too (search/words.js, which cites the sources of the codes). Any code the table
// does not know is shown as its number, never guessed.
'use strict';
import { CENTERS, EFFECTS, TRIGGERS, entryOf } from '../search/words.js';

/** A number as people write it: no trailing zeros, at most two decimals. */
export const num = (value) => (value === null || value === undefined ? '?' : String(Math.round(Number(value) * 100) / 100));

/** The skill at one level (0-based index into its arrays), e.g. "every 20 notes, 36% chance: score +200". */
export function skillText(skill, index) {
  const value = num(skill.effect_val[index]);
  const seconds = num(skill.effect_dur[index]);
  const trigger = entryOf(TRIGGERS, skill.trigger_type)?.text(num(skill.trigger_val[index]), skill)
    ?? `trigger type ${skill.trigger_type} (value ${num(skill.trigger_val[index])})`;
  const effect = entryOf(EFFECTS, skill.effect_type)?.text(value, seconds)
    ?? `effect type ${skill.effect_type} (value ${value}, duration ${seconds} s)`;
  return `${trigger}, ${num(skill.probability[index])}% chance: ${effect}`;
}

/** "Smile +9%" or "Pure +12% of Smile" for a center skill effect code, null for an unknown code. */
const centerEffect = (code, percent) => entryOf(CENTERS, code)?.text(String(percent)) ?? null;

/** The center skill in words, with its extra effect for a group of members when it has one. */
export function centerSkillText(center) {
  const main = centerEffect(center.effect_type, center.percent) ?? `effect type ${center.effect_type} (${center.percent}%)`;
  if (!center.extra_effect) return `${main} for the whole team`;
  const who = center.extra_apply_type_name_en || center.extra_apply_type_name || `member tag ${center.extra_apply_type}`;
  const extra = centerEffect(center.extra_effect, center.extra_percent) ?? `effect type ${center.extra_effect} (${center.extra_percent}%)`;
  return `${main} for the whole team, and ${extra} more for ${who} members`;
}
