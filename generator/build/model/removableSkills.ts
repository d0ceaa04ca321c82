/** School Idol Skills: unit_removable_skill_m, every column the table has. */
import type { MasterDb, DbRow } from '../input/masterDb.ts';
import type { EnglishTexts } from './english.ts';
import type { RemovableSkill, Text } from './types.ts';
import { num } from './values.ts';

const TABLE = 'unit_removable_skill_m';

/** Columns the model holds elsewhere (id and Texts) or that only serve encryption. */
const NOT_COLUMNS = new Set([
  'unit_removable_skill_id', 'name', 'name_en', 'description', 'description_en', 'release_tag', '_encryption_release_id',
]);

/** A cell as stored; decrypted payloads write `false` for NULL. */
const cell = (value: unknown): string | number | null => (typeof value === 'string' || typeof value === 'number' ? value : null);

/** `column` (name or description) with its secondary: English export, `<column>_en`, crowd translation. */
function localized(row: DbRow, column: string, english: EnglishTexts): Text {
  return english.text(row[column], english.get(TABLE, 'unit_removable_skill_id', num(row.unit_removable_skill_id), column), row[`${column}_en`]);
}

/** In id order; none when the export lacks the table. */
export function buildRemovableSkills(db: MasterDb, english: EnglishTexts): RemovableSkill[] {
  return db.keyedRows(TABLE, 'unit_removable_skill_id')
    .map((row) => ({
      id: num(row.unit_removable_skill_id),
      name: localized(row, 'name', english),
      description: typeof row.description === 'string' ? localized(row, 'description', english) : null,
      columns: Object.fromEntries(Object.entries(row).filter(([column]) => !NOT_COLUMNS.has(column)).map(([column, value]) => [column, cell(value)])),
    }))
    .sort((a, b) => a.id - b.id);
}
