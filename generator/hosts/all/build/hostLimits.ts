/**
 * The deploy limits of the hosts the site targets, as each host publishes them, declared
 * once: the build checks every site against the hosts of the chosen plan before it
 * publishes (hostFit.ts), and docs/hosts.md states them. A limit a host does
 * not have is left out.
 */

const MiB = 1024 * 1024;

export interface HostLimits {
  /** How the build's lines name the host and plan ("Cloudflare Free"). */
  name: string;
  /** Files per deployment, counting every file but those in `uncounted` (which the host reads and never serves). */
  files?: { max: number; uncounted: readonly string[] };
  /** Files in any one folder. */
  filesPerFolder?: number;
  /** Bytes of any one file. */
  fileBytes?: number;
  /** `_routes.json`: include and exclude rules together, and characters per rule. */
  routes?: { rules: number; ruleChars: number };
  /** `_redirects`: static rules, and dynamic ones (a splat or a placeholder in the source). */
  redirects?: { static: number; dynamic: number };
  /** Bytes of the edge code; the bundled `_worker.js` stands for it (the same handler and imports). */
  edgeCodeBytes?: number;
}

/** Cloudflare Pages and Workers static assets; the file count as wrangler counts it. */
const cloudflare = {
  files: { max: 20_000, uncounted: ['_worker.js', '_redirects', '_headers', '_routes.json', '.assetsignore'] },
  fileBytes: 25 * MiB,
  routes: { rules: 100, ruleChars: 100 },
  redirects: { static: 2_000, dynamic: 100 },
} satisfies Omit<HostLimits, 'name'>;

export const CLOUDFLARE_FREE: HostLimits = { name: 'Cloudflare Free', ...cloudflare };
const CLOUDFLARE_PAID: HostLimits = { name: 'Cloudflare Paid', ...cloudflare, files: { ...cloudflare.files, max: 100_000 } };
export const NETLIFY: HostLimits = { name: 'Netlify', filesPerFolder: 54_000, edgeCodeBytes: 20_000_000 };

/** A plan: the hosts a site must deploy to, with the limits of the user's accounts there. */
export interface HostPlan {
  name: string;
  hosts: readonly HostLimits[];
}

/** The plans `npm run build -- --plan <name>` knows; the first is the default. */
export const PLANS = {
  free: { name: 'free', hosts: [CLOUDFLARE_FREE, NETLIFY] },
  'cloudflare-paid': { name: 'cloudflare-paid', hosts: [CLOUDFLARE_PAID, NETLIFY] },
} as const satisfies Record<string, HostPlan>;

export type PlanName = keyof typeof PLANS;
export const DEFAULT_PLAN: HostPlan = PLANS.free;

/** No host: the build checks no limit. For the benchmark, whose sites (20,000 cards) measure something else; no CLI choice. */
export const UNCHECKED_PLAN: HostPlan = { name: 'unchecked', hosts: [] };
