/**
 * The Redis and Upstash rate-limit backends against a real Redis at 127.0.0.1:6379 (REDIS_TEST_URL
 * overrides). Upstash is reached through a local HTTP server speaking the Upstash REST protocol,
 * so the real @upstash/redis + @upstash/ratelimit code path runs without the internet.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis as UpstashRedis } from "@upstash/redis";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnv } from "@/lib/env";
import { limitRequest, resetRateLimiter, type Policy, type RateLimitBackend } from "@/lib/ratelimit";
import { MemoryBackend } from "@/lib/ratelimit/memory";
import { RedisBackend } from "@/lib/ratelimit/redis";
import { UpstashBackend } from "@/lib/ratelimit/upstash";
import { startInsideWindow } from "../helpers/rate-window";

const REDIS_URL = process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379";
const DOWN_URL = "redis://127.0.0.1:1"; // nothing listens on port 1
const RUN = `t${Date.now().toString(36)}${randomBytes(4).toString("hex")}`; // keeps parallel runs apart
const policy: Policy = { name: "public", limit: 100, windowMs: 60_000 };
const id = (label: string) => `${RUN}-${label}`;

/** Fixed windows are aligned to the clock: start a test's burst well inside one window. */
const freshWindow = () => startInsideWindow(5_000, policy.windowMs);

async function sequential(backend: RateLimitBackend, identifier: string, n: number) {
  const results = [];
  for (let i = 0; i < n; i++) results.push(await backend.limit(policy, identifier));
  return results;
}

// ---------------------------------------------------------------------------------------------
// A fake Upstash REST endpoint forwarding to the real Redis.

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");

type FakeUpstash = { url: string; token: string; commands: string[]; server: Server; redis: Redis };

function encodeBase64(v: unknown): unknown {
  if (typeof v === "string") return Buffer.from(v, "utf8").toString("base64");
  if (Array.isArray(v)) return v.map(encodeBase64);
  return v;
}

async function startFakeUpstash(): Promise<FakeUpstash> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const token = randomBytes(16).toString("hex");
  const commands: string[] = [];
  // Upstash accepts the `#!lua flags=allow-key-locking` shebang; Redis 7.0 does not. Emulate
  // Upstash by running the script body without it, reachable under the original script's sha.
  const scripts = new Map<string, string>();

  async function run(cmd: unknown[]): Promise<unknown> {
    const [name, ...rest] = cmd.map((a) => (typeof a === "string" ? a : JSON.stringify(a)));
    const upper = name.toUpperCase();
    commands.push(upper);
    if (upper === "EVAL" && rest[0].startsWith("#!lua")) {
      const body = rest[0].slice(rest[0].indexOf("\n") + 1);
      scripts.set(sha1(rest[0]), body);
      return redis.call("EVAL", body, ...rest.slice(1));
    }
    if (upper === "EVALSHA" && scripts.has(rest[0].toLowerCase())) {
      return redis.call("EVAL", scripts.get(rest[0].toLowerCase())!, ...rest.slice(1));
    }
    return redis.call(name, ...rest);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST") return send(405, { error: "method not allowed" });
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(400, { error: "ERR failed to parse JSON body" });
    }
    const encode = req.headers["upstash-encoding"] === "base64" ? encodeBase64 : (v: unknown) => v;
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/") {
      if (!Array.isArray(body) || body.length === 0) return send(400, { error: "ERR expected a command array" });
      try {
        return send(200, { result: encode(await run(body)) });
      } catch (err) {
        return send(400, { error: (err as Error).message });
      }
    }
    if (path === "/pipeline" || path === "/multi-exec") {
      if (!Array.isArray(body) || !body.every(Array.isArray)) return send(400, { error: "ERR expected command arrays" });
      const out: Array<{ result?: unknown; error?: string }> = [];
      if (path === "/multi-exec") commands.push("MULTI");
      // Sequential on one connection; MULTI/EXEC atomicity is not needed by these tests.
      for (const cmd of body as unknown[][]) {
        try {
          out.push({ result: encode(await run(cmd)) });
        } catch (err) {
          out.push({ error: (err as Error).message });
        }
      }
      return send(200, out);
    }
    return send(404, { error: "not found" });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: String(err) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, token, commands, server, redis };
}

// ---------------------------------------------------------------------------------------------

