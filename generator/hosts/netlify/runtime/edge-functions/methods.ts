/**
 * The same edge function as api.ts, declared a second time for the methods besides GET and HEAD
 * on the whole edge path, which reaches the paths api.ts's `excludedPath` keeps from it (the
 * published files): Netlify's static layer answered a POST, PUT, PATCH or DELETE there with a
 * bare text 405, and an OPTIONS without the CORS preflight, where every other host gives the JSON
 * 405 and the preflight (contract/hostRouting.ts NETLIFY_OTHER_METHODS). A declaration takes one
 * `path` list and one `method` list, and a file one declaration, hence this second file. Where
 * both declarations match, the first function to run answers (the handler answers every method
 * but GET and HEAD under /api/), so no request runs it twice. GET and HEAD of a published file
 * still run no code.
 */
import api from './api.ts';

export default api;

// Literal, as Netlify reads it without running the module: written by `npm run docs` from the endpoint
// declarations (contract/hostRouting.ts), which test/build/contract.test.ts checks.
// <!-- netlify-methods:begin -->
export const config = {
  path: "/api/*",
  method: ["POST","PUT","PATCH","DELETE","OPTIONS"],
};
// <!-- netlify-methods:end -->
