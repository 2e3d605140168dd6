import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { userSessions, type User } from "@/db/schema";
import { issueSessionToken } from "./session-token";
import { getEnv } from "@/lib/env";
import { createUserSession } from "./create-session";

export type PassedSession = { token: string; expiresAt: Date; sid: string; twoFactorAt: number };

/**
 * A session JWT with `twoFactorAt` now, after the user passed a second factor: for the session
 * the request came with (its `sid`), or, for a token that had none, a new listed session
 * ("api"). It lives SESSION_MAX_AGE_SECONDS.
 */
export async function passSecondFactor(
  db: DbOrTx,
  user: Pick<User, "id" | "email" | "name">,
  current: { sid: string | null; userAgent: string | null; clientIp: string },
  now = Date.now(),
): Promise<PassedSession> {
  const twoFactorAt = Math.floor(now / 1000);
  let sid = current.sid;
  if (sid) {
    await db
      .update(userSessions)
      .set({ twoFactorAt: new Date(twoFactorAt * 1000), lastSeenAt: sql`now()` })
      .where(and(eq(userSessions.id, sid), eq(userSessions.userId, user.id)));
  } else {
    sid = await createUserSession(db, {
      userId: user.id,
      method: "api",
      userAgent: current.userAgent,
      clientIp: current.clientIp,
      twoFactorAt,
    });
  }
  const maxAge = getEnv().SESSION_MAX_AGE_SECONDS;
  const token = await issueSessionToken({ sub: user.id, email: user.email, name: user.name, sid, twoFactorAt }, maxAge);
  return { token, expiresAt: new Date(now + maxAge * 1000), sid, twoFactorAt };
}
