// The detail views behind the hash routes (#card/<ordinal>, #set/<id>, #pair/<id>,
// #accessory/<id>, #event/<id>). Each reads only published static files.
'use strict';
import { REGION_OFFSETS, badges, cardTile, config, day, el, facts, fill, fromFile, icon, load, pictureAt, siteZone, stubIcon, table, zoneName } from './dom.js';
import { statChart } from './chart.js';
import { historySection } from './history.js';
import { centerSkillText, num, skillText } from './words.js';

export const jsonLinks = (files) => el('ul', { class: 'json-links' },
  files.filter(Boolean).map(([label, file]) => el('li', {}, el('a', { href: file }, label, ' ', el('code', {}, file)))));

export const section = (title, ...children) => el('section', { class: 'panel' }, el('h2', {}, title), ...children);

/** A release date in a region, on that region's clock: "2016-08-05", with the zone when it is not the site's ("2018-08-10 CST"). */
function regionDay(code, seconds) {
  const offset = REGION_OFFSETS[code] ?? siteZone.offset;
  return offset === siteZone.offset ? day(seconds) : `${day(seconds, offset)} ${zoneName(offset)}`;
}

/**
 * Where an object of an archive site is (its `regions` member), in words: the regions holding it,
 * each with its release date there when the region's data dates it, else the day of the region's
 * first export that held it; then those that do not: "JP (first seen 2017-07-08), WW (released
 * 2016-08-05); not in CN". Null without the member (a site built from one export).
 */
export function regionsText(regions) {
  if (!regions) return null;
  const entries = Object.entries(regions);
  const name = (code) => code.toUpperCase();
  const held = entries.filter(([, r]) => r.present)
    .map(([code, r]) => `${name(code)}${typeof r.released === 'number' ? ` (released ${regionDay(code, r.released)})` : r.first_seen ? ` (first seen ${r.first_seen})` : ''}`);
  const never = entries.filter(([, r]) => !r.present && !r.first_seen).map(([code]) => name(code));
  const gone = entries.filter(([, r]) => !r.present && r.first_seen).map(([code, r]) => `no longer in ${name(code)} (first seen ${r.first_seen})`);
  return [held.join(', '), never.length ? `not in ${never.join(' or ')}` : '', ...gone].filter(Boolean).join('; ') || null;
}

/** Stubs by ordinal, for tiles and partner icons. */
const stubsByOrdinal = async () => new Map((await load(config.cardList)).stubs.map((s) => [s.ordinal, s]));

const tiles = (stubs) => el('ul', { class: 'cards' }, stubs.filter(Boolean).map((stub) => cardTile(stub)));

/** A generic object from its type's pack (every host serves packs), null when it does not exist. */
export async function object(type, id) {
  try {
    return (await load(fill(config.pack[type], Math.floor(id / config.packSize)))).objects[id] ?? null;
  } catch {
    return null;
  }
}

// ---- card ------------------------------------------------------------------

function characterFacts(card, character) {
  if (!character) return [['Character', `#${card.type_id}`]];
  const tag = (id) => character.tags.find((t) => t.id === id);
  const tagName = (t) => (t ? t.name_en || t.name : null);
  const group = character.tags.find((t) => t.display && t.id > 3 && t.id !== card.sub_affiliation);
  return [
    ['Character', [character.name_en || character.name, character.name_en ? ` (${character.name})` : '']],
    ['Year', card.year ? tagName(tag(card.year)) ?? String(card.year) : null],
    ['Group', tagName(group)],
    ['Sub-unit', card.sub_affiliation ? tagName(tag(card.sub_affiliation)) ?? String(card.sub_affiliation) : null],
  ];
}

/** The date, "(estimated)" when dirty; when unknown, bounded by the nearest dated card below ("unknown (after <date>)"), if any. */
function releaseText(card, stubs) {
  const extra = card.extra_data;
  if (extra.release_date !== null) return extra.release_date_is_dirty ? `${day(extra.release_date)} (estimated)` : day(extra.release_date);
  const below = [...stubs.values()].filter((s) => s.ordinal < card.ordinal && s.release_date !== null);
  const latest = below.reduce((a, s) => (a === null || s.ordinal > a.ordinal ? s : a), null);
  return latest ? `unknown (after ${day(latest.release_date)})` : 'unknown';
}

