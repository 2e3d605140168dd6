import { and, eq, isNotNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { userTotp, type User } from "@/db/schema";
import { encryptSecret } from "@/lib/crypto/secrets";
import { conflict } from "@/lib/errors";
import { newTotpSecret, otpauthUrl } from "./totp-code";

/** The additional authenticated data that binds a stored TOTP secret to its user's row. */
export const totpSecretAad = (userId: string) => `user_totp:${userId}`;

/**
 * Starts (or restarts) setting up an authenticator app: a new secret, stored encrypted and
 * unconfirmed until a code made from it arrives (confirmTotp). Answers the secret and the
 * `otpauth://` URI the QR code carries; they are shown this once. 409 when an app is already on.
 */
export async function startTotpEnrolment(db: DbOrTx, user: Pick<User, "id" | "email">): Promise<{ secret: string; otpauthUrl: string }> {
  const secret = newTotpSecret();
  const secretEncrypted = encryptSecret(secret, { aad: totpSecretAad(user.id) });
  return db.transaction(async (tx) => {
    const [confirmed] = await tx
      .select({ userId: userTotp.userId })
      .from(userTotp)
      .where(and(eq(userTotp.userId, user.id), isNotNull(userTotp.confirmedAt)))
      .for("update");
    if (confirmed) throw conflict("two_factor_already_enabled", "An authenticator app is already set up; turn it off first to replace it");
    await tx
      .insert(userTotp)
      .values({ userId: user.id, secretEncrypted })
      .onConflictDoUpdate({ target: userTotp.userId, set: { secretEncrypted, confirmedAt: null, lastUsedStep: null } });
    return { secret, otpauthUrl: otpauthUrl(secret, user.email) };
  });
}
