import { createHash } from "node:crypto";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "ioredis";
import { getEnv } from "@/lib/env";
import type { LimitResult, Policy, RateLimitBackend } from "./types";

const PREFIX = "goodfund:rl";
/** Bounds connecting and every command, so a dead or hung store rejects fast and index.ts fails open. */
const CONNECT_TIMEOUT_MS = 1_000;
const COMMAND_TIMEOUT_MS = 1_000;

type RatelimitRedis = ConstructorParameters<typeof Ratelimit>[0]["redis"];
type ScriptArg = string | number;

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");

/**
 * Since @upstash/ratelimit 2.1 every script starts with `#!lua flags=allow-key-locking`, a flag
 * only Upstash understands: Redis 7 answers "Unexpected flag in script shebang" and Redis 6 knows
 * no shebang at all. Dropping the line runs the same Lua as a classic (pre-7) EVAL script.
 */
export function stripShebang(script: string): string {
  if (!script.startsWith("#!")) return script;
  const nl = script.indexOf("\n");
  return nl === -1 ? "" : script.slice(nl + 1);
}

function toArg(v: unknown): ScriptArg {
  // Same serialisation as @upstash/redis: strings and numbers as they are, anything else as JSON.
  return typeof v === "string" || typeof v === "number" ? v : JSON.stringify(v);
}

/**
 * The part of the @upstash/redis client that @upstash/ratelimit calls for a single-region
 * fixed window (`evalsha`, falling back to `eval` on NOSCRIPT; `get`/`set` only for dynamic
 * limits, which we do not enable), implemented on ioredis. Each script runs atomically in Redis,
 * so counts stay exact under any concurrency.
 */
export class IoredisRatelimitAdapter {
  /** sha1 of the library's script (what it passes to evalsha) -> sha1 of the script Redis holds. */
  private readonly loaded = new Map<string, string>();

  constructor(private readonly client: Redis) {}

  async evalsha(sha: string, keys: string[], args: unknown[]): Promise<unknown> {
    // Unknown sha: Redis answers NOSCRIPT and the library retries with eval(), which records it.
    // A NOSCRIPT after a SCRIPT FLUSH or a restart takes the same route.
    return this.client.evalsha(this.loaded.get(sha) ?? sha, keys.length, ...keys, ...args.map(toArg));
  }

  async eval(script: string, keys: string[], args: unknown[]): Promise<unknown> {
    const body = stripShebang(script);
    // EVAL also caches the body in Redis, so the next evalsha() can use the stripped sha.
    const result = await this.client.eval(body, keys.length, ...keys, ...args.map(toArg));
    this.loaded.set(sha1(script), sha1(body));
    return result;
  }

  async get(key: string): Promise<string | null> {
    return this.client.get(key);
  }

  async set(key: string, value: unknown): Promise<"OK"> {
    await this.client.set(key, String(toArg(value)));
    return "OK";
  }
}

/** Self-hosted Redis (REDIS_URL) through ioredis, counted by @upstash/ratelimit's fixed window. */
export class RedisBackend implements RateLimitBackend {
  readonly name = "redis" as const;
  private readonly adapter: IoredisRatelimitAdapter;
  private readonly limiters = new Map<string, Ratelimit>();

  constructor(readonly client: Redis) {
    this.adapter = new IoredisRatelimitAdapter(client);
    // Failures surface as rejected commands (logged by index.ts); avoid ioredis's own
    // "Unhandled error event" console noise on every reconnect attempt.
    client.on("error", () => {});
  }

  static fromEnv(): RedisBackend {
    const url = getEnv().REDIS_URL;
    if (!url) throw new Error("REDIS_URL is not set");
    return RedisBackend.fromUrl(url);
  }

  static fromUrl(url: string): RedisBackend {
    return new RedisBackend(
      new Redis(url, {
        lazyConnect: true,
        enableOfflineQueue: false, // never queue behind a dead connection: reject at once
        maxRetriesPerRequest: 1,
        connectTimeout: CONNECT_TIMEOUT_MS,
        commandTimeout: COMMAND_TIMEOUT_MS,
      }),
    );
  }

  async limit(policy: Policy, identifier: string): Promise<LimitResult> {
    await this.ready();
    const r = await this.limiter(policy).limit(identifier);
    return { success: r.success, limit: r.limit, remaining: r.remaining, reset: r.reset };
  }

  /** Close the connection (tests, shutdown). */
  async close(): Promise<void> {
    this.client.disconnect();
  }

  async peek(policy: Policy, identifier: string): Promise<LimitResult> {
    await this.ready();
    const r = await this.limiter(policy).getRemaining(identifier);
    const remaining = Math.max(0, r.remaining);
    // A window nobody has counted in yet reports reset 0: it would end a window from now.
    const reset = r.reset > 0 ? r.reset : (Math.floor(Date.now() / policy.windowMs) + 1) * policy.windowMs;
    return { success: remaining > 0, limit: policy.limit, remaining, reset };
  }

  private limiter(policy: Policy): Ratelimit {
    const cacheKey = `${policy.name}:${policy.limit}:${policy.windowMs}`;
    let rl = this.limiters.get(cacheKey);
    if (!rl) {
      rl = new Ratelimit({
        redis: this.adapter as unknown as RatelimitRedis,
        limiter: Ratelimit.fixedWindow(policy.limit, `${policy.windowMs} ms`),
        prefix: `${PREFIX}:${policy.name}`,
        analytics: false,
        // 0 = no library timeout: on timeout it would silently ALLOW with limit 0; ioredis's
        // commandTimeout rejects instead, so index.ts fails open with proper headers and a log line.
        timeout: 0,
        enableTelemetry: false,
        // Ephemeral cache left on: it only short-circuits identifiers Redis already denied, until
        // their window resets, so answers match Redis exactly while saving round trips.
      });
      this.limiters.set(cacheKey, rl);
    }
    return rl;
  }

  /**
   * With the offline queue off, a command sent before the connection is ready fails, so wait for
   * the first connect (bounded by connectTimeout). While ioredis is reconnecting after a loss,
   * reject at once instead of making every request wait.
   */
  private async ready(): Promise<void> {
    const c = this.client;
    if (c.status === "ready") return;
    if (c.status === "wait") {
      await c.connect();
      return;
    }
    if (c.status === "connecting" || c.status === "connect") {
      await new Promise<void>((resolve, reject) => {
        const done = (err?: Error) => {
          clearTimeout(timer);
          c.off("ready", onReady);
          c.off("close", onClose);
          if (err) reject(err);
          else resolve();
        };
        const onReady = () => done();
        const onClose = () => done(new Error("redis connection closed"));
        const timer = setTimeout(() => done(new Error("redis connect timed out")), CONNECT_TIMEOUT_MS + 500);
        c.once("ready", onReady);
        c.once("close", onClose);
      });
      return;
    }
    throw new Error(`redis unavailable (connection ${c.status})`);
  }
}
