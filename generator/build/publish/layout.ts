/**
 * Where a build keeps its own files: `.cache/build/<folder name>/` beside the output
 * folder (as the image cache does), so nothing of it is ever deployed, and on the same
 * file system, so the staged site can be renamed into place.
 *
 * The output folder itself is a symbolic link to one of `sites/<version>/`: a build stages
 * the next site, renames it to a new version folder, and publishes it by renaming a new link
 * over the old one, one atomic step, so a reader finds the old site or the new one, never
 * none and never a mix (docs/builds.md).
 */
import path from 'node:path';

export interface PublishLayout {
  /** The published folder. */
  out: string;
  /** The build's private folder. */
  work: string;
  /** The next site, assembled here before the swap. */
  staging: string;
  /** Files the build writes before they join the staged site (the bulk downloads). */
  scratch: string;
  /** The published versions: the output folder links to one of them. */
  sites: string;
  /** The next link to the output folder's version, renamed over the output folder. */
  link: string;
  /** A site published as a plain folder (before output folders were links), during its one-time move into `sites`. */
  previous: string;
  /** Content hashes and stats of the published files, with the build's fingerprint. */
  manifest: string;
  /** The staged site's manifest, written before the swap and renamed over `manifest` after it. */
  nextManifest: string;
  /** The last build's report (also written when it failed). */
  report: string;
  /** A SQLite file whose exclusive lock a build holds, so two builds never publish into one folder at once. */
  lock: string;
  /** Encoded pictures kept between builds (images/cache.ts). */
  images: string;
  /** The changelog's snapshots of the site's data (generator/build/changes/store.ts). */
  snapshots: string;
  /** Files a mirror has downloaded and verified, by SHA-256, kept until its copy is published (generator/build/mirror/). */
  downloads: string;
  /** An archive build's own files (generator/build/archive/): its record, the exports' census, the scratch site of its chain. */
  archive: string;
}

export function publishLayout(out: string): PublishLayout {
  const target = path.resolve(out);
  /** `.cache/<kind>/<out folder name>` beside the output folder. */
  const cache = (kind: string) => path.join(path.dirname(target), '.cache', kind, path.basename(target));
  const work = cache('build');
  return {
    out: target,
    work,
    staging: path.join(work, 'staging'),
    scratch: path.join(work, 'scratch'),
    sites: path.join(work, 'sites'),
    link: path.join(work, 'site.link'),
    previous: path.join(work, 'previous'),
    manifest: path.join(work, 'manifest.json'),
    nextManifest: path.join(work, 'manifest.next.json'),
    report: path.join(work, 'report.json'),
    lock: path.join(work, 'lock.db'),
    images: cache('images'),
    snapshots: path.join(work, 'snapshots'),
    downloads: cache('mirror'),
    archive: cache('archive'),
  };
}
