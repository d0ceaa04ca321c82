/** The build's summary as the CLI prints it (generator/build/cli.ts), from the build report. */
import type { BuildReport } from './report.ts';
import { describeCounts } from './changes/diff.ts';
import type { ArchiveReport, ExportLine } from './archive/archive.ts';

/** Which release keys the unreadable rows need: missing from release_info.json, or given but not opening them. */
function missingKeys(report: BuildReport): string {
  const releases = Object.entries(report.unreadableReleases);
  const ids = (keyGiven: boolean) => releases.filter(([, r]) => r.key_given === keyGiven).map(([id]) => id).join(', ');
  return [
    ids(false) && `release_info.json has no key for release ${ids(false)}`,
    ids(true) && `the key given for release ${ids(true)} does not open them`,
  ].filter(Boolean).join('; ');
}

/** Files not read, with the reason (and the name a misnamed database needs); the first few in full. */
function unreadLine(report: BuildReport): string | null {
  const [files, count] = [report.unreadFiles, report.unreadFileCount];
  if (!count) return null;
  const shown = files.slice(0, UNREAD_SHOWN).map((f) => `${f.file} (${f.reason}${f.hint ? `; ${f.hint}` : ''})`);
  const more = count > shown.length ? `; and ${count - shown.length} more (report.json unread_files)` : '';
  return `not read: ${count} file${count === 1 ? '' : 's'}: ${shown.join('; ')}${more}`;
}
const UNREAD_SHOWN = 5;

/** English per kind and release dates by how they were found. */
function coverageLines(report: BuildReport): string[] {
  const coverage = report.coverage;
  if (!coverage) return [];
  const english = Object.entries(coverage.english).map(([kind, c]) => `${kind.replace('_', ' ')} ${c.with} of ${c.with + c.without}`);
  const d = coverage.release_dates;
  return [`english: ${english.join(', ')}`, `release dates: ${d.known} known, ${d.estimated} estimated, ${d.unknown} unknown`];
}

/** Said before the sample's warnings: they show how the build reports problems, and are no fault of the user's. */
export const SAMPLE_NOTE = 'sample: this is the invented sample (input/sample.json); its warnings below are planted on purpose (cards past the event data, missing and broken pictures, charts of no song, a broken note file, ...) to show how the build reports the problems of an export; a build of your own export warns of its own only';

/** What `npm run build` prints when the build succeeds: one line per fact, the update line last. */
export function buildSummary(report: BuildReport, reportFile: string): string {
  const upToDate = report.upToDate ? ' (up to date: same input and generator, site untouched)' : '';
  const lines = [`build: ${report.changed} changed, ${report.unchanged} unchanged, ${report.removed} removed${upToDate}`];
  lines.push(`files: ${Object.entries(report.counts).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  const decrypted = report.databases.filter((d) => d.encryption);
  if (decrypted.length) lines.push(`decrypted in memory: ${decrypted.map((d) => `${d.file} (${d.encryption} client file)`).join(', ')}`);
  const unreadable = Object.entries(report.unreadable);
  const keys = missingKeys(report);
  if (unreadable.length) lines.push(`unreadable encrypted rows: ${unreadable.map(([t, n]) => `${t}=${n}`).join(' ')}${keys && ` (${keys})`}`);
  const unread = unreadLine(report);
  if (unread) lines.push(unread);
  lines.push(...coverageLines(report));
  const images = report.images;
  if (report.timings.images !== undefined) {
    lines.push(`images: ${images.published} published, ${images.encoded} encoded, ${images.reused} from cache, ${images.missing} missing, ${images.unreadable} unreadable`);
  }
  for (const fit of report.hosts) lines.push(`host: ${fit.line}`);
  lines.push(`timings: ${Object.entries(report.timings).map(([k, v]) => `${k}=${v}ms`).join(' ')}`);
  if (report.sample && report.warnings.length) lines.push(SAMPLE_NOTE);
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  lines.push(`report: ${reportFile}`);
  if (report.update) lines.push(`update: ${describeCounts(report.update)}`);
  return lines.join('\n');
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;

/** One export's line: what it is, what it holds, what it added and changed, and what its step cost. */
function exportLine(e: ExportLine): string {
  const holds = `${e.cards} cards${e.songs === null ? '' : `, ${e.songs} songs`}`;
  const role = e.version ? `version ${e.version}` : 'availability and names';
  const cost = e.cost ? `; ${e.cost.files} files changed (${mib(e.cost.bytes)})` : e.version ? '; up to date' : '';
  return `export ${e.name} (${e.rel}): ${role}; ${holds}; ${e.update}${cost}`;
}

/** What `npm run build -- --archive` prints: a line per export, those left out, then the site's own summary. */
export function archiveSummary(report: ArchiveReport, reportFile: string): string {
  const versions = report.exports.filter((e) => e.version).length;
  const regions = [...new Set(report.exports.map((e) => e.region))].map((r) => `${report.exports.filter((e) => e.region === r).length} ${r}`);
  const lines = [`archive: ${report.exports.length} exports (${regions.join(', ')}), ${versions} versions: ${report.built} built, ${versions - report.built} up to date`];
  lines.push(...report.exports.map(exportLine));
  lines.push(...report.leftOut.map((l) => `left out: ${l.rel}: ${l.reason}`));
  lines.push(buildSummary(report.site, reportFile));
  return lines.join('\n');
}
