import { createHash, timingSafeEqual } from "node:crypto";
import { limitRequest, peekLimit, rateLimitHeaders } from "@/lib/ratelimit";
import { ApiError, unauthorized } from "./errors";

/** Constant-time check of `Authorization: Bearer <secret>` (digests first, so lengths never leak). */
export function bearerMatches(header: string | null, secret: string): boolean {
  const match = header ? /^Bearer (.+)$/i.exec(header.trim()) : null;
  if (!match) return false;
  const given = createHash("sha256").update(match[1]).digest();
  const expected = createHash("sha256").update(secret).digest();
  return timingSafeEqual(given, expected);
}

/**
 * A cron route's caller must hold CRON_SECRET (`Authorization: Bearer …`). Wrong guesses are
 * counted per client IP ("cron-auth": 10 a minute); past that the client gets 429 with
 * `Retry-After` until the window ends, whatever it sends, so guessing can't go on at full speed
 * (the right secret then waits too: the scheduler's own calls never fail, so they never get there).
 */
export async function assertCronCaller(authorization: string | null, secret: string, clientIp: string): Promise<void> {
  const standing = await peekLimit("cron-auth", clientIp);
  if (!standing.success) throw new ApiError(429, "Too many requests", undefined, rateLimitHeaders(standing));
  if (bearerMatches(authorization, secret)) return;
  const counted = await limitRequest("cron-auth", clientIp);
  if (!counted.success) throw new ApiError(429, "Too many requests", undefined, rateLimitHeaders(counted));
  throw unauthorized();
}
