import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

// Random bytes drawn 4 KiB at a time: one call into the CSPRNG for about two hundred IDs instead
// of one per ID (a donation's create and its settlement each make several). Each byte is used once.
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/** Opaque, URL-safe, prefixed IDs (`cmp_4f…`): the prefix tells a reader what an ID names. */
export function newId(prefix: string, length = 20): string {
  if (length > POOL_SIZE) throw new RangeError(`newId: length ${length} is over ${POOL_SIZE}`);
  if (offset + length > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  let out = `${prefix}_`;
  // 62 does not divide 256, but the bias (256 mod 62 = 8 of 256) is harmless for opaque IDs.
  for (let i = offset; i < offset + length; i++) out += ALPHABET[pool[i] % 62];
  offset += length;
  return out;
}
