import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { webauthnChallenges } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { newId } from "@/lib/ids";

/**
 * The relying party passkeys are bound to: the app's host (APP_URL) and origin. A passkey made
 * on one host works only there, so APP_URL must be the address staff use.
 */
export function relyingParty(): { rpID: string; rpName: string; origin: string } {
  const url = new URL(getEnv().appUrl);
  return { rpID: url.hostname, rpName: "Goodfund", origin: url.origin };
}

/** How long a ceremony may take between its options and its answer. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;

export type ChallengePurpose = "registration" | "second-factor" | "sign-in";

/** Keeps a ceremony's challenge until its answer (any instance may receive it) and answers its ID. */
export async function saveChallenge(db: DbOrTx, purpose: ChallengePurpose, challenge: string, userId: string | null): Promise<string> {
  const id = newId("wch");
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
  await db.insert(webauthnChallenges).values({
    id,
    userId,
    purpose,
    challenge,
    expiresAt: sql`now() + ${`${CHALLENGE_TTL_SECONDS} seconds`}::interval`,
  });
  return id;
}

/**
 * The challenge of a ceremony, used up as it is read (so an answer is accepted at most once):
 * it must be of this purpose, for this user (null: a sign-in, where nobody is known yet), and
 * unexpired. Null otherwise.
 */
export async function takeChallenge(db: DbOrTx, id: string, purpose: ChallengePurpose, userId: string | null): Promise<string | null> {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.id, id), eq(webauthnChallenges.purpose, purpose), gt(webauthnChallenges.expiresAt, sql`now()`)))
    .returning({ challenge: webauthnChallenges.challenge, userId: webauthnChallenges.userId });
  if (!row || row.userId !== userId) return null;
  return row.challenge;
}
