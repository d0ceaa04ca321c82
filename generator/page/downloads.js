// "Download everything": the bulk files listed by api/v1/bulk/index.json (read when the page loads), each
// linked with its size, SHA-256 (and its .sha256 file) and the data version it last changed in.
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

/** The section's table; false when the index lists nothing. */
export function renderDownloads(index, content) {
  if (!index.files.length) return false;
  const rows = index.files.map((file) => [
    el('a', { href: relative(file.path), download: file.name }, file.name),
    file.format === 'sqlite' ? 'every kind (SQLite)' : file.type,
    file.count.toLocaleString('en'),
    el('span', { title: `${file.bytes.toLocaleString('en')} bytes` }, size(file.bytes)),
    el('a', { href: `${relative(file.path)}.sha256`, class: 'hash', title: 'sha256sum format' }, el('code', {}, file.sha256)),
    file.updated_in,
  ]);
  content.replaceChildren(table(`Data version ${index.truth_version}`, ['file', 'holds', 'objects', 'size', 'SHA-256', 'last changed in'], rows, { id: 'download-table' }));
  return true;
}