function flags(card) {
  return [card.is_support_card && 'support card', card.is_costume_card && 'costume card',
    card.is_pre_transformed && 'always idolized', card.is_transform_disabled && !card.is_pre_transformed && 'cannot be idolized']
    .filter(Boolean).join(', ');
}

/**
 * The stats fans look up first: Smile, Pure, Cool and stamina at the level cap, idolized and (for
 * a card that can be idolized later) before; the values are the per-level arrays' entries there.
 */
function maxStats(card) {
  const row = (label, level) => [label, ...['smile', 'pure', 'cool', 'stamina'].map((stat) => num(card[stat]?.[Math.min(level, card[stat]?.length ?? 0) - 1]))];
  const idolized = card.transformed_max_level || card.smile.length;
  const rows = [row(`Idolized, level ${idolized}`, idolized)];
  if (!card.is_pre_transformed && !card.is_transform_disabled && card.normal_max_level < idolized) rows.push(row(`Not idolized, level ${card.normal_max_level}`, card.normal_max_level));
  return el('section', { class: 'panel max-stats' }, el('h2', {}, 'Max stats'),
    table('Stats at the level cap', ['', 'Smile', 'Pure', 'Cool', 'Stamina'], rows, { class: 'max-stat-table' }));
}

/** The card's art, where the build names an image host (responses carry no art of their own). */
function artSection(card, file) {
  const pictures = [[card.images?.art, 'not idolized'], [card.images?.art_idolized, 'idolized']].filter(([url]) => url);
  if (!pictures.length) return null;
  return section('Art', el('div', { class: 'art' }, pictures.map(([url, state]) =>
    el('figure', {}, el('img', { src: fromFile(file, url), alt: `${card.char_name}, ${state}`, loading: 'lazy', decoding: 'async' }), el('figcaption', {}, state)))));
}

function skillSection(skill) {
  if (!skill) return section('Skill', el('p', {}, 'This card has no skill.'));
  const levels = skill.probability.map((_, i) => i);
  const last = levels.length - 1;
  return section('Skill',
    el('p', { class: 'skill-name' }, skill.name_en || skill.name, skill.name_en ? ` (${skill.name})` : ''),
    el('p', { class: 'skill-text' }, `Level 1: ${skillText(skill, 0)}`),
    last > 0 ? el('p', { class: 'skill-text-max' }, `Level ${last + 1}: ${skillText(skill, last)}`) : null,
    facts([['Targets', skill.translated_target], ['Trigger targets', skill.translated_trigger_target],
      ['Type codes', `trigger ${skill.trigger_type}, effect ${skill.effect_type}`]]),
    table('Skill by level', ['Level', 'Chance (%)', 'Trigger value', 'Effect value', 'Duration (s)'],
      levels.map((i) => [String(i + 1), num(skill.probability[i]), num(skill.trigger_val[i]), num(skill.effect_val[i]), num(skill.effect_dur[i])]),
      { class: 'skill-levels' }));
}

function centerSection(center) {
  if (!center) return section('Center skill', el('p', {}, 'This card has no center skill.'));
  return section('Center skill',
    center.name_en || center.name ? el('p', { class: 'skill-name' }, center.name_en || center.name) : null,
    el('p', { class: 'center-text' }, centerSkillText(center)));
}

/**
 * The game can list the same two cards under several pair ids (unit_pair_m rows of another `rank`):
 * pair_list's entries grouped by their cards, each group once, in the order of its first entry.
 */
export function pairGroups(pairs) {
  const groups = new Map();
  for (const pair of pairs) {
    const key = [...pair.ordinals].sort((a, b) => a - b).join(',');
    groups.set(key, [...(groups.get(key) ?? []), pair]);
  }
  return [...groups.values()];
}

/** A pair's `rank` (unit_pair_m), which tells apart the entries of the same two cards: "rank 2", "rank 1 and 2". */
const pairArt = (pair) => `rank ${[...new Set(pair.members.map((m) => m.rank))].join(' and ')}`;

/** Links to the pair ids of one group: "Pair 1 (rank 2), pair 101 (rank 1)". */
const pairLinks = (group) => group.flatMap((pair, i) => [i ? ', ' : '', el('a', { href: `#pair/${pair.pair}` }, `${i ? 'pair' : 'Pair'} ${pair.pair}`), ` (${pairArt(pair)})`]);

