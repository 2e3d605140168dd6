import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, isEncryptedSecret, SecretDecryptionError } from "@/lib/crypto/secrets";
import { getEnv } from "@/lib/env";
import { openWebhookSecret, sealWebhookSecret } from "@/lib/webhooks-out/endpoint-secret";

describe("lib/crypto/secrets (AES-256-GCM at rest)", () => {
  it("writes enc:v1:<iv>:<tag>:<ciphertext> in base64url, with a fresh 12-byte IV each time, and reads it back", () => {
    const a = encryptSecret("whsec_hello");
    const b = encryptSecret("whsec_hello");
    expect(a).toMatch(/^enc:v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(Buffer.from(a.split(":")[2], "base64url")).toHaveLength(12);
    expect(a).not.toContain("hello");
    expect(isEncryptedSecret(a)).toBe(true);
    expect(isEncryptedSecret("whsec_hello")).toBe(false);
    expect(decryptSecret(a)).toBe("whsec_hello");
    expect(decryptSecret(b)).toBe("whsec_hello");
    expect(decryptSecret(encryptSecret(""))).toBe("");
    expect(decryptSecret(encryptSecret("Zoë 🎉"))).toBe("Zoë 🎉");
  });

  it("uses SECRETS_ENCRYPTION_KEY by default; another key fails with SecretDecryptionError, never garbage", () => {
    const stored = encryptSecret("whsec_x");
    expect(decryptSecret(stored, { key: getEnv().secretsKey })).toBe("whsec_x");
    expect(() => decryptSecret(stored, { key: randomBytes(32) })).toThrow(SecretDecryptionError);
    expect(() => decryptSecret(stored, { key: randomBytes(32) })).toThrow(/SECRETS_ENCRYPTION_KEY/);
  });

  it("binds a value to its AAD: it does not decrypt under another one, or without it", () => {
    const stored = encryptSecret("whsec_x", { aad: "row-1" });
    expect(decryptSecret(stored, { aad: "row-1" })).toBe("whsec_x");
    expect(() => decryptSecret(stored, { aad: "row-2" })).toThrow(SecretDecryptionError);
    expect(() => decryptSecret(stored)).toThrow(SecretDecryptionError);
  });

  it("refuses altered or malformed values", () => {
    const stored = encryptSecret("whsec_abcdef");
    const [p, v, iv, tag, ct] = stored.split(":");
    const flip = (s: string) => {
      const buf = Buffer.from(s, "base64url");
      buf[0] ^= 1;
      return buf.toString("base64url");
    };
    for (const bad of [
      [p, v, iv, tag, flip(ct)].join(":"),
      [p, v, iv, flip(tag), ct].join(":"),
      [p, v, flip(iv), tag, ct].join(":"),
      [p, "v2", iv, tag, ct].join(":"),
      [p, v, iv, tag].join(":"),
      [p, v, iv, tag, `${ct}!`].join(":"),
      [p, v, iv.slice(2), tag, ct].join(":"),
      "whsec_plain",
      "",
    ]) {
      expect(() => decryptSecret(bad), bad).toThrow(SecretDecryptionError);
    }
  });

  it("webhook secrets are sealed to their endpoint: another endpoint's row does not open them", () => {
    const stored = sealWebhookSecret("we_a", "whsec_abc");
    expect(openWebhookSecret({ id: "we_a", encryptedSecret: stored })).toBe("whsec_abc");
    expect(() => openWebhookSecret({ id: "we_b", encryptedSecret: stored })).toThrow(SecretDecryptionError);
    // A row from before encryption reads as it is until start-up encrypts it.
    expect(openWebhookSecret({ id: "we_a", encryptedSecret: "whsec_legacy" })).toBe("whsec_legacy");
    expect(() => openWebhookSecret({ id: "we_a", encryptedSecret: "garbage" })).toThrow(SecretDecryptionError);
  });
});
