import { and, count, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { passkeys, recoveryCodes, users, userTotp } from "@/db/schema";

export type TwoFactorStatus = {
  enabled: boolean;
  totp: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
};

/** What second factors a user has: an authenticator app, passkeys, unused recovery codes. */
export async function getTwoFactorStatus(db: DbOrTx, userId: string): Promise<TwoFactorStatus> {
  const [[totp], [keys], [codes]] = await Promise.all([
    db
      .select({ confirmed: userTotp.confirmedAt })
      .from(userTotp)
      .where(and(eq(userTotp.userId, userId), isNotNull(userTotp.confirmedAt))),
    db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)),
    db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt))),
  ]);
  const status = { totp: Boolean(totp), passkeys: Number(keys?.n ?? 0), recoveryCodesLeft: Number(codes?.n ?? 0) };
  return { enabled: status.totp || status.passkeys > 0, ...status };
}

/**
 * Keeps `users.two_factor_enabled_at` (what every request reads, with the user row it loads
 * anyway) in step with the factors: set when the first one arrives, cleared with the last one.
 * Answers the change: "on", "off" or null. Call it in the transaction that changed a factor.
 */
export async function syncTwoFactorEnabled(tx: DbOrTx, userId: string): Promise<"on" | "off" | null> {
  const { enabled } = await getTwoFactorStatus(tx, userId);
  const [before] = await tx.select({ at: users.twoFactorEnabledAt }).from(users).where(eq(users.id, userId)).for("update");
  const was = before?.at !== null && before?.at !== undefined;
  if (was === enabled) return null;
  await tx
    .update(users)
    .set({ twoFactorEnabledAt: enabled ? sql`now()` : null, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
  return enabled ? "on" : "off";
}
