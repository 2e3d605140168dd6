import type { LimitResult, Policy, RateLimitBackend } from "./types";

/**
 * Fixed windows in a Map: correct for one instance only (the embedded default). Expired
 * windows are swept as new ones open, so memory stays bounded by the active clients.
 */
export class MemoryBackend implements RateLimitBackend {
  readonly name = "memory" as const;
  private windows = new Map<string, { count: number; reset: number }>();
  private lastSweep = 0;

  async limit(policy: Policy, identifier: string): Promise<LimitResult> {
    const now = Date.now();
    this.sweep(now);
    const key = `${policy.name}:${identifier}`;
    let w = this.windows.get(key);
    if (!w || w.reset <= now) {
      w = { count: 0, reset: (Math.floor(now / policy.windowMs) + 1) * policy.windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return {
      success: w.count <= policy.limit,
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - w.count),
      reset: w.reset,
    };
  }

  async peek(policy: Policy, identifier: string): Promise<LimitResult> {
    const now = Date.now();
    const w = this.windows.get(`${policy.name}:${identifier}`);
    const live = w && w.reset > now ? w : { count: 0, reset: (Math.floor(now / policy.windowMs) + 1) * policy.windowMs };
    return {
      success: live.count < policy.limit,
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - live.count),
      reset: live.reset,
    };
  }

  private sweep(now: number) {
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (w.reset <= now) this.windows.delete(k);
  }
}
