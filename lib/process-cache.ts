/**
 * A small answer cache kept in this server process: each entry for `ttlMs` (a hit and a miss
 * alike), at most `max` entries (then it starts over). On globalThis under `name`: Next.js may
 * load a module in more than one bundle of the same process, and they must share one cache.
 */
export function processCache<V>(name: string, ttlMs: number, max = 5_000) {
  type Entry = { value: V; expires: number };
  const store = globalThis as unknown as Record<string, Map<string, Entry> | undefined>;
  const entries = (store[name] ??= new Map<string, Entry>());
  return {
    /** The cached answer for `key`, or `load`'s (then kept). */
    async get(key: string, load: () => Promise<V>): Promise<V> {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && hit.expires > now) return hit.value;
      const value = await load();
      if (entries.size >= max) entries.clear();
      entries.set(key, { value, expires: now + ttlMs });
      return value;
    },
    /** Forget one answer, or every one. */
    clear(key?: string): void {
      if (key === undefined) entries.clear();
      else entries.delete(key);
    },
  };
}
