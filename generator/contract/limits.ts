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
