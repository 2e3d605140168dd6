import { generateRegistrationOptions, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import type { DbOrTx } from "@/db";
import { listPasskeys } from "@/db/queries/passkeys";
import type { User } from "@/db/schema";
import { relyingParty, saveChallenge } from "./webauthn";

/**
 * Options for the browser to make a new passkey (`navigator.credentials.create`): a discoverable
 * credential (so it can sign in without typing an address), user verification preferred, none
 * of the user's existing passkeys again. Answers them with the ceremony's ID to send back.
 */
export async function startPasskeyRegistration(
  db: DbOrTx,
  user: Pick<User, "id" | "email" | "name">,
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const { rpID, rpName } = relyingParty();
  const existing = await listPasskeys(db, user.id);
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  const challengeId = await saveChallenge(db, "registration", options.challenge, user.id);
  return { challengeId, options };
}
