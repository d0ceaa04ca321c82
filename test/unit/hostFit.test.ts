/**
 * The hosts' deploy limits: a site's files and sizes against each host of a plan, and the build's report of its margin (a build
 * refused on disk: test/build/hostLimits.test.ts; the CLI's --plan: test/hosts/cli.test.ts).
 */
import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLOUDFLARE_FREE, NETLIFY, PLANS } from '../../generator/hosts/all/build/hostLimits.ts';
import { fitHosts, refuseUnfit, type SiteListing } from '../../generator/hosts/all/build/hostFit.ts';
import { publishLayout } from '../../generator/build/publish/layout.ts';
import { buildSample } from '../helpers.ts';

const MiB = 2 ** 20;
const ROUTES = `${JSON.stringify({ version: 1, include: ['/api/*'], exclude: [] })}\n`;
const HOST_FILES: [string, number][] = ['_worker.js', '_redirects', '_headers', '_routes.json', '.assetsignore'].map((rel) => [rel, 100]);

/** A site of `files` one-KB card files, one per folder of `perFolder`, with the host files, `extra` files and these rule files. */
interface SiteShape {
  files?: number;
  perFolder?: number;
  extra?: [string, number][];
  rules?: Record<string, string>;
}

function site({ files = 10, perFolder = files, extra = [], rules = {} }: SiteShape = {}): SiteListing {
  const cards = Array.from({ length: files }, (_, i): [string, number] => [`api/v1/f${Math.floor(i / perFolder)}/${i}.json`, 1024]);
  const ruleFiles: Record<string, string> = { '_routes.json': ROUTES, _redirects: '/api/*  /api/v1/404.json  404\n', ...rules };
  return { sizes: [...HOST_FILES, ...cards, ...extra], ruleFile: (rel) => ruleFiles[rel] };
}

/** The refusal of the one host of a plan made of `host`, null when it fits. */
const refusal = (host: typeof CLOUDFLARE_FREE, listing: SiteListing) => fitHosts(listing, { name: 'test', hosts: [host] })[0].refusal;

