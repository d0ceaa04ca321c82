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
/**
 * Note files (notes/, livejson/: a chart's notes, docs/songs.md#notes). The game's last export has
 * about 2,000 of them, 65 MB in all, the largest some hundreds of kilobytes (2019's largest of 909:
 * 110 KB, 1,061 notes); the limits hold four times that and more. A file past one is not read:
 * one warning names it and its charts, which are published without notes.
 */
export const MAX_NOTE_FILE_BYTES = 4 * 1024 ** 2;
/** Notes in one note file. */
export const MAX_NOTES_PER_FILE = 10_000;
/** Note files read in one build (each read once, however many charts name it). */
export const MAX_NOTE_FILES = 8_000;
/** Bytes of the note files read in one build, all together: parsed, they are held until the site is written. */
export const MAX_NOTE_BYTES = 256 * 1024 ** 2;
