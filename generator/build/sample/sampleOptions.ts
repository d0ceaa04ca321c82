/** What the invented sample export holds: the options of writeSampleExport and writeSampleArchive (make-sample.ts, sampleArchive.ts). */
import type { FileScheme } from '../input/fileCipher.ts';
import type { TableDump } from './sql.ts';

export interface SampleOptions {
  /** Total card count; above the curated sample, ordinary cards are generated. */
  cards?: number;
  /** Total accessory count, likewise. */
  accessories?: number;
  /** Total song count, likewise (each generated song with five charts, Easy to Master). */
  songs?: number;
  /** 'sql': readable dumps (the shipped sample); 'sqlite': client layout db/<group>/<name>.db_. */
  format?: 'sql' | 'sqlite';
  /** Write pictures under assets/ (default true). */
  images?: boolean;
  /** With format 'sqlite': encrypt each database as the game client does (a device's files). */
  encrypt?: FileScheme;
  /** '2015': the oldest unit database's shape (stats per card and level in unit_level_m; see asGeneration2015). */
  generation?: 'current' | '2015';
  /**
   * Edits a database's tables before they are written (in the current shape, which generation
   * '2015' then reshapes); `english` is what the English client's export holds of it (en/).
   */
  edit?: (database: SampleDatabase, tables: TableDump[], english: TableDump[]) => TableDump[];
  /** Write the English client's databases in en/ (default true). */
  english?: boolean;
  /** meta.json's content (default the sample's own: a truth_version, region jp); null writes none. */
  meta?: Record<string, unknown> | null;
  /** Write the crowd's files: release dates, sets, gachas, translations (default true). */
  crowd?: boolean;
  /**
   * Note files (notes/): 'sample' (default) for the Easy chart of each curated song, and the planted
   * broken one; 'all' for every readable chart (game-scale builds); 'none'.
   */
  notes?: 'sample' | 'all' | 'none';
}

/** The databases an export holds, by their name in the client. */
export type SampleDatabase = 'unit' | 'event_common' | 'live';
