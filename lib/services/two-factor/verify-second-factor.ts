import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { recoveryCodes, twoFactorFailures, users, userTotp, type User } from "@/db/schema";
import { decryptSecret } from "@/lib/crypto/secrets";
import { AppError, conflict, fieldError } from "@/lib/errors";
import type { AuditContext } from "@/lib/services/audit/record-audit";
import { notifyAccount, recordAccountEvent } from "./account-events";
import type { ClientDescription } from "./confirm-totp";
import { totpSecretAad } from "./start-totp-enrolment";
import { hashRecoveryCode, looksLikeRecoveryCode, matchingStep, normalizeCode } from "./totp-code";

/** Wrong codes allowed per user in the window (contract section 16: 5 per 15 minutes). */
export const WRONG_CODES_LIMIT = 5;
export const WRONG_CODES_WINDOW_SECONDS = 15 * 60;

export type SecondFactorMethod = "totp" | "recovery_code";

type Outcome =
  | { kind: "ok"; method: SecondFactorMethod }
  | { kind: "wrong"; attemptsLeft: number }
  | { kind: "limited"; retryAfterSeconds: number }
  | { kind: "not_enabled" };

/**
 * Checks a second-factor code: a TOTP code of the user's authenticator app, or one of their
 * unused recovery codes (which is then used up). Per user, one check at a time (the user row is
 * locked), so the limit and single use hold under concurrent attempts on any instance:
 *
 * - A TOTP code is accepted only for a time step after the last one accepted: never twice.
 * - After WRONG_CODES_LIMIT wrong codes within WRONG_CODES_WINDOW_SECONDS, every code, right or
 *   wrong, answers 429 `too_many_two_factor_attempts` (with Retry-After) until the oldest leaves
 *   the window. Counted in Postgres, so the limit holds whatever rate-limit store is configured.
 * - A wrong code is recorded (`two_factor.challenge_failed` in the user's organizations' audit
 *   logs) and the user is emailed, at most once per window.
 *
 * Throws 400 on `code` for a wrong code, 409 `two_factor_not_enabled` without a factor to check.
 */
export async function verifySecondFactor(
  db: DbOrTx,
  user: Pick<User, "id" | "email">,
  code: string,
  audit: AuditContext,
  client: ClientDescription,
  now = Date.now(),
): Promise<{ method: SecondFactorMethod }> {
  const normalized = normalizeCode(code);
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
    const window = sql`now() - ${`${WRONG_CODES_WINDOW_SECONDS} seconds`}::interval`;
    const [failed] = await tx
      .select({
        n: sql<number>`count(*)::int`,
        retryAfter: sql<number>`ceil(extract(epoch from (min(${twoFactorFailures.createdAt}) - ${window})))::int`,
      })
      .from(twoFactorFailures)
      .where(and(eq(twoFactorFailures.userId, user.id), gt(twoFactorFailures.createdAt, window)));
    const failures = Number(failed?.n ?? 0);
    if (failures >= WRONG_CODES_LIMIT) return { kind: "limited", retryAfterSeconds: Math.max(1, Number(failed?.retryAfter ?? 1)) };

    const [totp] = await tx
      .select()
      .from(userTotp)
      .where(and(eq(userTotp.userId, user.id), isNotNull(userTotp.confirmedAt)));
    const [anyCode] = await tx.select({ id: recoveryCodes.id }).from(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).limit(1);
    if (!totp && !anyCode) return { kind: "not_enabled" };

    if (totp && /^\d{6}$/.test(normalized)) {
      const step = matchingStep(decryptSecret(totp.secretEncrypted, { aad: totpSecretAad(user.id) }), normalized, now);
      if (step !== null && (totp.lastUsedStep === null || step > totp.lastUsedStep)) {
        await tx.update(userTotp).set({ lastUsedStep: step }).where(eq(userTotp.userId, user.id));
        return { kind: "ok", method: "totp" };
      }
    } else if (looksLikeRecoveryCode(normalized)) {
      const used = await tx
        .update(recoveryCodes)
        .set({ usedAt: sql`now()` })
        .where(
          and(eq(recoveryCodes.userId, user.id), eq(recoveryCodes.codeHash, hashRecoveryCode(normalized)), isNull(recoveryCodes.usedAt)),
        )
        .returning({ id: recoveryCodes.id });
      if (used.length > 0) return { kind: "ok", method: "recovery_code" };
    }

    await tx.insert(twoFactorFailures).values({ userId: user.id });
    await recordAccountEvent(tx, audit, user.id, "two_factor.challenge_failed", { email: user.email, ...client });
    const bucket = Math.floor(now / 1000 / WRONG_CODES_WINDOW_SECONDS);
    await notifyAccount(tx, { kind: "wrong-code", email: user.email, ...client }, `two-factor-wrong-code:${user.id}:${bucket}`);
    return { kind: "wrong", attemptsLeft: WRONG_CODES_LIMIT - failures - 1 };
  });

  switch (outcome.kind) {
    case "ok":
      return { method: outcome.method };
    case "not_enabled":
      throw conflict("two_factor_not_enabled", "Two-factor authentication is not on for this account");
    case "limited":
      throw new AppError("too_many_two_factor_attempts", "Too many wrong codes: try again later", undefined, {
        "Retry-After": String(outcome.retryAfterSeconds),
      });
    case "wrong":
      throw fieldError("code", "That code is not valid or was already used", "invalid_code", { attemptsLeft: outcome.attemptsLeft });
  }
}
