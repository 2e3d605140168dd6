import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { userTotp, type User } from "@/db/schema";
import { decryptSecret } from "@/lib/crypto/secrets";
import { conflict, fieldError } from "@/lib/errors";
import type { AuditContext } from "@/lib/services/audit/record-audit";
import { notifyAccount, recordAccountEvent } from "./account-events";
import { replaceRecoveryCodes } from "./recovery-codes";
import { totpSecretAad } from "./start-totp-enrolment";
import { matchingStep, normalizeCode } from "./totp-code";
import { syncTwoFactorEnabled } from "./two-factor-status";

export type ClientDescription = { device: string; network: string };

/**
 * Turns the authenticator app on: the code must come from the secret startTotpEnrolment gave
 * (this step or a neighbour). Issues ten new recovery codes (answered once; earlier ones stop
 * working), records `two_factor.enabled` in the user's organizations' audit logs and, when this
 * is the account's first factor, emails the user. The code's step counts as used.
 */
export async function confirmTotp(
  db: DbOrTx,
  user: Pick<User, "id" | "email">,
  code: string,
  audit: AuditContext,
  client: ClientDescription,
  now = Date.now(),
): Promise<{ recoveryCodes: string[] }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(userTotp).where(eq(userTotp.userId, user.id)).for("update");
    if (!row) throw conflict("two_factor_not_enabled", "Start setting up an authenticator app first (POST /api/me/two-factor/totp)");
    if (row.confirmedAt) throw conflict("two_factor_already_enabled", "An authenticator app is already set up");
    const step = matchingStep(decryptSecret(row.secretEncrypted, { aad: totpSecretAad(user.id) }), normalizeCode(code), now);
    if (step === null) throw fieldError("code", "That code is not valid: enter the 6-digit code your app shows now", "invalid_code");
    await tx
      .update(userTotp)
      .set({ confirmedAt: sql`now()`, lastUsedStep: step })
      .where(eq(userTotp.userId, user.id));
    const recoveryCodes = await replaceRecoveryCodes(tx, user.id);
    const change = await syncTwoFactorEnabled(tx, user.id);
    await recordAccountEvent(tx, audit, user.id, "two_factor.enabled", { email: user.email, method: "totp" });
    if (change === "on")
      await notifyAccount(tx, { kind: "two-factor-on", email: user.email, ...client }, `two-factor-on:${user.id}:${now}`);
    return { recoveryCodes };
  });
}
