import { randomBytes } from "node:crypto";
import type { WebhookEndpoint } from "@/db/schema";
import { decryptSecret, encryptSecret, isEncryptedSecret, SecretDecryptionError } from "@/lib/crypto/secrets";

/**
 * An endpoint's signing secret as stored in `webhook_endpoints.secret`: encrypted (lib/crypto)
 * and bound to the endpoint's ID, so the value means nothing in a dump or in another row.
 */
const aadFor = (endpointId: string) => `webhook_endpoints.secret:${endpointId}`;

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The stored form of `secret` for endpoint `endpointId`. */
export function sealWebhookSecret(endpointId: string, secret: string): string {
  return encryptSecret(secret, { aad: aadFor(endpointId) });
}

/** Rows written before secrets were encrypted hold the `whsec_…` value itself until start-up encrypts them. */
export function isPlaintextWebhookSecret(stored: string): boolean {
  return !isEncryptedSecret(stored) && stored.startsWith("whsec_");
}

/**
 * The endpoint's signing secret in clear, to sign a delivery. A row not yet encrypted (written
 * before encryption, or by an older instance during a rolling deploy) is read as it is; anything
 * else that does not decrypt throws SecretDecryptionError: nothing is ever signed with garbage.
 */
export function openWebhookSecret(endpoint: Pick<WebhookEndpoint, "id" | "encryptedSecret">): string {
  if (isPlaintextWebhookSecret(endpoint.encryptedSecret)) return endpoint.encryptedSecret;
  const secret = decryptSecret(endpoint.encryptedSecret, { aad: aadFor(endpoint.id) });
  if (!secret.startsWith("whsec_")) throw new SecretDecryptionError();
  return secret;
}
