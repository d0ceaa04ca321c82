/**
 * Secondary-language texts: the English client's export (input/en/), looked up by the id it
 * shares with the main export, then the `*_en` column, then the crowd translations.
 */
import type { DbRow, MasterDb } from '../input/masterDb.ts';
import type { Text } from './types.ts';
import { num, text } from './values.ts';

/** Kana: text in it is Japanese, whatever column holds it. */
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Kana or kanji: in the English export, a row still in Japanese script is one not yet translated. */
const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

/**
 * A secondary text that is really the Japanese original is none: kana, or kanji equal to the
 * original (kanji alone may be a Chinese localisation, which some exports keep in `*_en`).
 */
const notJapanese = (candidate: unknown, original: unknown): unknown =>
  typeof candidate === 'string' && (KANA.test(candidate) || (candidate === original && JAPANESE.test(candidate))) ? undefined : candidate;

export class EnglishTexts {
  private readonly cache = new Map<string, Map<number, Record<string, unknown>>>();

  constructor(private readonly db: MasterDb | null, private readonly translations: ReadonlyMap<string, string> = new Map()) {}

  /** The English value of `column` of the row whose `idColumn` is `id`, if any; text still in Japanese script is none. */
  get(table: string, idColumn: string, id: number, column = 'name'): unknown {
    const value = this.table(table, idColumn).get(id)?.[column];
    return typeof value === 'string' && JAPANESE.test(value) ? undefined : value;
  }

  /**
   * English names of what cards link to, by the main export's id: the English export's own row
   * of each card (same unit_id) names its skill there, whose id may differ from the main
   * export's in exports of different periods. `link` is the card column (default_unit_skill_id),
   * `table`/`idColumn` the linked table; the first card with an English name wins.
   */
  namesLinkedByCards(cards: DbRow[], link: string, table: string, idColumn: string): Map<number, unknown> {
    const names = new Map<number, unknown>();
    const englishCards = this.table('unit_m', 'unit_id');
    for (const card of cards) {
      const id = num(card[link]);
      const englishCard = englishCards.get(num(card.unit_id));
      if (!id || names.has(id) || !englishCard) continue;
      const name = this.get(table, idColumn, num(englishCard[link]));
      if (typeof name === 'string' && name.trim()) names.set(id, name);
    }
    return names;
  }

  /**
   * English names by Japanese name, from the skills `linked` names (namesLinkedByCards): a
   * skill no card of the English export links to (its cards are newer than that export) takes
   * the English name of a skill with the very same Japanese name, which the game gives a skill
   * of the same effect in each rarity.
   */
  static namesBySameOriginal(rows: DbRow[], idColumn: string, linked: Map<number, unknown>): Map<unknown, unknown> {
    const names = new Map<unknown, unknown>();
    for (const row of rows) {
      const name = linked.get(num(row[idColumn]));
      if (name !== undefined && typeof row.name === 'string' && !names.has(row.name)) names.set(row.name, name);
    }
    return names;
  }

  /** `original` with the first known secondary text: the candidates in order, then a crowd translation. */
  text(original: unknown, ...candidates: unknown[]): Text {
    const secondary = candidates.map((candidate) => notJapanese(candidate, original));
    return text(original, ...secondary, typeof original === 'string' ? this.translations.get(original) : undefined);
  }

  private table(table: string, idColumn: string): Map<number, Record<string, unknown>> {
    const key = `${table}.${idColumn}`;
    let rows = this.cache.get(key);
    if (!rows) {
      rows = new Map((this.db?.rows(table) ?? []).map((row) => [Number(row[idColumn]), row]));
      this.cache.set(key, rows);
    }
    return rows;
  }
}
