import cluster from "node:cluster";
import { getEnv } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { MemoryBackend } from "./memory";
import type { LimitResult, Policy, PolicyName, RateLimitBackend } from "./types";

export type { LimitResult, Policy, PolicyName, RateLimitBackend } from "./types";

const globalForLimiter = globalThis as unknown as { __goodfundLimiter?: Promise<RateLimitBackend> };

/** Wrong CRON_SECRETs one client IP may send a minute; a scheduler holding the right one never fails. */
export const CRON_AUTH_FAILURES_PER_MINUTE = 10;

export function getPolicy(name: PolicyName): Policy {
  const env = getEnv();
  if (name === "signin-ip") return { name, limit: env.SIGNIN_LINKS_PER_IP, windowMs: env.SIGNIN_LINKS_IP_WINDOW_MINUTES * 60_000 };
  if (name === "donor-signin-ip") return { name, limit: env.DONOR_SIGNIN_LINKS_PER_IP, windowMs: env.DONOR_SIGNIN_WINDOW_MINUTES * 60_000 };
  if (name === "donor-signin-address")
    return { name, limit: env.DONOR_SIGNIN_LINKS_PER_ADDRESS, windowMs: env.DONOR_SIGNIN_WINDOW_MINUTES * 60_000 };
  if (name === "cron-auth") return { name, limit: CRON_AUTH_FAILURES_PER_MINUTE, windowMs: 60_000 };
  const limit = name === "public" ? env.RATE_LIMIT_PUBLIC_PER_MINUTE : env.RATE_LIMIT_AUTHENTICATED_PER_MINUTE;
  return { name, limit, windowMs: 60_000 };
}

/** The configured backend: Upstash when its REST URL and token are set, else Redis, else memory. */
export async function createBackend(): Promise<RateLimitBackend> {
  const env = getEnv();
  const choice =
    env.RATE_LIMIT_BACKEND ?? (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN ? "upstash" : env.REDIS_URL ? "redis" : "memory");
  if (choice === "upstash") {
    const { UpstashBackend } = await import("./upstash");
    return UpstashBackend.fromEnv();
  }
  if (choice === "redis") {
    const { RedisBackend } = await import("./redis");
    return RedisBackend.fromEnv();
  }
  // WEB_CONCURRENCY > 1 (server/main.ts): each server process would count on its own.
  if (cluster.isWorker && cluster.worker?.id === 1) {
    log.warn("rate limits are counted per server process (memory backend); set REDIS_URL or Upstash to share them");
  }
  return new MemoryBackend();
}

function backend(): Promise<RateLimitBackend> {
  globalForLimiter.__goodfundLimiter ??= createBackend();
  return globalForLimiter.__goodfundLimiter;
}

/** Drop the process's backend (tests switch backends through the environment). */
export function resetRateLimiter(): void {
  globalForLimiter.__goodfundLimiter = undefined;
}

/**
 * Counts one request against a policy. When the store cannot be reached the request is
 * allowed (fail open) and a warning is logged: refusing every donation because a cache is
 * down costs more than briefly not limiting. The headers then report the full limit.
 */
export async function limitRequest(name: PolicyName, identifier: string): Promise<LimitResult> {
  const policy = getPolicy(name);
  try {
    return await (await backend()).limit(policy, identifier);
  } catch (err) {
    log.warn("rate limit store unavailable; request allowed", { policy: name, ...errorFields(err) });
    return { success: true, limit: policy.limit, remaining: policy.limit, reset: Date.now() + policy.windowMs };
  }
}

/**
 * An identifier's standing under a policy without counting a request (see limitRequest; the
 * store unreachable: allowed, like there).
 */
export async function peekLimit(name: PolicyName, identifier: string): Promise<LimitResult> {
  const policy = getPolicy(name);
  try {
    return await (await backend()).peek(policy, identifier);
  } catch (err) {
    log.warn("rate limit store unavailable; request allowed", { policy: name, ...errorFields(err) });
    return { success: true, limit: policy.limit, remaining: policy.limit, reset: Date.now() + policy.windowMs };
  }
}

export function rateLimitHeaders(r: LimitResult): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(r.limit),
    "X-RateLimit-Remaining": String(r.remaining),
    "X-RateLimit-Reset": String(Math.ceil(r.reset / 1000)),
  };
  if (!r.success) headers["Retry-After"] = String(Math.max(1, Math.ceil((r.reset - Date.now()) / 1000)));
  return headers;
}

/**
 * Asks the store for the standing of an identifier no client has (counting nothing), throwing
 * when it cannot be reached: the readiness probe's check (`GET /api/ready`), where
 * `limitRequest` would fail open.
 */
export async function checkRateLimitStore(): Promise<void> {
  await (await backend()).peek(getPolicy("public"), "goodfund:readiness-probe");
}
