import { verifyRegistrationResponse, type RegistrationResponseJSON } from "@simplewebauthn/server";
import type { DbOrTx } from "@/db";
import { passkeys, recoveryCodes, type Passkey, type User } from "@/db/schema";
import { isUniqueViolation } from "@/db/errors";
import { conflict, fieldError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { AuditContext } from "@/lib/services/audit/record-audit";
import { notifyAccount, recordAccountEvent } from "@/lib/services/two-factor/account-events";
import type { ClientDescription } from "@/lib/services/two-factor/confirm-totp";
import { replaceRecoveryCodes } from "@/lib/services/two-factor/recovery-codes";
import { syncTwoFactorEnabled } from "@/lib/services/two-factor/two-factor-status";
import { eq } from "drizzle-orm";
import { relyingParty, takeChallenge } from "./webauthn";

/**
 * Verifies the browser's answer to startPasskeyRegistration and keeps the new passkey. When it
 * is the account's first second factor, two-factor turns on and ten recovery codes are issued
 * (answered this once), as when an authenticator app is set up. Recorded as `passkey.added`.
 */
export async function registerPasskey(
  db: DbOrTx,
  user: Pick<User, "id" | "email">,
  input: { challengeId: string; name?: string; response: RegistrationResponseJSON },
  audit: AuditContext,
  client: ClientDescription,
): Promise<{ passkey: Passkey; recoveryCodes: string[] | null }> {
  const challenge = await takeChallenge(db, input.challengeId, "registration", user.id);
  if (!challenge) throw fieldError("challengeId", "This passkey request expired: start again", "expired");
  const { rpID, origin } = relyingParty();
  const verification = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) throw fieldError("response", "The passkey could not be verified: try again", "invalid_passkey");
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  try {
    return await db.transaction(async (tx) => {
      const [passkey] = await tx
        .insert(passkeys)
        .values({
          id: newId("pk"),
          userId: user.id,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString("base64url"),
          counter: credential.counter,
          transports: credential.transports ?? [],
          deviceType: credentialDeviceType,
          backedUp: credentialBackedUp,
          name: input.name?.trim() || defaultName(credentialDeviceType, client.device),
        })
        .returning();
      const change = await syncTwoFactorEnabled(tx, user.id);
      const [anyCode] = await tx.select({ id: recoveryCodes.id }).from(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).limit(1);
      const codes = change === "on" || !anyCode ? await replaceRecoveryCodes(tx, user.id) : null;
      await recordAccountEvent(tx, audit, user.id, "passkey.added", { email: user.email, name: passkey.name });
      if (change === "on") {
        await recordAccountEvent(tx, audit, user.id, "two_factor.enabled", { email: user.email, method: "passkey" });
        await notifyAccount(tx, { kind: "two-factor-on", email: user.email, ...client }, `two-factor-on:${user.id}:${passkey.id}`);
      }
      return { passkey, recoveryCodes: codes };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("conflict", "This passkey is already registered");
    throw err;
  }
}

function defaultName(deviceType: string, device: string): string {
  return deviceType === "multiDevice" ? `Synced passkey (${device})` : `Passkey (${device})`;
}
