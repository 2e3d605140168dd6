import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { passkeys, recoveryCodes, type Passkey, type User } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { AuditContext } from "@/lib/services/audit/record-audit";
import { notifyAccount, recordAccountEvent } from "@/lib/services/two-factor/account-events";
import type { ClientDescription } from "@/lib/services/two-factor/confirm-totp";
import { syncTwoFactorEnabled } from "@/lib/services/two-factor/two-factor-status";

/** Renames one of the user's passkeys. 404 for another user's. */
export async function renamePasskey(db: DbOrTx, userId: string, id: string, name: string): Promise<Passkey> {
  const [row] = await db
    .update(passkeys)
    .set({ name: name.trim() })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  if (!row) throw notFound("passkey_not_found", "Passkey not found");
  return row;
}

/**
 * Removes one of the user's passkeys (it can no longer sign in or confirm anything). When it
 * was the last second factor, two-factor turns off: the recovery codes go too and the user is
 * emailed. Recorded as `passkey.removed` (and `two_factor.disabled`).
 */
export async function removePasskey(
  db: DbOrTx,
  user: Pick<User, "id" | "email">,
  id: string,
  audit: AuditContext,
  client: ClientDescription,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)))
      .returning({ name: passkeys.name });
    if (!row) throw notFound("passkey_not_found", "Passkey not found");
    const change = await syncTwoFactorEnabled(tx, user.id);
    await recordAccountEvent(tx, audit, user.id, "passkey.removed", { email: user.email, name: row.name });
    if (change === "off") {
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      await recordAccountEvent(tx, audit, user.id, "two_factor.disabled", { email: user.email, method: "passkey" });
      await notifyAccount(tx, { kind: "two-factor-off", email: user.email, ...client }, `two-factor-off:${user.id}:${id}`);
    }
  });
}
