import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Opaque, URL-safe, prefixed IDs (`cmp_4f…`): the prefix tells a reader what an ID names. */
export function newId(prefix: string, length = 20): string {
  const bytes = randomBytes(length);
  let out = "";
  // 62 does not divide 256, but the bias (256 mod 62 = 8 of 256) is harmless for opaque IDs.
  for (const b of bytes) out += ALPHABET[b % 62];
  return `${prefix}_${out}`;
}
