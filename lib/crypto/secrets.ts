import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getEnv } from "@/lib/env";

/**
 * Secrets the server must read back (outbound-webhook signing secrets), encrypted at rest with
 * AES-256-GCM under SECRETS_ENCRYPTION_KEY. Stored form:
 *
 *   enc:v1:<iv>:<tag>:<ciphertext>      (each base64url; a random 12-byte IV per value)
 *
 * The version lets a later format or key scheme sit beside this one. `aad` binds a value to
 * where it is stored (e.g. the row's ID), so a ciphertext copied into another row does not
 * decrypt there. GCM authenticates: a wrong key or an altered value fails to decrypt, never
 * answers garbage.
 */
const PREFIX = "enc:v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const B64URL = /^[A-Za-z0-9_-]*$/;

export type SecretOptions = {
  /** Additional authenticated data: the same value must be given to decrypt. */
  aad?: string;
  /** The key (32 bytes); SECRETS_ENCRYPTION_KEY by default. */
  key?: Buffer;
};

/** A stored value could not be decrypted: another key, another row, or altered. The message names the likely cause. */
export class SecretDecryptionError extends Error {
  constructor(
    message = "A stored secret could not be decrypted: SECRETS_ENCRYPTION_KEY is not the key it was encrypted with, or the value was altered",
  ) {
    super(message);
    this.name = "SecretDecryptionError";
  }
}

/** Whether `value` is in the encrypted format (it may still fail to decrypt). */
export function isEncryptedSecret(value: string): boolean {
  return value.startsWith(PREFIX);
}

/** Encrypts `plaintext` into the stored form, with a fresh random IV. */
export function encryptSecret(plaintext: string, options: SecretOptions = {}): string {
  const key = options.key ?? getEnv().secretsKey;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  if (options.aad !== undefined) cipher.setAAD(Buffer.from(options.aad, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return `${PREFIX}${iv.toString("base64url")}:${tag.toString("base64url")}:${ciphertext.toString("base64url")}`;
}

/** Decrypts a value made by encryptSecret with the same key and `aad`; throws SecretDecryptionError otherwise. */
export function decryptSecret(stored: string, options: SecretOptions = {}): string {
  if (!isEncryptedSecret(stored)) throw new SecretDecryptionError("A stored secret is not in the encrypted format");
  const parts = stored.slice(PREFIX.length).split(":");
  if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) throw new SecretDecryptionError("A stored secret is malformed");
  const [iv, tag, ciphertext] = parts.map((p) => Buffer.from(p, "base64url"));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretDecryptionError("A stored secret is malformed");
  const key = options.key ?? getEnv().secretsKey;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    if (options.aad !== undefined) decipher.setAAD(Buffer.from(options.aad, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretDecryptionError();
  }
}
