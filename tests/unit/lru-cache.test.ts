/**
 * The bounded caches of lib/cache: LruCache evicts the least recently used entry and forgets
 * expired ones; processCache keeps "nothing there" answers apart (shorter-lived, their own
 * bound), so a flood of unknown keys never pushes known ones out, shares one load between
 * concurrent misses, and never keeps an answer loaded across a clear.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { LruCache } from "@/lib/lru";
import { processCache } from "@/lib/process-cache";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("LruCache", () => {
  it("evicts the least recently used entry past its bound, and a read makes an entry recent", () => {
    const lru = new LruCache<number>(3, 60_000);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.set("c", 3);
    expect(lru.get("a")).toBe(1); // a is now the most recent: b is the oldest
    lru.set("d", 4);
    expect(lru.size).toBe(3);
    expect(lru.get("b")).toBeUndefined();
    expect([lru.get("a"), lru.get("c"), lru.get("d")]).toEqual([1, 3, 4]);
    // Setting an existing key refreshes it instead of growing the cache.
    lru.set("c", 30);
    lru.set("e", 5);
    expect(lru.get("a")).toBeUndefined();
    expect([lru.get("c"), lru.get("d"), lru.get("e")]).toEqual([30, 4, 5]);
    // Two entries were pushed out to stay within the bound.
    expect(lru.evictions).toBe(2);
  });

  it("forgets an entry once its lifetime is over, however recently it was read", () => {
    const t = clock();
    const lru = new LruCache<string>(10, 1_000, t.now);
    lru.set("k", "v");
    t.advance(900);
    expect(lru.get("k")).toBe("v");
    expect(lru.has("k")).toBe(true);
    t.advance(100);
    expect(lru.has("k")).toBe(false);
    expect(lru.get("k")).toBeUndefined();
    expect(lru.size).toBe(0);
  });

  it("keeps null as a value (a cached 'nobody'), distinct from a miss", () => {
    const lru = new LruCache<string | null>(2, 1_000);
    lru.set("unknown", null);
    expect(lru.has("unknown")).toBe(true);
    expect(lru.get("unknown")).toBeNull();
    expect(lru.get("never-set")).toBeUndefined();
  });

  it("refuses a bound below one", () => {
    expect(() => new LruCache(0, 1_000)).toThrow(RangeError);
  });
});

describe("processCache", () => {
  const name = () => `__goodfundTestCache_${randomBytes(4).toString("hex")}`;
  const options = { ttlMs: 60_000, max: 100, negative: { test: (v: string | null) => v === null, ttlMs: 60_000, max: 50 } };

  it("keeps known keys through a flood of unknown ones ten times its size", async () => {
    const cache = processCache<string | null>(name(), options);
    let loads = 0;
    const load = (value: string | null) => async () => {
      loads++;
      return value;
    };
    for (let i = 0; i < 100; i++) await cache.get(`real-${i}.example.org`, load(`org-${i}`));
    for (let i = 0; i < 1_000; i++) await cache.get(`random-${i}.example.net`, load(null));
    const stats = cache.stats();
    expect(stats.known).toEqual({ size: 100, max: 100, evictions: 0 });
    expect(stats.unknown).toEqual({ size: 50, max: 50, evictions: 950 });
    loads = 0;
    for (let i = 0; i < 100; i++) expect(await cache.get(`real-${i}.example.org`, load("reloaded"))).toBe(`org-${i}`);
    expect(loads).toBe(0);
    // The unknown ones churned their own cache: the newest are there, the oldest gone.
    expect(await cache.get("random-999.example.net", load("reloaded"))).toBeNull();
    expect(await cache.get("random-0.example.net", load("reloaded"))).toBe("reloaded");
  });

  it("loads a key once for concurrent misses", async () => {
    const cache = processCache<string | null>(name(), options);
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const load = async () => {
      loads++;
      await gate;
      return "org";
    };
    const answers = Promise.all([cache.get("k", load), cache.get("k", load), cache.get("k", load)]);
    release();
    expect(await answers).toEqual(["org", "org", "org"]);
    expect(loads).toBe(1);
  });

  it("answers but does not keep a value whose load began before a clear", async () => {
    const cache = processCache<string | null>(name(), options);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stale = cache.get("k", async () => {
      await gate;
      return "before";
    });
    cache.clear();
    release();
    expect(await stale).toBe("before");
    expect(await cache.get("k", async () => "after")).toBe("after");
  });

  it("does not keep a failed load", async () => {
    const cache = processCache<string | null>(name(), options);
    await expect(cache.get("k", async () => Promise.reject(new Error("database down")))).rejects.toThrow("database down");
    expect(await cache.get("k", async () => "org")).toBe("org");
  });
});
