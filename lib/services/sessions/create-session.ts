import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { userSessions, users } from "@/db/schema";
import { describeDevice, describeNetwork } from "./describe-session";
import { newId } from "@/lib/ids";
import { notifyAccount } from "@/lib/services/two-factor/account-events";

export type NewSession = {
  userId: string;
  /** How the first factor was given: email, github, google, oidc, passkey, demo, or api. */
  method: string;
  userAgent: string | null;
  /** What `clientIpOf` answers for the request. */
  clientIp: string;
  /** Unix seconds, when the sign-in itself was a second factor (a passkey with user verification). */
  twoFactorAt?: number | null;
};

/**
 * Records a new signed-in session and answers its ID (the token's `sid`). When the account has
 * signed in before, but never from this device and network, the user is emailed about it in the
 * same transaction (a first sign-in ever is not news to anyone). API tokens made by the
 * challenge endpoint are not sign-ins from a device: no email.
 */
export async function createUserSession(db: DbOrTx, session: NewSession): Promise<string> {
  const id = newId("ses");
  const device = describeDevice(session.userAgent);
  const network = describeNetwork(session.clientIp);
  await db.transaction(async (tx) => {
    const [[seenBefore], [seenHere], [user]] = await Promise.all([
      tx.select({ id: userSessions.id }).from(userSessions).where(eq(userSessions.userId, session.userId)).limit(1),
      tx
        .select({ id: userSessions.id })
        .from(userSessions)
        .where(and(eq(userSessions.userId, session.userId), eq(userSessions.device, device), eq(userSessions.network, network)))
        .limit(1),
      tx.select({ email: users.email }).from(users).where(eq(users.id, session.userId)),
    ]);
    await tx.insert(userSessions).values({
      id,
      userId: session.userId,
      method: session.method,
      userAgent: session.userAgent?.slice(0, 512) ?? null,
      device,
      network,
      twoFactorAt: session.twoFactorAt ? new Date(session.twoFactorAt * 1000) : null,
    });
    if (seenBefore && !seenHere && user && session.method !== "api") {
      await notifyAccount(tx, { kind: "new-sign-in", email: user.email, device, network }, `new-sign-in:${id}`);
    }
  });
  return id;
}
