import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { userSessions, type UserSession } from "@/db/schema";

/**
 * A user's signed-in sessions, most recently active first: not revoked, and used within the
 * session lifetime (a session token lives at most `maxAgeSeconds` past its last renewal).
 */
export function listActiveSessions(db: DbOrTx, userId: string, maxAgeSeconds: number): Promise<UserSession[]> {
  return db
    .select()
    .from(userSessions)
    .where(
      and(
        eq(userSessions.userId, userId),
        isNull(userSessions.revokedAt),
        gt(userSessions.lastSeenAt, sql`now() - ${`${maxAgeSeconds} seconds`}::interval`),
      ),
    )
    .orderBy(desc(userSessions.lastSeenAt), desc(userSessions.id))
    .limit(100);
}

/** One of the user's sessions (another user's answers undefined). */
export async function findUserSession(db: DbOrTx, userId: string, sid: string): Promise<UserSession | undefined> {
  const [row] = await db
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.id, sid), eq(userSessions.userId, userId)))
    .limit(1);
  return row;
}
