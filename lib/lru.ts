/**
 * A bounded least-recently-used map with a lifetime per entry. A read refreshes the entry's
 * recency (not its lifetime); past `max` entries the least recently used one goes; an expired
 * entry is a miss and is dropped when read. A Map keeps insertion order, so re-inserting on every
 * hit keeps the least recently used entry first: each operation is O(1).
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  /** Entries pushed out to stay within `max` (not those that expired): a bound that is too small shows here. */
  evictions = 0;

  constructor(
    readonly max: number,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError("max must be a positive integer");
  }

  /** The entry's value while it lives (now the most recently used), else undefined. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` for `ttlMs`, as the most recently used entry, evicting the least recently used past `max`. */
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.evictions++;
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether a live entry is there, without touching its recency. */
  has(key: string): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expires > this.now();
  }
}
