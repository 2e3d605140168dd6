import { isIP } from "node:net";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db";
import { userSessions } from "@/db/schema";

/**
 * Session JWTs may carry two claims beyond `sub`, `email` and `name` (contract section 16):
 *
 * - `sid`: the `user_sessions` row the token belongs to. A revoked row makes every token with
 *   that `sid` answer 401, on the API and on the dashboard. Tokens without `sid` (issued by
 *   `npm run token`, or before sessions had rows) keep working until they expire.
 * - `twoFactorAt`: unix seconds when the session last passed a second factor.
 */
export const sessionClaimsSchema = z.object({
  sid: z.string().min(1).max(100).optional(),
  twoFactorAt: z.number().int().positive().optional(),
});

export type SessionState = { sid: string | null; twoFactorAt: number | null };

/** The session claims of a decoded token; malformed ones count as absent. */
export function sessionStateOf(claims: unknown): SessionState {
  const parsed = sessionClaimsSchema.safeParse(claims ?? {});
  return parsed.success ? { sid: parsed.data.sid ?? null, twoFactorAt: parsed.data.twoFactorAt ?? null } : { sid: null, twoFactorAt: null };
}

/**
 * How long this process trusts what it last read about a session. Revoking clears the entry in
 * the process that revokes at once; every other instance sees the revocation within this many
 * milliseconds. It bounds the cost of the `sid` check to one primary-key lookup per session per
 * few seconds, however many requests a dashboard tab makes.
 */
export const SESSION_CACHE_MS = 5_000;
/** `lastSeenAt` is written at most this often per session (the list shows it to the minute). */
const TOUCH_EVERY_MS = 5 * 60_000;
const CACHE_MAX = 10_000;

type Known = { userId: string; active: boolean; lastSeenAt: number; readAt: number };
const known = new Map<string, Known>();

/** Forgets what this process knows about a session (after revoking it here). */
export function forgetSession(sid: string): void {
  known.delete(sid);
}

/**
 * Whether a token's `sid` names a live session of this user: its row exists, is the user's and
 * is not revoked. Read from the database at most once per SESSION_CACHE_MS per session in this
 * process; records the session's last activity (at most every few minutes).
 */
export async function isSessionActive(db: DbOrTx, sid: string, userId: string, now = Date.now()): Promise<boolean> {
  let entry = known.get(sid);
  if (!entry || now - entry.readAt > SESSION_CACHE_MS) {
    const [row] = await db
      .select({ userId: userSessions.userId, revokedAt: userSessions.revokedAt, lastSeenAt: userSessions.lastSeenAt })
      .from(userSessions)
      .where(eq(userSessions.id, sid))
      .limit(1);
    entry = row
      ? { userId: row.userId, active: row.revokedAt === null, lastSeenAt: row.lastSeenAt.getTime(), readAt: now }
      : { userId: "", active: false, lastSeenAt: 0, readAt: now };
    if (known.size >= CACHE_MAX) known.delete(known.keys().next().value as string);
    known.set(sid, entry);
  }
  if (!entry.active || entry.userId !== userId) return false;
  if (now - entry.lastSeenAt > TOUCH_EVERY_MS) {
    entry.lastSeenAt = now;
    await db
      .update(userSessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(userSessions.id, sid));
  }
  return true;
}

/**
 * "Chrome on macOS" from a User-Agent: the browser family and the operating system, nothing
 * finer (versions change weekly and say nothing to a person reading their sessions).
 */
export function describeDevice(userAgent: string | null | undefined): string {
  const ua = userAgent ?? "";
  if (!ua.trim()) return "Unknown device";
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? "Edge"
    : /OPR\/|Opera/.test(ua)
      ? "Opera"
      : /Firefox\/|FxiOS\//.test(ua)
        ? "Firefox"
        : /Chrome\/|CriOS\/|Chromium\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : /^curl\//.test(ua)
              ? "curl"
              : /node|undici|axios|python|Go-http-client|okhttp/i.test(ua)
                ? "API client"
                : null;
  const os = /iPhone|iPad|iPod/.test(ua)
    ? "iOS"
    : /Android/.test(ua)
      ? "Android"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /CrOS/.test(ua)
            ? "ChromeOS"
            : /Linux|X11/.test(ua)
              ? "Linux"
              : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? (os ? `A browser on ${os}` : "Unknown device");
}

/**
 * A coarse place for a client address, derived offline (no geolocation service is called): the
 * IPv4 /24 or IPv6 /48 it belongs to, "This computer" for loopback, or a private network.
 * `clientIp` is what `clientIpOf` answers (IPv4, an IPv6 /64, or "unknown").
 */
export function describeNetwork(clientIp: string): string {
  const ip = clientIp.replace(/\/64$/, "");
  if (isIP(ip) === 4) {
    const [a, b, c] = ip.split(".").map(Number);
    const prefix = `${a}.${b}.${c}.0/24`;
    if (a === 127) return "This computer";
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return `Private network ${prefix}`;
    return prefix;
  }
  const v6 = ip.replace(/::$/, "");
  if (isIP(`${v6}::`) === 6) {
    const groups = v6.split(":").filter(Boolean);
    if (groups.every((g) => /^0+$/.test(g))) return "This computer";
    const prefix = `${groups.slice(0, 3).join(":")}::/48`;
    return /^f[cd]/i.test(groups[0]) ? `Private network ${prefix}` : prefix;
  }
  return "Unknown network";
}
