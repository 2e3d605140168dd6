import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { userSessions } from "@/db/schema";

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
