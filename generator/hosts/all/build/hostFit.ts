/**
 * Whether a site fits the hosts of a plan (hostLimits.ts): from the site's files
 * and sizes and its host rule files, each host's figures against its limits. The build
 * runs it before it publishes; a site a host would refuse fails the build with one line.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { HostLimits, HostPlan } from './hostLimits.ts';
import { UserError } from '../../../build/errors.ts';

/** A site as the check sees it: every file's size by path, and the text of a host rule file. */
export interface SiteListing {
  sizes: Iterable<[rel: string, bytes: number]>;
  ruleFile(rel: string): string | undefined;
}

/** The site published in `dir` (the benchmark's, a deployed copy's) as the check sees it. */
export function folderListing(dir: string): SiteListing {
  const sizes: [string, number][] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    sizes.push([path.relative(dir, file).split(path.sep).join('/'), fs.statSync(file).size]);
  }
  const ruleFile = (rel: string) => (fs.existsSync(path.join(dir, rel)) ? fs.readFileSync(path.join(dir, rel), 'utf8') : undefined);
  return { sizes, ruleFile };
}

/** One figure of a host against its limit: `value` of `max`, worded by `text` ("11,049 of 20,000 files"). */
export interface Figure {
  limit: string;
  value: number;
  max: number;
  /** The file or folder the figure is of (the largest file, the fullest folder, the longest rule). */
  at?: string;
  text: string;
}

export interface HostFit {
  host: string;
  figures: Figure[];
  /** The margin in one line: "Cloudflare Free: 11,049 of 20,000 files; largest 6.2 of 25 MiB (api/v1/...)". */
  line: string;
  /** Why the host would refuse the site, in one line; null when it fits. */
  refusal: string | null;
}

const count = (n: number) => n.toLocaleString('en-US');

/** `bytes` of `max` in the unit `max` is stated in (MiB, MB, else bytes). */
function size(bytes: number, max: number): string {
  const unit = max % 2 ** 20 === 0 ? { name: 'MiB', bytes: 2 ** 20 } : max % 1e6 === 0 ? { name: 'MB', bytes: 1e6 } : null;
  if (!unit) return `${count(bytes)} of ${count(max)} bytes`;
  return `${(bytes / unit.bytes).toFixed(1)} of ${count(max / unit.bytes)} ${unit.name}`;
}

/** The entry with the largest value (the first of equals); undefined when there is none. */
function largest<K>(entries: Iterable<[K, number]>): [K, number] | undefined {
  let top: [K, number] | undefined;
  for (const entry of entries) if (!top || entry[1] > top[1]) top = entry;
  return top;
}

function tally(keys: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/** `_routes.json`'s rules (include and exclude). */
function routeRules(text: string): string[] {
  const routes = JSON.parse(text) as { include?: string[]; exclude?: string[] };
  return [...(routes.include ?? []), ...(routes.exclude ?? [])];
}

/** `_redirects`'s rules by kind: dynamic when the source has a splat or a placeholder. */
function redirectRules(text: string): { static: number; dynamic: number } {
  const sources = text.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#')).map((line) => line.split(/\s+/)[0]);
  const dynamic = sources.filter((from) => from.includes('*') || /\/:[A-Za-z]/.test(from)).length;
  return { static: sources.length - dynamic, dynamic };
}

/** Every figure of `host` for the site. */
function figures(host: HostLimits, site: SiteListing): Figure[] {
  const sizes = [...site.sizes];
  const out: Figure[] = [];
  const add = (limit: string, value: number, max: number, text: string, at?: string) =>
    out.push({ limit, value, max, text: at === undefined ? text : `${text} (${at})`, ...(at === undefined ? {} : { at }) });
  if (host.files) {
    const uncounted = new Set(host.files.uncounted);
    const n = sizes.filter(([rel]) => !uncounted.has(rel)).length;
    add('files', n, host.files.max, `${count(n)} of ${count(host.files.max)} files`);
  }
  if (host.filesPerFolder) {
    const [folder, n] = largest(tally(sizes.map(([rel]) => path.posix.dirname(rel)))) ?? ['.', 0];
    add('files per folder', n, host.filesPerFolder, `at most ${count(n)} of ${count(host.filesPerFolder)} files in a folder`, `${folder}/`);
  }
  if (host.fileBytes) {
    const [rel, bytes] = largest(sizes) ?? ['', 0];
    add('bytes per file', bytes, host.fileBytes, `largest ${size(bytes, host.fileBytes)}`, rel);
  }
  const routes = host.routes && site.ruleFile('_routes.json');
  if (host.routes && routes !== undefined) {
    const rules = routeRules(routes);
    add('_routes.json rules', rules.length, host.routes.rules, `_routes.json ${rules.length} of ${host.routes.rules} rules`);
    const [rule, chars] = largest(rules.map((r): [string, number] => [r, r.length])) ?? ['', 0];
    add('_routes.json rule length', chars, host.routes.ruleChars, `longest rule ${chars} of ${host.routes.ruleChars} characters`, rule);
  }
  const redirects = host.redirects && site.ruleFile('_redirects');
  if (host.redirects && redirects !== undefined) {
    const rules = redirectRules(redirects);
    add('_redirects static rules', rules.static, host.redirects.static, `_redirects ${count(rules.static)} of ${count(host.redirects.static)} static rules`);
    add('_redirects dynamic rules', rules.dynamic, host.redirects.dynamic, `_redirects ${rules.dynamic} of ${host.redirects.dynamic} dynamic rules`);
  }
  const worker = sizes.find(([rel]) => rel === '_worker.js');
  if (host.edgeCodeBytes && worker) add('edge code bytes', worker[1], host.edgeCodeBytes, `edge code ${size(worker[1], host.edgeCodeBytes)}`, worker[0]);
  return out;
}

/** How `site` fits each host of `plan`. */
export function fitHosts(site: SiteListing, plan: HostPlan): HostFit[] {
  return plan.hosts.map((host) => {
    const found = figures(host, site);
    const over = found.filter((f) => f.value > f.max);
    const more = over.length > 1 ? ` (and ${over.length - 1} more limits)` : '';
    return {
      host: host.name,
      figures: found,
      line: `${host.name}: ${found.map((f) => f.text).join('; ')}`,
      refusal: over.length ? `${host.name} would refuse this site (plan ${plan.name}): ${over[0].limit}: ${over[0].text}${more}` : null,
    };
  });
}

/** Refuses a site some host would refuse: a UserError naming the host, the limit and the file or count. */
export function refuseUnfit(fits: readonly HostFit[]): void {
  const [refused, ...others] = fits.filter((fit) => fit.refusal);
  if (!refused) return;
  const too = others.length ? `; ${others.map((fit) => fit.host).join(' and ')} would refuse it too` : '';
  throw new UserError(`${refused.refusal}${too}`);
}
