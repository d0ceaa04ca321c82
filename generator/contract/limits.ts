/** The request limits every host enforces, declared once: the edge checks them, the docs and schemas state them. */

/** Ids per comma list (a real client asks for 1,000 ordinals at once). */
export const MAX_IDS = 1000;
/** Ids are database integers of at most this many significant digits; longer ones name nothing. */
export const MAX_ID_DIGITS = 9;
/** The highest id or ordinal a request can name. */
export const MAX_ID = 10 ** MAX_ID_DIGITS - 1;
/** Strings in one read_tl body. */
export const MAX_READ_TL_STRINGS = 1000;
/** Bytes in one read_tl body. */
export const MAX_READ_TL_BYTES = 1024 * 1024;
/**
 * Files one request may read. A Cloudflare Worker on the Free plan makes at most 50 subrequests per
 * request, and each read of the site through the ASSETS binding is one; past them the platform throws
 * (a bare 500) where no local runtime does. The edge refuses a request whose reads would pass it
 * before reading any (a 400 naming what to ask less of), on every host alike.
 */
export const MAX_READS = 50;
/**
 * Ids in one `?version=` comma list: each id's history is its own file (a card_t id's may take two
 * reads, its own history pack and its card's), so 1 (versions.json) + 2 x 20 + card_t's key packs
 * stay within MAX_READS. Per-object histories keep an update's changed files to the objects it changed.
 */
export const MAX_VERSION_IDS = 20;
