import type { DbOrTx } from "@/db";
import type { User } from "@/db/schema";
import { conflict } from "@/lib/errors";
import type { AuditContext } from "@/lib/services/audit/record-audit";
import { recordAccountEvent } from "./account-events";
import { replaceRecoveryCodes } from "./recovery-codes";

/** Ten new recovery codes for a user with two-factor on (the old ones stop working); answered this once. */
export async function regenerateRecoveryCodes(
  db: DbOrTx,
  user: Pick<User, "id" | "email" | "twoFactorEnabledAt">,
  audit: AuditContext,
): Promise<{ recoveryCodes: string[] }> {
  if (!user.twoFactorEnabledAt) throw conflict("two_factor_not_enabled", "Two-factor authentication is not on for this account");
  return db.transaction(async (tx) => {
    const recoveryCodes = await replaceRecoveryCodes(tx, user.id);
    await recordAccountEvent(tx, audit, user.id, "two_factor.recovery_codes_regenerated", { email: user.email });
    return { recoveryCodes };
  });
}
