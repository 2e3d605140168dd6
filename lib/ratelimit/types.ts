/**
 * "signin-ip": sign-in emails asked for by one client IP (on top of the per-address cap).
 * "donor-signin-ip" / "donor-signin-address": donor account sign-in links asked for by one client
 * IP, and for one organization and address.
 * "cron-auth": failed CRON_SECRET checks by one client IP.
 */
export type PolicyName = "public" | "authenticated" | "signin-ip" | "donor-signin-ip" | "donor-signin-address" | "cron-auth";

export type Policy = { name: PolicyName; limit: number; windowMs: number };

/** `reset` is when the current window ends, in milliseconds since the epoch. */
export type LimitResult = { success: boolean; limit: number; remaining: number; reset: number };

/** A rate-limit store. Implementations: Upstash (REST), self-hosted Redis, in-process memory. */
export interface RateLimitBackend {
  readonly name: "upstash" | "redis" | "memory";
  limit(policy: Policy, identifier: string): Promise<LimitResult>;
  /** The identifier's standing in its current window, counting nothing: `success` while it has requests left. */
  peek(policy: Policy, identifier: string): Promise<LimitResult>;
}
