import { eq, sql } from "drizzle-orm";
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import type { DbOrTx } from "@/db";
import { findPasskeyByCredential, listPasskeys } from "@/db/queries/passkeys";
import { passkeys } from "@/db/schema";
import { conflict } from "@/lib/errors";
import { relyingParty, saveChallenge, takeChallenge } from "./webauthn";

/**
 * Options for the browser to use a passkey (`navigator.credentials.get`). As a second factor
 * (`userId` given): one of that user's passkeys, user verification preferred. As a sign-in
 * (`userId` null): any discoverable passkey of this site, user verification required, since
 * the passkey then stands for both factors.
 */
export async function startPasskeyAuthentication(
  db: DbOrTx,
  userId: string | null,
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const { rpID } = relyingParty();
  let allowCredentials: { id: string; transports?: string[] }[] | undefined;
  if (userId) {
    const keys = await listPasskeys(db, userId);
    if (keys.length === 0) throw conflict("two_factor_not_enabled", "This account has no passkey");
    allowCredentials = keys.map((p) => ({ id: p.credentialId, transports: p.transports }));
  }
  const options = await generateAuthenticationOptions({ rpID, allowCredentials, userVerification: userId ? "preferred" : "required" });
  const challengeId = await saveChallenge(db, userId ? "second-factor" : "sign-in", options.challenge, userId);
  return { challengeId, options };
}

/**
 * Verifies the browser's answer to startPasskeyAuthentication: the challenge (used up), the
 * signature by a registered passkey (of `userId` when given), the origin and, for a sign-in,
 * user verification. Records the new signature counter and when the passkey was used. Answers
 * the passkey's user, or null when anything does not hold.
 */
export async function verifyPasskeyAuthentication(
  db: DbOrTx,
  input: { challengeId: string; response: AuthenticationResponseJSON },
  userId: string | null,
): Promise<{ userId: string; passkeyId: string } | null> {
  const challenge = await takeChallenge(db, input.challengeId, userId ? "second-factor" : "sign-in", userId);
  if (!challenge || typeof input.response?.id !== "string") return null;
  const passkey = await findPasskeyByCredential(db, input.response.id);
  if (!passkey || (userId !== null && passkey.userId !== userId)) return null;
  const { rpID, origin } = relyingParty();
  const result = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      id: passkey.credentialId,
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
      counter: passkey.counter,
      transports: passkey.transports as never,
    },
    requireUserVerification: userId === null,
  }).catch(() => null);
  if (!result?.verified) return null;
  await db
    .update(passkeys)
    .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: sql`now()` })
    .where(eq(passkeys.id, passkey.id));
  return { userId: passkey.userId, passkeyId: passkey.id };
}
