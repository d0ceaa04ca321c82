/** Sizes of input files the build reads (docs/limits.md): a larger file is refused with one line naming it. */

/** Any input file (the check stage reads every one for the input's digest); an encrypted client file, decrypted in memory, has the same limit. */
export const MAX_INPUT_FILE_BYTES = 512 * 1024 ** 2;
/** A curated JSON file (meta.json, release_info.json, release_dates.json, sets.json, gachas.json, translations). */
export const MAX_JSON_BYTES = 32 * 1024 ** 2;
/**
 * Characters of one text in a database row or a curated file. Real ones are names and short
 * descriptions (under 300 characters); a name is copied into every card that links it.
 */
export const MAX_TEXT_CHARS = 1024;
/** A picture under assets/ (a larger one is reported unreadable; its URL is null). */
export const MAX_PICTURE_BYTES = 32 * 1024 ** 2;
