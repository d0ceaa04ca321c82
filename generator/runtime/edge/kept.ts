/** A pack's objects by id, as UTF-8 bytes sliced from it (edge/objects.ts), checked against their sums the first time: null for an id it does not hold. */
export type PackLookup = (id: number) => Uint8Array | null;

/**
 * What an edge instance keeps between its requests, each within its budget (EdgeSite.kept): its
 * host makes one per instance (edgeKept), so nothing read from one site ever answers another.
 */
export interface EdgeKept {
  /**
   * Packs an immutable site's instance has read, up to 48 MiB: a later list reads none of them
   * again, so its CPU is the slicing, not the reading (a 1,000-card list reads 11 MiB of packs).
   */
  packs: Kept<PackLookup>;
  /**
   * Parses (siteReader.ts readJson), up to 16 M characters of their files: on an immutable site
   * every file's, on another those at least KEPT_PARSE_CHARS long, with their text. Parsing a 1 MB
   * list or search index is most of a request's CPU; reading small files again (a list's key
   * packs, versions.json, histories) most of a warm one's.
   */
  parses: Kept<{ text: string; value: unknown }>;
  /**
   * Objects an immutable site's instance has rebuilt, by history file and version, up to 16 M
   * characters: a version's answer never changes within one deploy, and replaying patches is
   * most of a ?version= list's CPU.
   */
  objects: Kept<string | null>;
  /**
   * Parts of bulk files an immutable site's instance has checked against bulk/index.json (their
   * SHA-256), by path and hash, up to 65,536: a part is hashed once per instance, not per download.
   */
  checkedParts: Kept<true>;
  /**
   * Answers an immutable site's instance has shaped (a published file asked with ?keys=, ?stubs=,
   * ?datetime=), by file and shaping, up to 16 M characters: within a deploy the same query on the
   * same file is the same bytes, and shaping a 4,000-card list is most of such a request's CPU.
   */
  shaped: Kept<string>;
}

export const edgeKept = (): EdgeKept => ({
  packs: new Kept(48 * 1024 * 1024),
  parses: new Kept(16 * 1024 * 1024),
  objects: new Kept(16 * 1024 * 1024),
  checkedParts: new Kept(65_536),
  shaped: new Kept(16 * 1024 * 1024),
});

/**
 * What an edge instance keeps of one sort (packs, long parses, rebuilt objects), by key: the
 * least recently used goes first once the entries' sizes pass the budget, so an instance holds
 * a bounded amount however many files it meets.
 */
export class Kept<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;

  constructor(private readonly budget: number) {}

  /** The kept entry for `key` (now the most recently used), or undefined. */
  get(key: string): { value: V } | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, value: V, size: number): void {
    const old = this.entries.get(key);
    if (old) this.total -= old.size;
    this.entries.delete(key);
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.budget) break;
      this.entries.delete(oldest);
      this.total -= entry.size;
    }
  }
}