async function pairSection(card, stubs) {
  const group = pairGroups((await load(config.pairList).catch(() => ({ pairs: [] }))).pairs).find((g) => g[0].ordinals.includes(card.ordinal));
  if (!group) return null;
  const partner = stubs.get(group[0].ordinals.find((o) => o !== card.ordinal));
  return section('Pair',
    el('p', {}, pairLinks(group), ': this card\'s art forms one picture with its partner.'),
    tiles([partner]));
}

async function accessorySection(card) {
  const list = (await load(config.accessoryList).catch(() => ({ accessories: [] }))).accessories.filter((a) => a.unit_ordinal === card.ordinal);
  if (!list.length) return null;
  return section('Accessories', el('ul', { class: 'accessories' }, list.map(accessoryTile)));
}

function listSection(title, items, link) {
  if (!items.length) return null;
  return section(title, el('ul', { class: 'links' }, items.map((item) => el('li', {}, link(item)))));
}

export async function cardView(ordinal) {
  const file = fill(config.card, ordinal);
  const card = (await load(file)).cards[0];
  const [stubs, character, setList] = await Promise.all([
    stubsByOrdinal(), object('char_t', card.type_id), load(config.setList).catch(() => ({ sets: [] })),
  ]);
  const setName = new Map(setList.sets.map((s) => [s.id, s.display_name]));
  const title = card.title_en || card.title;
  const names = card.char_name === card.original_char_name ? card.char_name : `${card.char_name} (${card.original_char_name})`;
  return [
    el('header', { class: 'view-head' },
      // The states the card has: an always-idolized card has no unidolized picture, one that cannot be idolized no idolized one.
      el('div', { class: 'icons' },
        card.is_pre_transformed ? null : pictureAt(fromFile(file, card.images?.icon), `${card.char_name}, not idolized`, '—'),
        card.is_transform_disabled && !card.is_pre_transformed ? null : pictureAt(fromFile(file, card.images?.icon_idolized), `${card.char_name}, idolized`, '—')),
      el('div', {},
        el('h1', { tabindex: '-1' }, title ? `${title}: ${card.char_name}` : card.char_name),
        el('p', { class: 'names' }, [card.title && card.title_en && card.title !== card.title_en ? `${card.title} · ` : '', names]),
        el('p', { class: 'tags' }, badges(card), el('span', { class: 'ordinal' }, `#${card.ordinal} · id ${card.id}`)))),
    maxStats(card),
    artSection(card, file),
    section('About', facts([
      ...characterFacts(card, character),
      ['Released', releaseText(card, stubs)],
      ['Regions', regionsText(card.regions)],
      ['Level cap', `${card.normal_max_level} / ${card.transformed_max_level} idolized`],
      ['Bond cap', `${card.normal_max_kizuna} / ${card.transformed_max_kizuna} idolized`],
      ['Notes', flags(card)],
    ])),
    skillSection(card.skill),
    centerSection(card.center_skill),
    section('Stats by level', statChart(card)),
    listSection('Sets', card.sets, (id) => el('a', { href: `#set/${encodeURIComponent(id)}` }, setName.get(id) ?? id)),
    await pairSection(card, stubs),
    await accessorySection(card),
    listSection('Events', card.events, (e) => [el('a', { href: `#event/${e.id}` }, e.name_en || e.name), ` (${day(e.start_date)})`]),
    await historySection(card.ordinal),
    section('JSON', jsonLinks([
      ['Card', file], ['Card object', fill(config.object.card_t, card.id)], ['Character', fill(config.object.char_t, card.type_id)],
      card.skill && ['Skill', fill(config.object.skill_t, card.skill.id)],
      card.center_skill && ['Center skill', fill(config.object.leader_skill_t, card.center_skill.id)],
    ])),
  ];
}

// ---- sets, pairs, accessories, events ----------------------------------------

export async function setView(id) {
  const file = fill(config.set, id);
  const [set, setList, stubs] = await Promise.all([load(file), load(config.setList), stubsByOrdinal()]);
  const name = setList.sets.find((s) => s.id === id)?.display_name ?? id;
  return [
    el('header', { class: 'view-head' }, el('div', {}, el('h1', { tabindex: '-1' }, name), el('p', { class: 'names' }, `Set ${id} · ${set.cards.length} cards`))),
    section('Cards', tiles(set.cards.map((c) => stubs.get(c.ordinal)))),
    section('JSON', jsonLinks([['Set', file]])),
  ];
}

