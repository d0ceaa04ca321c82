/** What a build tells its user: counts, unreadable rows, warnings and timings per stage. */

/** A failure caused by the input (file, table or value), reported without a stack trace. */
export class InputError extends Error {}

export class BuildReport {
  readonly warnings: string[] = [];
  /** Encrypted rows that no key opened, per table. */
  readonly unreadable: Record<string, number> = {};
  /** Published files per endpoint (first path segment below api/v1, or "images", "site"). */
  readonly counts: Record<string, number> = {};
  /** Milliseconds per stage. */
  readonly timings: Record<string, number> = {};
  changed = 0;
  unchanged = 0;
  removed = 0;

  warn(message: string): void {
    this.warnings.push(message);
  }

  countUnreadable(table: string): void {
    this.unreadable[table] = (this.unreadable[table] ?? 0) + 1;
  }

  /** Runs one stage and records how long it took. */
  async stage<T>(name: string, run: () => T | Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await run();
    } finally {
      this.timings[name] = Math.round(performance.now() - start);
    }
  }

  toJSON() {
    return {
      counts: this.counts, unreadable: this.unreadable, warnings: this.warnings, timings_ms: this.timings,
      changed: this.changed, unchanged: this.unchanged, removed: this.removed,
    };
  }
}
