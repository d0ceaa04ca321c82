// "Download everything": the bulk files listed by api/v1/bulk/index.json (read when the page loads), each
// linked with its size, SHA-256 (and its .sha256 file) and the data version it last changed in; a click
// saves the file joined from its parts, which every host serves.
'use strict';
import { el, table } from './dom.js';

/** Bytes in the largest unit that keeps the number at or above 1 (KiB, MiB, GiB). */
export function size(bytes) {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit ? `${value.toFixed(1)} ${units[unit]}` : `${bytes} bytes`;
}

/** The index lists root-relative paths; the page links them relative to itself, so a copy served under a folder works too. */
const relative = (rootPath) => rootPath.replace(/^\//, '');

/** The file's parts (api/v1/bulk/parts/...) fetched and joined in the browser: they are the file, byte for byte. */
async function joinedParts(file) {
  const parts = await Promise.all(file.parts.map(async (part) => {
    const response = await fetch(relative(part.path));
    if (!response.ok) throw new Error(`${part.path}: HTTP ${response.status}`);
    return response.blob();
  }));
  return new Blob(parts);
}

/**
 * The link to a bulk file: its own URL (answered where the site runs its edge), saved by the
 * page from the file's parts, so the download works on a host without an edge too.
 */
function downloadLink(file) {
  const link = el('a', { href: relative(file.path), download: file.name }, file.name);
  link.addEventListener('click', async (event) => {
    event.preventDefault();
    const url = URL.createObjectURL(await joinedParts(file));
    el('a', { href: url, download: file.name }).click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  });
  return link;
}

/** The section's table; false when the index lists nothing. */
export function renderDownloads(index, content) {
  if (!index.files.length) return false;
  const rows = index.files.map((file) => [
    downloadLink(file),
    file.format === 'sqlite' ? 'every kind (SQLite)' : file.type,
    file.count.toLocaleString('en'),
    el('span', { title: `${file.bytes.toLocaleString('en')} bytes` }, size(file.bytes)),
    el('a', { href: `${relative(file.path)}.sha256`, class: 'hash', title: 'sha256sum format' }, el('code', {}, file.sha256)),
    file.updated_in,
  ]);
  content.replaceChildren(table(`Data version ${index.truth_version}`, ['file', 'holds', 'objects', 'size', 'SHA-256', 'last changed in'], rows, { id: 'download-table' }));
  return true;
}