describe('a site against the hosts of a plan', () => {
  it('counts files as wrangler does: host rule files and .assetsignore are not counted', () => {
    expect(refusal(CLOUDFLARE_FREE, site({ files: 20_000 }))).toBeNull();
    expect(refusal(CLOUDFLARE_FREE, site({ files: 20_001 }))).toBe('Cloudflare Free would refuse this site (plan test): files: 20,001 of 20,000 files');
    expect(fitHosts(site({ files: 20_001 }), PLANS['cloudflare-paid']).map((fit) => fit.refusal)).toEqual([null, null]);
  });

  it('names the file over 25 MiB, and one of 25 MiB exactly fits', () => {
    const at = (bytes: number) => site({ extra: [['api/v1/bulk/sif.sqlite', bytes]] });
    expect(refusal(CLOUDFLARE_FREE, at(25 * MiB))).toBeNull();
    expect(refusal(CLOUDFLARE_FREE, at(25 * MiB + 1))).toBe(
      'Cloudflare Free would refuse this site (plan test): bytes per file: largest 25.0 of 25 MiB (api/v1/bulk/sif.sqlite)',
    );
    expect(refusal(NETLIFY, at(100 * MiB))).toBeNull(); // Netlify states no size per file
  });

  it('counts _routes.json rules and their length', () => {
    const routes = (include: string[]) => site({ rules: { '_routes.json': JSON.stringify({ version: 1, include, exclude: ['/x'] }) } });
    expect(refusal(CLOUDFLARE_FREE, routes(Array.from({ length: 99 }, (_, i) => `/r${i}`)))).toBeNull();
    expect(refusal(CLOUDFLARE_FREE, routes(Array.from({ length: 100 }, (_, i) => `/r${i}`)))).toMatch(/: _routes\.json rules: _routes\.json 101 of 100 rules$/);
    const long = `/${'a'.repeat(100)}`;
    expect(refusal(CLOUDFLARE_FREE, routes([long]))).toMatch(new RegExp(`_routes\\.json rule length: longest rule 101 of 100 characters \\(${long}\\)$`));
  });

  it('counts static and dynamic _redirects rules apart', () => {
    const rules = (n: number, from: (i: number) => string) => Array.from({ length: n }, (_, i) => `${from(i)}  /x  200`).join('\n');
    const redirects = (text: string) => site({ rules: { _redirects: `# a comment\n\n${text}\n` } });
    expect(refusal(CLOUDFLARE_FREE, redirects(rules(2000, (i) => `/s${i}`)))).toBeNull();
    expect(refusal(CLOUDFLARE_FREE, redirects(rules(2001, (i) => `/s${i}`)))).toMatch(/_redirects static rules: _redirects 2,001 of 2,000 static rules$/);
    expect(refusal(CLOUDFLARE_FREE, redirects(rules(100, (i) => `/d${i}/*`)))).toBeNull();
    expect(refusal(CLOUDFLARE_FREE, redirects(rules(101, (i) => `/d/:id${i}`)))).toMatch(/_redirects dynamic rules: _redirects 101 of 100 dynamic rules$/);
  });

  it('Netlify: files per folder, naming the folder, and the edge code size', () => {
    expect(refusal(NETLIFY, site({ files: 60_000, perFolder: 54_000 }))).toBeNull();
    expect(refusal(NETLIFY, site({ files: 54_001 }))).toBe('Netlify would refuse this site (plan test): files per folder: at most 54,001 of 54,000 files in a folder (api/v1/f0/)');
    const worker = (bytes: number): SiteListing => ({ ...site(), sizes: [...site().sizes].map(([rel, n]) => [rel, rel === '_worker.js' ? bytes : n]) });
    expect(refusal(NETLIFY, worker(20_000_000))).toBeNull();
    expect(refusal(NETLIFY, worker(20_000_001))).toMatch(/edge code bytes: edge code 20\.0 of 20 MB \(_worker\.js\)$/);
  });

  it('gives the margin per host in one line, and refuses with the first host that would', () => {
    const fits = fitHosts(site({ files: 11_048, extra: [['api/v1/bulk/cards.jsonl', 6.2 * MiB]] }), PLANS.free);
    expect(fits.map((fit) => fit.line)).toEqual([
      'Cloudflare Free: 11,049 of 20,000 files; largest 6.2 of 25 MiB (api/v1/bulk/cards.jsonl); _routes.json 1 of 100 rules; ' +
        'longest rule 6 of 100 characters (/api/*); _redirects 0 of 2,000 static rules; _redirects 1 of 100 dynamic rules',
      'Netlify: at most 11,048 of 54,000 files in a folder (api/v1/f0/); edge code 0.0 of 20 MB (_worker.js)',
    ]);
    expect(() => refuseUnfit(fits)).not.toThrow();
    const twoOver = site({ files: 20_000, extra: [['big.bin', 26 * MiB]] });
    expect(refusal(CLOUDFLARE_FREE, twoOver)).toMatch(/: files: 20,001 of 20,000 files \(and 1 more limits\)$/);
    expect(() => refuseUnfit(fitHosts(site({ files: 54_001 }), PLANS.free))).toThrow(/^Cloudflare Free would refuse this site \(plan free\): files: 54,001 of 20,000 files; Netlify would refuse it too$/);
  });
});

describe('the build reports how the site fits its plan', () => {
  it('gives the margin per host in report.json', async () => {
    const { out } = await buildSample();
    const { hosts } = JSON.parse(await fs.readFile(publishLayout(out).report, 'utf8'));
    expect(hosts.map((fit: { host: string }) => fit.host)).toEqual(['Cloudflare Free', 'Netlify']);
    expect(hosts[0].line).toMatch(/^Cloudflare Free: \d+ of 20,000 files; largest \d+\.\d of 25 MiB \([^)]+\); _routes\.json \d+ of 100 rules/);
  });
});
