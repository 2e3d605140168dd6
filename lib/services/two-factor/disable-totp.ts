import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { recoveryCodes, userTotp, type User } from "@/db/schema";
import { conflict } from "@/lib/errors";
import type { AuditContext } from "@/lib/services/audit/record-audit";
import { notifyAccount, recordAccountEvent } from "./account-events";
import type { ClientDescription } from "./confirm-totp";
import { verifySecondFactor } from "./verify-second-factor";
import { syncTwoFactorEnabled } from "./two-factor-status";

/**
 * Turns the authenticator app off, with a valid code (TOTP or recovery, checked and limited as
 * any challenge). Its secret is deleted. Passkeys, if any, stay: they are a second factor of
 * their own, so two-factor stays on while one remains, and so do the recovery codes; without
 * one, two-factor is off and the recovery codes are deleted too.
 */
export async function disableTotp(
  db: DbOrTx,
  user: Pick<User, "id" | "email">,
  code: string,
  audit: AuditContext,
  client: ClientDescription,
): Promise<{ twoFactorEnabled: boolean }> {
  const [totp] = await db.select({ confirmedAt: userTotp.confirmedAt }).from(userTotp).where(eq(userTotp.userId, user.id));
  if (!totp?.confirmedAt) throw conflict("two_factor_not_enabled", "No authenticator app is set up");
  await verifySecondFactor(db, user, code, audit, client);
  return db.transaction(async (tx) => {
    await tx.delete(userTotp).where(eq(userTotp.userId, user.id));
    const change = await syncTwoFactorEnabled(tx, user.id);
    if (change === "off") await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    await recordAccountEvent(tx, audit, user.id, "two_factor.disabled", { email: user.email, method: "totp" });
    if (change === "off")
      await notifyAccount(tx, { kind: "two-factor-off", email: user.email, ...client }, `two-factor-off:${user.id}:${Date.now()}`);
    return { twoFactorEnabled: change !== "off" };
  });
}
