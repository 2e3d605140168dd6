import { lt, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { twoFactorFailures, userSessions, webauthnChallenges } from "@/db/schema";
import { getEnv } from "@/lib/env";

/**
 * The worker's clean-up of account-security rows nothing can use any more: sessions idle for a
 * day past the session lifetime (every token of theirs has expired by then, since a token lives
 * at most SESSION_MAX_AGE_SECONDS past the session's last recorded activity, which is written
 * at least every five minutes of use), wrong-code records older than a day (the limit looks at
 * 15 minutes), and unanswered WebAuthn challenges past their expiry.
 */
export async function purgeStaleAccountRows(db: Db): Promise<void> {
  const keepSeconds = getEnv().SESSION_MAX_AGE_SECONDS + 24 * 60 * 60;
  await db.delete(userSessions).where(lt(userSessions.lastSeenAt, sql`now() - ${`${keepSeconds} seconds`}::interval`));
  await db.delete(twoFactorFailures).where(lt(twoFactorFailures.createdAt, sql`now() - interval '1 day'`));
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
}
