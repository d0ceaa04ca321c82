/** How complete the model is, for the build report: English texts per kind, and how each card's release date was found. */
import type { Text } from './types.ts';
import type { Model } from './buildModel.ts';

export interface Counted {
  with: number;
  without: number;
}

export interface Coverage {
  /** Objects with and without an English text (of cards, those with a title; center skills without any name count as without). */
  english: { card_titles: Counted; skills: Counted; center_skills: Counted; events: Counted };
  /** Known (curated or from an event), estimated (between two known ordinals), unknown (null). */
  release_dates: { known: number; estimated: number; unknown: number };
}

/** How many of `texts` have an English (secondary) form; null counts as a text without one. */
function english(texts: (Text | null)[]): Counted {
  const counted = { with: 0, without: 0 };
  for (const text of texts) counted[text?.secondary == null ? 'without' : 'with']++;
  return counted;
}

export function modelCoverage(model: Model): Coverage {
  const dates = { known: 0, estimated: 0, unknown: 0 };
  for (const card of model.cards) dates[card.releaseDate === null ? 'unknown' : card.releaseDateIsDirty ? 'estimated' : 'known']++;
  return {
    english: {
      card_titles: english(model.cards.filter((c) => c.title !== null).map((c) => c.title)),
      skills: english([...model.skills.values()].map((s) => s.name)),
      center_skills: english([...model.centerSkills.values()].map((s) => s.name)),
      events: english(model.events.map((e) => e.name)),
    },
    release_dates: dates,
  };
}
