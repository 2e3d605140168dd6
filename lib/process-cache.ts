import { LruCache } from "./lru";

export type ProcessCacheOptions<V> = {
  /** How long an answer is kept. */
  ttlMs: number;
  /** At most this many answers (least recently used evicted first). */
  max?: number;
  /**
   * Answers that say "nothing there" (an unknown host, an unknown organization) and how they are
   * kept: in a second, smaller LRU with a shorter life. Anyone can ask for any number of unknown
   * keys, so they must never push known ones out: a flood of them only churns this one.
   */
  negative?: { test: (value: V) => boolean; ttlMs: number; max: number };
};

export type CacheStats = { size: number; max: number; evictions: number };

type Store<V> = {
  positive: LruCache<V>;
  negative: LruCache<V> | null;
  loading: Map<string, Promise<V>>;
  /** Bumped by every clear: a load that started before it answers its caller but is not kept. */
  generation: number;
};

/**
 * A small answer cache kept in this server process (see ProcessCacheOptions). Concurrent misses of
 * one key share one load. On globalThis under `name`: Next.js may load a module in more than one
 * bundle of the same process (proxy.ts and the route handlers), and they must share one cache, so
 * that a change made through the API clears what the proxy answers.
 */
export function processCache<V>(name: string, options: ProcessCacheOptions<V>) {
  const globals = globalThis as unknown as Record<string, Store<V> | undefined>;
  const store = (globals[name] ??= {
    positive: new LruCache<V>(options.max ?? 5_000, options.ttlMs),
    negative: options.negative ? new LruCache<V>(options.negative.max, options.negative.ttlMs) : null,
    loading: new Map(),
    generation: 0,
  });
  const isNegative = (value: V) => options.negative?.test(value) === true;
  return {
    /** The cached answer for `key`, or `load`'s (then kept). */
    async get(key: string, load: () => Promise<V>): Promise<V> {
      if (store.positive.has(key)) return store.positive.get(key) as V;
      if (store.negative?.has(key)) return store.negative.get(key) as V;
      const pending = store.loading.get(key);
      if (pending) return pending;
      const generation = store.generation;
      const settle = () => {
        if (store.loading.get(key) === loading) store.loading.delete(key);
      };
      const loading: Promise<V> = load().then(
        (value) => {
          settle();
          if (generation !== store.generation) return value;
          if (store.negative && isNegative(value)) store.negative.set(key, value);
          else store.positive.set(key, value);
          return value;
        },
        (err: unknown) => {
          settle();
          throw err;
        },
      );
      store.loading.set(key, loading);
      return loading;
    },
    /** How full each part is and how many entries each pushed out to stay within its bound. */
    stats(): { known: CacheStats; unknown: CacheStats | null } {
      const of = (lru: LruCache<V>) => ({ size: lru.size, max: lru.max, evictions: lru.evictions });
      return { known: of(store.positive), unknown: store.negative ? of(store.negative) : null };
    },
    /** Forget one answer, or every one. */
    clear(key?: string): void {
      store.generation++;
      if (key === undefined) {
        store.positive.clear();
        store.negative?.clear();
        store.loading.clear();
      } else {
        store.positive.delete(key);
        store.negative?.delete(key);
        store.loading.delete(key);
      }
    },
  };
}