let admin: Redis;
let redisBackend: RedisBackend;
let fake: FakeUpstash;
let upstashBackend: UpstashBackend;
const saved: Record<string, string | undefined> = {};
const ENV_KEYS = ["REDIS_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "RATE_LIMIT_BACKEND"];

beforeAll(async () => {
  for (const k of ENV_KEYS) saved[k] = process.env[k];
  admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  await admin.ping();
  redisBackend = RedisBackend.fromUrl(REDIS_URL);
  fake = await startFakeUpstash();
  // Through fromEnv, as index.ts does it.
  process.env.UPSTASH_REDIS_REST_URL = fake.url;
  process.env.UPSTASH_REDIS_REST_TOKEN = fake.token;
  resetEnv();
  upstashBackend = UpstashBackend.fromEnv();
});

afterAll(async () => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnv();
  resetRateLimiter();
  await redisBackend?.close();
  if (fake) {
    fake.server.closeAllConnections();
    await new Promise((r) => fake.server.close(r));
    fake.redis.disconnect();
  }
  if (admin) {
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, batch] = await admin.scan(cursor, "MATCH", `goodfund:rl:*${RUN}*`, "COUNT", 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== "0");
    if (keys.length) await admin.del(...keys);
    admin.disconnect();
  }
});

function expectFullWindow(results: Awaited<ReturnType<RateLimitBackend["limit"]>>[], start: number) {
  expect(results.slice(0, 100).every((r) => r.success)).toBe(true);
  expect(results.slice(0, 100).map((r) => r.remaining)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
  expect(results.every((r) => r.limit === 100)).toBe(true);
  const denied = results[100];
  expect(denied.success).toBe(false);
  expect(denied.remaining).toBe(0);
  for (const r of results) {
    expect(r.reset).toBeGreaterThan(start);
    expect(r.reset).toBeLessThanOrEqual(start + policy.windowMs);
  }
}

describe("RedisBackend", () => {
  it("RedisBackend allows 100 requests and denies the 101st request in a window", async () => {
    await freshWindow();
    const start = Date.now();
    const results = await sequential(redisBackend, id("redis-seq"), 101);
    expectFullWindow(results, start);
    // Still denied afterwards (from the ephemeral cache or Redis, the answer is the same).
    expect((await redisBackend.limit(policy, id("redis-seq"))).success).toBe(false);
  });

  it("RedisBackend stores the counter with an expiry despite the allow-key-locking shebang", async () => {
    await freshWindow();
    await sequential(redisBackend, id("redis-key"), 3);
    const [key] = await admin.keys(`goodfund:rl:public:${id("redis-key")}:*`);
    expect(key).toBeDefined();
    expect(await admin.get(key)).toBe("3");
    const pttl = await admin.pttl(key);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(policy.windowMs);
  });

  it("RedisBackend sends the script body once, then runs it by sha", async () => {
    const fresh = RedisBackend.fromUrl(REDIS_URL);
    try {
      const evalSpy = vi.spyOn(fresh.client, "eval");
      const evalshaSpy = vi.spyOn(fresh.client, "evalsha");
      await freshWindow();
      await sequential(fresh, id("redis-sha"), 3);
      // First evalsha (the library's sha of the shebang script) gets NOSCRIPT, eval loads the
      // stripped body, and later calls use the stripped body's sha.
      expect(evalSpy).toHaveBeenCalledTimes(1);
      expect(String(evalSpy.mock.calls[0][0])).not.toMatch(/^#!/);
      expect(evalshaSpy).toHaveBeenCalledTimes(3);
      expect(evalshaSpy.mock.calls[2][0]).toBe(createHash("sha1").update(String(evalSpy.mock.calls[0][0])).digest("hex"));
    } finally {
      await fresh.close();
    }
  });

  it("RedisBackend keeps other identifiers unaffected", async () => {
    await freshWindow();
    await sequential(redisBackend, id("redis-noisy"), 101);
    const other = await redisBackend.limit(policy, id("redis-quiet"));
    expect(other).toMatchObject({ success: true, limit: 100, remaining: 99 });
  });

  it("RedisBackend grants exactly 100 of 150 concurrent requests", async () => {
    await freshWindow();
    const results = await Promise.all(Array.from({ length: 150 }, () => redisBackend.limit(policy, id("redis-burst"))));
    expect(results.filter((r) => r.success)).toHaveLength(100);
    expect(results.filter((r) => !r.success).every((r) => r.remaining === 0)).toBe(true);
    // Every remaining value 0..99 handed out once: each request saw its own atomic increment.
    const remaining = results.filter((r) => r.success).map((r) => r.remaining);
    expect(new Set(remaining).size).toBe(100);
  });
});

describe("UpstashBackend", () => {
  it("UpstashBackend allows 100 requests and denies the 101st request in a window", async () => {
    await freshWindow();
    const start = Date.now();
    const results = await sequential(upstashBackend, id("up-seq"), 101);
    expectFullWindow(results, start);
  });

  it("UpstashBackend keeps other identifiers unaffected", async () => {
    await freshWindow();
    await sequential(upstashBackend, id("up-noisy"), 101);
    const other = await upstashBackend.limit(policy, id("up-quiet"));
    expect(other).toMatchObject({ success: true, limit: 100, remaining: 99 });
  });

  it("UpstashBackend grants exactly 100 of 150 concurrent requests", async () => {
    await freshWindow();
    const results = await Promise.all(Array.from({ length: 150 }, () => upstashBackend.limit(policy, id("up-burst"))));
    expect(results.filter((r) => r.success)).toHaveLength(100);
  });

  it("UpstashBackend goes through the SDK's EVALSHA/EVAL path", () => {
    expect(fake.commands).toContain("EVALSHA");
    expect(fake.commands).toContain("EVAL");
  });

  it("UpstashBackend rejects when the token is wrong", async () => {
    const bad = new UpstashBackend(new UpstashRedis({ url: fake.url, token: "wrong-token", retry: false }));
    await expect(bad.limit(policy, id("up-bad-token"))).rejects.toThrow(/Unauthorized/);
  });
});

describe("store down", () => {
  it("RedisBackend rejects within 2 s when nothing listens", async () => {
    const down = RedisBackend.fromUrl(DOWN_URL);
    try {
      const t0 = Date.now();
      await expect(down.limit(policy, id("down"))).rejects.toThrow();
      expect(Date.now() - t0).toBeLessThan(2_000);
      // While ioredis retries in the background, later calls fail at once instead of queueing.
      const t1 = Date.now();
      await expect(down.limit(policy, id("down"))).rejects.toThrow();
      expect(Date.now() - t1).toBeLessThan(2_000);
    } finally {
      await down.close();
    }
  });

  it("limitRequest fails open when the Redis store is down", async () => {
    process.env.REDIS_URL = DOWN_URL;
    process.env.RATE_LIMIT_BACKEND = "redis";
    delete process.env.UPSTASH_REDIS_REST_URL;
    delete process.env.UPSTASH_REDIS_REST_TOKEN;
    resetEnv();
    resetRateLimiter();
    try {
      const t0 = Date.now();
      const r = await limitRequest("public", id("fail-open"));
      expect(Date.now() - t0).toBeLessThan(2_000);
      expect(r.success).toBe(true);
      expect(r.remaining).toBe(r.limit);
      expect(r.reset).toBeGreaterThan(Date.now());
    } finally {
      // index.ts keeps the backend on globalThis; close its reconnecting client so vitest can exit.
      const held = (globalThis as { __goodfundLimiter?: Promise<RateLimitBackend> }).__goodfundLimiter;
      const backend = await held?.catch(() => undefined);
      if (backend instanceof RedisBackend) await backend.close();
      for (const k of ENV_KEYS) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
      resetEnv();
      resetRateLimiter();
    }
  });
});

describe("peek: an identifier's standing without counting a request", () => {
  const small: Policy = { name: "cron-auth", limit: 3, windowMs: 60_000 };
  it.each([
    ["memory", () => new MemoryBackend()],
    ["redis", () => redisBackend],
    ["upstash", () => upstashBackend],
  ] as const)("%s: peeking counts nothing; it answers what the next limit() would have left", async (_name, make) => {
    await freshWindow();
    const backend: RateLimitBackend = make();
    const who = id(`peek-${_name}`);
    const start = Date.now();
    const fresh = await backend.peek(small, who);
    expect(fresh).toMatchObject({ success: true, limit: 3, remaining: 3 });
    expect(fresh.reset).toBeGreaterThan(start);
    for (let i = 0; i < 5; i++) expect((await backend.peek(small, who)).remaining).toBe(3);
    await backend.limit(small, who);
    await backend.limit(small, who);
    expect(await backend.peek(small, who)).toMatchObject({ success: true, remaining: 1 });
    await backend.limit(small, who);
    const spent = await backend.peek(small, who);
    expect(spent).toMatchObject({ success: false, remaining: 0 });
    expect(spent.reset).toBeLessThanOrEqual(start + small.windowMs);
    // Another identifier is untouched.
    expect((await backend.peek(small, id(`peek-${_name}-other`))).remaining).toBe(3);
  });
});
