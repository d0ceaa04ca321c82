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
 * by `{id}` or `{ordinal}`, for every picture it names (icon and art, idolized or not: a
 * placeholder in the scheme, `http{t}s://`, would name `httpts://` for some), with the same
 * host for all (placeholders belong in the path).
 * @param {string} template
 */
export function templateProblem(template) {
  const pictures = [false, true].flatMap((idolized) => ['icon', 'art'].map((kind) => hostUrl(template, { id: 1, ordinal: 1, kind, idolized })));
  /** @type {URL[]} */
  const urls = [];
  for (const picture of pictures) {
    try {
      urls.push(new URL(picture));
    } catch {
      return `"${template}" is not an absolute URL`;
    }
  }
  const scheme = urls.find((url) => url.protocol !== 'http:' && url.protocol !== 'https:');
  if (scheme) return `"${template}" is not an http or https URL${scheme === urls[0] ? '' : ` for every picture (it names "${scheme.href}")`}`;
  if (new Set(urls.map((url) => url.origin)).size > 1) return `"${template}" names pictures on several hosts: put its placeholders in the path`;
  if (!template.includes('{id}') && !template.includes('{ordinal}')) return `"${template}" names no card: it needs {id} or {ordinal}`;
  return null;
}
