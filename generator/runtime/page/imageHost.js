// @ts-check
// Pictures on an image host the build is told of (npm run build -- --image-url / --image-base):
// the one place a picture's URL is made from the host's template, run by the build
// (render/imageUrls.ts) for the responses' `images` and by the page for list tiles.

/**
 * A picture's URL on the host: `{id}` the card's unit_id, `{ordinal}` its album ordinal,
 * `{kind}` icon or art, `{t}` "t" when idolized (else nothing), `{idolized}` 1 or 0.
 * @param {string} template
 * @param {{ id: number, ordinal: number, kind: string, idolized: boolean }} picture
 */
export function hostUrl(template, { id, ordinal, kind, idolized }) {
  /** @type {Record<string, string>} */
  const values = { id: String(id), ordinal: String(ordinal), kind, t: idolized ? 't' : '', idolized: idolized ? '1' : '0' };
  return template.replace(/\{(id|ordinal|kind|t|idolized)\}/g, (_, name) => values[name]);
}

/** The template of a host laid out as this site's images/ folder is: <base>card/<kind>/<id>[t].png. */
export const baseTemplate = (/** @type {string} */ base) => `${base.replace(/\/*$/, '/')}card/{kind}/{id}{t}.png`;

/**
 * What is wrong with a template, or null: it must be an absolute http(s) URL naming the card
 * by `{id}` or `{ordinal}`.
 * @param {string} template
 */
export function templateProblem(template) {
  let url;
  try {
    url = new URL(hostUrl(template, { id: 1, ordinal: 1, kind: 'icon', idolized: false }));
  } catch {
    return `"${template}" is not an absolute URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `"${template}" is not an http or https URL`;
  if (!template.includes('{id}') && !template.includes('{ordinal}')) return `"${template}" names no card: it needs {id} or {ordinal}`;
  return null;
}
