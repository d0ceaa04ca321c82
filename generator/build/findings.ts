/**
 * What a stage found in its input, to be told (warnings grouped by kind, encrypted rows no key
 * opened, the databases read, the files not read): every stage records into a Findings, and the
 * build's report (report.ts) is one. Imports no stage, so every stage may import it.
 */

/** A file under the input folder the build did not read, and why. */
export interface UnreadFile {
  file: string;
  reason: string;
  /** What would make the build read it: the name a misnamed database needs. */
  hint?: string;
}

/** Files not read kept in full in the report; the rest are counted. */
export const UNREAD_FILES_KEPT = 1000;

/** Full examples kept per warning kind; the rest are counted. */
export const WARNING_EXAMPLES = 3;

export interface WarningKind {
  count: number;
  /** The first few warnings of the kind, in full. */
  examples: string[];
}

/** A database the read stage opened, and how. */
export interface DatabaseRead {
  file: string;
  form: 'sqlite' | 'sql dump' | 'client file';
  /** A client file's encryption ("JP V3"), decrypted in memory. */
  encryption?: string;
  /** The base name its key was derived from (the client's name for the file). */
  keyName?: string;
}

/** One warning for `count` problems of a kind: what they are, and the first few `examples` (null for none). */
export function manyWarning(count: number, what: string, examples: string[], separator = '; '): string | null {
  if (!count) return null;
  const more = count > examples.length ? `${separator}and ${count - examples.length} more` : '';
  return `${what}: ${examples.join(separator)}${more}`;
}

/** One line per kind: the warning itself when alone, else the count and the first few. */
function kindLine(kind: string, { count, examples }: WarningKind): string {
  if (count === 1) return examples[0];
  const more = count > examples.length ? ` / and ${count - examples.length} more` : '';
  return `${kind} (${count} warnings): ${examples.join(' / ')}${more}`;
}

/**
 * What a stage found in its input, to be told: warnings grouped by kind, encrypted rows no key
 * opened, the databases read and the files not read. The read, model and render stages each
 * get a Findings of their own and never see the report; build.ts adds it to the report.
 */
export class Findings {
  /** One line per kind of warning (see warn). */
  readonly warnings: string[] = [];
  /** Every kind of warning with its count and first examples. */
  readonly warningKinds: Record<string, WarningKind> = {};
  /** Encrypted rows that no key opened, per table. */
  readonly unreadable: Record<string, number> = {};
  /** Those rows per release id (`_encryption_release_id`), and whether release_info.json had a key for it (a wrong one). */
  readonly unreadableReleases: Record<string, { rows: number; key_given: boolean }> = {};
  /** The databases read, and how (client files decrypted in memory). */
  readonly databases: DatabaseRead[] = [];
  /** Files under the input folder the build did not read, and why: the first UNREAD_FILES_KEPT of them (see noteUnreadFiles). */
  readonly unreadFiles: UnreadFile[] = [];
  /** How many files the build did not read, all of them. */
  unreadFileCount = 0;
  /** Where each kind's line is in `warnings`, in the order the kinds were first heard. */
  private readonly lineOfKind = new Map<string, number>();

  /**
   * Records a warning. Warnings of one `kind` (a phrase naming the problem; by default the
   * message itself) share one line, so an export with thousands of like problems stays readable.
   */
  warn(message: string, kind = message): void {
    this.addToKind(kind, 1, [message]);
  }

  protected addToKind(kind: string, count: number, examples: string[]): void {
    const known = Object.hasOwn(this.warningKinds, kind);
    const group = known ? this.warningKinds[kind] : (this.warningKinds[kind] = { count: 0, examples: [] });
    group.count += count;
    group.examples.push(...examples.slice(0, WARNING_EXAMPLES - group.examples.length));
    const line = kindLine(kind, group);
    if (!known) {
      this.lineOfKind.set(kind, this.warnings.length);
      this.warnings.push(line);
    } else {
      this.warnings[this.lineOfKind.get(kind)!] = line;
    }
  }

  /** One warning for many problems of a kind: the count and the first few examples, however many there are. */
  warnMany(count: number, what: string, examples: string[], separator = '; '): void {
    const warning = manyWarning(count, what, examples, separator);
    if (warning) this.warn(warning);
  }

  /** Records the warnings a stage returned, in order. */
  warnAll(warnings: string[]): void {
    for (const warning of warnings) this.warn(warning);
  }

  /** An encrypted row no key opened: `releaseId` names its key; `keyGiven` when release_info.json has one that does not open it. */
  countUnreadable(table: string, releaseId: string, keyGiven: boolean): void {
    this.unreadable[table] = (this.unreadable[table] ?? 0) + 1;
    const release = (this.unreadableReleases[releaseId] ??= { rows: 0, key_given: keyGiven });
    release.rows++;
  }

  /** Files not read: all are counted, the first UNREAD_FILES_KEPT kept, so a folder of a million stray files keeps the report small. */
  noteUnreadFiles(files: UnreadFile[], count = files.length): void {
    this.unreadFileCount += count;
    this.unreadFiles.push(...files.slice(0, UNREAD_FILES_KEPT - this.unreadFiles.length));
  }

  noteDatabase(read: DatabaseRead): void {
    this.databases.push(read);
  }

  /** Adds what a stage found, as if this had heard each of its warnings and counts in order. */
  add(found: Findings): void {
    for (const kind of found.lineOfKind.keys()) this.addToKind(kind, found.warningKinds[kind].count, found.warningKinds[kind].examples);
    for (const [releaseId, { rows, key_given: keyGiven }] of Object.entries(found.unreadableReleases)) {
      const release = (this.unreadableReleases[releaseId] ??= { rows: 0, key_given: keyGiven });
      release.rows += rows;
    }
    for (const [table, rows] of Object.entries(found.unreadable)) this.unreadable[table] = (this.unreadable[table] ?? 0) + rows;
    this.databases.push(...found.databases);
    this.noteUnreadFiles(found.unreadFiles, found.unreadFileCount);
  }
}

