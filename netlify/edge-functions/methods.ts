/**
 * The same edge function as api.ts, declared a second time for the methods besides GET and HEAD
 * on the paths api.ts's `excludedPath` keeps from it (the published files): Netlify's static
 * layer answered a POST, PUT, PATCH or DELETE there with a bare text 405, and an OPTIONS without
 * the CORS preflight, where every other host gives the JSON 405 and the preflight
 * (contract/hostRouting.ts NETLIFY_OTHER_METHODS). A declaration takes one `path` list and one
 * `method` list, and a file one declaration, hence this second file. GET and HEAD of those paths
 * still run no code.
 */
import api from './api.ts';

export default api;

// Literal, as Netlify reads it without running the module: written by `npm run docs` from the endpoint
// declarations (contract/hostRouting.ts), which test/contract.test.ts checks.
// <!-- netlify-methods:begin -->
export const config = {
  path: [
    "/api/v1/accessory/:ids(0|[1-9]\\d*).json",
    "/api/v1/accessory_list.json",
    "/api/v1/bulk/:file.sha256",
    "/api/v1/bulk/index.json",
    "/api/v1/bulk/parts/:file/:part.part",
    "/api/v1/card/:ordinals(0|[1-9]\\d*).json",
    "/api/v1/card/set_list.json",
    "/api/v1/card_list.json",
    "/api/v1/changes.json",
    "/api/v1/changes/:truth_version.json",
    "/api/v1/changes/index.json",
    "/api/v1/happening.json",
    "/api/v1/history/:type/:id.json",
    "/api/v1/history/:type/pack/:block.json",
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
  method: ["POST","PUT","PATCH","DELETE","OPTIONS"],
};
// <!-- netlify-methods:end -->
