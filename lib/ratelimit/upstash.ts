import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import { getEnv } from "@/lib/env";
import type { LimitResult, Policy, RateLimitBackend } from "./types";

const PREFIX = "goodfund:rl";
// On timeout @upstash/ratelimit ALLOWS the request (reason "timeout"); we cap the wait at 1 s and treat it as store-down below.
const TIMEOUT_MS = 1_000;

/** Upstash Redis over its REST API, counted by @upstash/ratelimit's fixed window. */
export class UpstashBackend implements RateLimitBackend {
  readonly name = "upstash" as const;
  private readonly limiters = new Map<string, Ratelimit>();

  constructor(readonly redis: Redis) {}

  static fromEnv(): UpstashBackend {
    const env = getEnv();
    const url = env.UPSTASH_REDIS_REST_URL;
    const token = env.UPSTASH_REDIS_REST_TOKEN;
    if (!url || !token) throw new Error("UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN must both be set");
    // Few, short retries: the limiter gives up after TIMEOUT_MS anyway, and retries would keep
    // hammering a struggling store in the background.
    return new UpstashBackend(new Redis({ url, token, retry: { retries: 2, backoff: (n) => 50 * 2 ** n } }));
  }

  async limit(policy: Policy, identifier: string): Promise<LimitResult> {
    const r = await this.limiter(policy).limit(identifier);
    // The library's timeout answer is { success: true, limit: 0, remaining: 0, reset: 0 }; reject
    // instead so index.ts fails open with the real limit in the headers and logs a warning.
    if (r.reason === "timeout") throw new Error(`upstash rate limit timed out after ${TIMEOUT_MS} ms`);
    return { success: r.success, limit: r.limit, remaining: r.remaining, reset: r.reset };
  }

  async peek(policy: Policy, identifier: string): Promise<LimitResult> {
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
        redis: this.redis,
        limiter: Ratelimit.fixedWindow(policy.limit, `${policy.windowMs} ms`),
        prefix: `${PREFIX}:${policy.name}`,
        analytics: false,
        timeout: TIMEOUT_MS,
        // The ephemeral cache stays on: it only remembers identifiers Redis already denied until
        // their window resets, so it answers exactly as Redis would and saves the round trips.
      });
      this.limiters.set(cacheKey, rl);
    }
    return rl;
  }
}
