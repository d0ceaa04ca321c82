/**
 * bench/scale.ts's build: the CLI's build of one export (`--input`, `--out`), in its own process,
 * against no host's limits (UNCHECKED_PLAN): past about 20,000 cards the site has more files
 * than Cloudflare Free takes, which the CLI refuses (the hosts stage), and the scale measured
 * is the build's, not a host's. Prints the CLI's summary.
 *
 * `node --import tsx bench/scaleBuild.ts <input> <out>`
 */
import { build } from '../generator/build/build.ts';
import { UNCHECKED_PLAN } from '../generator/hosts/all/build/hostLimits.ts';
import { publishLayout } from '../generator/build/publish/layout.ts';
import { buildSummary } from '../generator/build/summary.ts';

const [input, out] = process.argv.slice(2);
if (!input || !out) throw new Error('usage: node --import tsx bench/scaleBuild.ts <input> <out>');
console.log(buildSummary(await build({ input, out, plan: UNCHECKED_PLAN }), publishLayout(out).report));
