import { createHash, randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 43 base62 characters carry 256 bits. */
const SECRET_LENGTH = 43;
/** Characters of the secret part a list shows after `gf_live_`/`gf_test_`, to tell keys apart. */
const SHOWN_LENGTH = 6;

/** What every API key starts with, so a Bearer value is told from a session JWT at a glance. */
export const API_KEY_PREFIX = "gf_";
/** The shape of an API key: `gf_live_` or `gf_test_`, then the base62 secret. */
export const API_KEY_PATTERN = /^gf_(live|test)_[0-9A-Za-z]{43}$/;

export type KeyMode = "live" | "test";

/** Unbiased base62: bytes of 248 and above are dropped (248 = 4 × 62), so every character is equally likely. */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += ALPHABET[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** SHA-256 hex of the whole key: what is stored and looked up (a 256-bit random secret needs no slow hash). */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A new key: the secret to show once, the prefix lists show, and the hash to store. */
export function newApiKey(mode: KeyMode): { key: string; prefix: string; keyHash: string } {
  const head = `${API_KEY_PREFIX}${mode}_`;
  const key = head + randomBase62(SECRET_LENGTH);
  return { key, prefix: key.slice(0, head.length + SHOWN_LENGTH), keyHash: hashApiKey(key) };
}
