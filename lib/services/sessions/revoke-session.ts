import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { userSessions, type User } from "@/db/schema";
import { forgetSession } from "./session-activity";
import { notFound } from "@/lib/errors";
import type { AuditContext } from "@/lib/services/audit/record-audit";
import { recordAccountEvent } from "@/lib/services/two-factor/account-events";

/**
 * Signs one of the user's sessions out: from now on every token carrying its `sid` answers 401
 * (in this process at once, on other instances within a few seconds: ./session-activity.ts).
 * Recorded as `session.revoked`. 404 for a session that is not the user's or already revoked.
 */
export async function revokeSession(db: DbOrTx, user: Pick<User, "id" | "email">, sid: string, audit: AuditContext): Promise<void> {
  await db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(userSessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(userSessions.id, sid), eq(userSessions.userId, user.id), isNull(userSessions.revokedAt)))
      .returning({ id: userSessions.id, device: userSessions.device, network: userSessions.network });
    if (!revoked) throw notFound("session_not_found", "Session not found");
    await recordAccountEvent(tx, audit, user.id, "session.revoked", {
      email: user.email,
      device: revoked.device,
      network: revoked.network,
    });
  });
  forgetSession(sid);
}

/** "Sign out everywhere else": every session of the user but `keepSid` (null: all of them). Answers how many. */
export async function revokeOtherSessions(
  db: DbOrTx,
  user: Pick<User, "id" | "email">,
  keepSid: string | null,
  audit: AuditContext,
): Promise<number> {
  const revoked = await db.transaction(async (tx) => {
    const rows = await tx
      .update(userSessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(userSessions.userId, user.id), isNull(userSessions.revokedAt), keepSid ? ne(userSessions.id, keepSid) : undefined))
      .returning({ id: userSessions.id });
    if (rows.length > 0)
      await recordAccountEvent(tx, audit, user.id, "session.revoked", { email: user.email, sessions: rows.length, allOthers: true });
    return rows;
  });
  for (const { id } of revoked) forgetSession(id);
  return revoked.length;
}

/** A session ended by signing out (next-auth's sign-out): its tokens stop working like a revoked one's. */
export async function endSession(db: DbOrTx, sid: string, userId: string): Promise<void> {
  await db
    .update(userSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(userSessions.id, sid), eq(userSessions.userId, userId), isNull(userSessions.revokedAt)));
  forgetSession(sid);
}
