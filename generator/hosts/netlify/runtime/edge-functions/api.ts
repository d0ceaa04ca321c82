/**
 * Netlify edge function for /api/* (declared below): the shared edge handler in Netlify's
 * chain (../netlifyChain.ts), reading published files by fetching them from the
 * site itself. Those reads are plain static paths, for which the handler returns nothing,
 * so they never recurse.
 */
import { netlifyEdge } from '../netlifyChain.ts';
import { fetchBytesReader, fetchReader } from '../../../../runtime/edge/siteReader.ts';
import { edgeKept } from '../../../../runtime/edge/kept.ts';

/** What this function uses of Netlify's context: the rest of the chain. */
interface Context {
  next(): Promise<Response>;
}

/** What this instance keeps between requests: the module is loaded once per instance, which serves one deploy. */
const KEPT = edgeKept();

export default function api(request: Request, context: Context): Promise<Response | undefined> {
  const origin = new URL(request.url).origin;
  // A deploy's edge function reads that deploy's files, which never change under it.
  const site = { read: fetchReader((url) => fetch(url), origin), readBytes: fetchBytesReader((url) => fetch(url), origin), immutable: true, kept: KEPT };
  return netlifyEdge(request, site, () => context.next());
}

// Literal, as Netlify reads it without running the module: written by `npm run docs` from the endpoint
// declarations (contract/hostRouting.ts), which test/build/contract.test.ts checks. Every published file is
// excluded, so a plain read of one runs no function; the rest of /api/ runs it.
// <!-- netlify:begin -->
export const config = {
  path: "/api/*",
  excludedPath: [
    "/api/v1/accessory/:ids(0|[1-9]\\d*).json",
    "/api/v1/accessory_list.json",
    "/api/v1/bulk/:file(cards.jsonl|accessories.jsonl|sets.jsonl|pairs.jsonl|card_t.jsonl|char_t.jsonl|skill_t.jsonl|leader_skill_t.jsonl|accessory_t.jsonl|event_t.jsonl|removable_skill_t.jsonl|song_t.jsonl|live_t.jsonl|notes.jsonl|sif.sqlite).sha256",
    "/api/v1/bulk/index.json",
    "/api/v1/bulk/parts/:file/:part.part",
    "/api/v1/card/:ordinals(0|[1-9]\\d*).json",
    "/api/v1/card/set_list.json",
    "/api/v1/card_list.json",
    "/api/v1/changes.json",
    "/api/v1/changes/:truth_version.json",
    "/api/v1/changes/index.json",
    "/api/v1/happening.json",
    "/api/v1/history/:type(card|accessory|char_t|skill_t|leader_skill_t|event_t|removable_skill_t|song_t|live_t)/:id.json",
    "/api/v1/history/:type(notes|card_t)/pack/:block.json",
    "/api/v1/info",
    "/api/v1/info.json",
    "/api/v1/manifest.blocks.json",
    "/api/v1/manifest.json",
    "/api/v1/openapi.json",
    "/api/v1/pack/accessory_t/:block.json",
    "/api/v1/pack/card/:block.json",
    "/api/v1/pack/card_t/:block.json",
    "/api/v1/pack/char_t/:block.json",
    "/api/v1/pack/event_t/:block.json",
    "/api/v1/pack/leader_skill_t/:block.json",
    "/api/v1/pack/live_t/:block.json",
    "/api/v1/pack/notes/:block.json",
    "/api/v1/pack/removable_skill_t/:block.json",
    "/api/v1/pack/skill_t/:block.json",
    "/api/v1/pack/song_t/:block.json",
    "/api/v1/pair/:pair_id(0|[1-9]\\d*).json",
    "/api/v1/pair_list.json",
    "/api/v1/search_index/:kind.json",
    "/api/v1/set/:name.json",
    "/api/v1/tl/:shard.json",
    "/api/v1/tl/index.json",
    "/api/v1/versions.json",
  ],
};
// <!-- netlify:end -->
