import { createHash, randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";

/**
 * TOTP as RFC 6238 and every authenticator app know it: SHA-1, 6 digits, 30-second steps
 * (the `otpauth` library). A code of the step before or after the current one is accepted too,
 * for clocks that drift; the caller refuses any step at or before the last one used.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
const DRIFT_STEPS = 1;
const ISSUER = "Goodfund";

function totpOf(secretBase32: string, label = ""): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret, base32 (what apps take when typed in). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` URI the QR code carries. */
export function otpauthUrl(secretBase32: string, accountName: string): string {
  return totpOf(secretBase32, accountName).toString();
}

/** The time step a code belongs to if it is valid now (within the drift), else null. */
export function matchingStep(secretBase32: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now, window: DRIFT_STEPS });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** A code as people type it: spaces and dashes dropped, letters lower-cased. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, "").toLowerCase();
}

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
export const RECOVERY_CODE_COUNT = 10;

/** Ten recovery codes, `xxxxx-xxxxx` (10 characters of a 31-letter alphabet: about 50 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let s = "";
    for (let i = 0; i < 10; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
}

/** Whether a normalized code has the shape of a recovery code. */
export function looksLikeRecoveryCode(normalized: string): boolean {
  return normalized.length === 10 && [...normalized].every((c) => RECOVERY_ALPHABET.includes(c));
}

/** SHA-256 of the normalized code: what is stored (the codes are random enough for a plain hash). */
export function hashRecoveryCode(code: string): string {
  return createHash("sha256")
    .update(`goodfund.recovery-code.v1:${normalizeCode(code)}`)
    .digest("hex");
}