export async function pairView(id) {
  const pairs = (await load(config.pairList)).pairs;
  const pair = pairs.find((p) => String(p.pair) === id);
  if (!pair) throw Object.assign(new Error(`pair ${id} is not in ${config.pairList}`), { status: 404 });
  const group = pairGroups(pairs).find((g) => g.includes(pair));
  const stubs = await stubsByOrdinal();
  return [
    el('header', { class: 'view-head' }, el('div', { class: 'icons' }, pair.ordinals.map((o) => stubIcon(stubs.get(o), `card #${o}`, '?'))),
      el('div', {}, el('h1', { tabindex: '-1' }, `Pair ${pair.pair}`), el('p', { class: 'names' }, `Two cards whose art forms one picture (${pairArt(pair)}).`))),
    group.length > 1 ? section('The same cards', el('p', { class: 'pair-ids' }, pairLinks(group))) : null,
    section('Cards', tiles(pair.ordinals.map((o) => stubs.get(o)))),
    section('JSON', jsonLinks(group.map((p) => [`Pair ${p.pair}`, fill(config.pair, p.pair)]))),
  ];
}

export function accessoryTile(a) {
  return el('li', {},
    el('a', { href: `#accessory/${a.id}` },
      icon(config.accessoryIcon, a.icon, a.name_en || a.name, '◆'),
      el('span', { class: 'meta' },
        el('span', { class: 'name' }, a.name_en || a.name),
        el('span', { class: 'title' }, [a.is_material ? 'material' : null, a.is_limited && a.unit_ordinal ? `card #${a.unit_ordinal}` : null].filter(Boolean).join(' · ') || `rarity ${a.rarity}`))));
}

export async function accessoryView(id) {
  const file = fill(config.accessory, id);
  const a = (await load(file)).accessories[0];
  const stubs = await stubsByOrdinal();
  const levels = a.smile.map((_, i) => [String(i + 1), ...['smile', 'pure', 'cool', 'probability', 'trigger_val', 'effect_val', 'effect_dur'].map((k) => (a[k][i] === null ? '—' : num(a[k][i])))]);
  return [
    el('header', { class: 'view-head' }, el('div', { class: 'icons' }, pictureAt(fromFile(file, a.icon_image), a.name_en || a.name, '◆')),
      el('div', {}, el('h1', { tabindex: '-1' }, a.name_en || a.name), el('p', { class: 'names' }, a.name_en ? a.name : ''))),
    section('About', facts([
      ['Rarity', String(a.rarity)], ['Level cap', `${a.default_level_max} (${a.level_max} with skill amplification)`],
      ['Effect', `effect type ${a.effect_type}${a.effect_target_name ? ` on ${a.effect_target_name}` : ''}`],
      ['Trigger', a.trigger_type === null ? null : `trigger type ${a.trigger_type}`],
      ['Material', a.is_material ? 'yes: not usable in lives' : null],
      ['Regions', regionsText(a.regions)],
    ])),
    a.unit_ordinal !== null ? section('Belongs to', tiles([stubs.get(a.unit_ordinal)])) : null,
    section('Levels', table('Accessory by level', ['Level', 'Smile', 'Pure', 'Cool', 'Chance (%)', 'Trigger value', 'Effect value', 'Duration (s)'], levels, { class: 'accessory-levels' })),
    section('JSON', jsonLinks([['Accessory', file], ['Accessory object', fill(config.object.accessory_t, a.id)]])),
  ];
}

export async function eventView(id) {
  const event = await object('event_t', id);
  if (!event) throw Object.assign(new Error(`event ${id} is not published`), { status: 404 });
  const stubs = await stubsByOrdinal();
  return [
    el('header', { class: 'view-head' }, el('div', {}, el('h1', { tabindex: '-1' }, event.name_en || event.name), el('p', { class: 'names' }, event.name_en ? event.name : ''))),
    section('About', facts([
      ['Starts', day(event.start_date)], ['Ends', day(event.end_date)],
      ['Results until', event.result_end_date === null ? null : day(event.result_end_date)],
      ['Type', event.type === null ? null : String(event.type)],
    ])),
    event.reward_ordinals.length ? section('Reward cards', tiles(event.reward_ordinals.map((o) => stubs.get(o)))) : null,
    section('JSON', jsonLinks([['Event', fill(config.object.event_t, event.id)]])),
  ];
}
