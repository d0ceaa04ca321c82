/**
 * What an edge instance keeps between requests (packs, long parses, rebuilt objects), by key:
 * the least recently used goes first once the entries' sizes pass the budget, so an instance
 * holds a bounded amount however many files it meets.
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
