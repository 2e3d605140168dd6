import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { organizations, type User } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { Authenticated } from "./session";
import type { SessionState } from "./sessions";

/** How recent a second factor a sensitive action needs (contract section 16). */
export const RECENT_TWO_FACTOR_SECONDS = 15 * 60;

/** 403 `two_factor_required`: the organization requires a second factor this session has not passed. */
export function twoFactorRequired(userHasTwoFactor: boolean): AppError {
  return new AppError(
    "two_factor_required",
    userHasTwoFactor
      ? "This organization requires two-factor authentication: pass your second factor first (POST /api/me/two-factor/challenge)"
      : "This organization requires two-factor authentication: turn it on for your account first",
  );
}

/** 403 `recent_two_factor_required`: a sensitive action, and the session's second factor is older than 15 minutes (or absent). */
export function recentTwoFactorRequired(): AppError {
  return new AppError(
    "recent_two_factor_required",
    "This action needs your second factor within the last 15 minutes: confirm it (POST /api/me/two-factor/challenge), then try again",
  );
}

/** Whether the session passed a second factor within RECENT_TWO_FACTOR_SECONDS. */
export function hasRecentTwoFactor(session: Pick<SessionState, "twoFactorAt">, now = Date.now()): boolean {
  return session.twoFactorAt !== null && now / 1000 - session.twoFactorAt <= RECENT_TWO_FACTOR_SECONDS;
}

/**
 * A sensitive action by a person with two-factor on needs a recent second factor; someone
 * without two-factor has nothing to confirm (unless an organization requires it, which
 * assertSecondFactor checks first).
 */
export function assertRecentTwoFactor(user: Pick<User, "twoFactorEnabledAt">, session: Pick<SessionState, "twoFactorAt">): void {
  if (user.twoFactorEnabledAt !== null && !hasRecentTwoFactor(session)) throw recentTwoFactorRequired();
}

type LoadedScope = { orgId: string; org?: { requireTwoFactor?: boolean } };

/**
 * The route wrapper's second-factor step, after authorization (lib/api/route.ts): for a person
 * (a session token; API keys are unaffected),
 *
 * - on an organization's endpoints, when the organization requires two-factor, the session must
 *   have passed a second factor (`twoFactorAt`), else 403 `two_factor_required`;
 * - on a route declared `sensitive`, a person with two-factor on must have passed it within the
 *   last 15 minutes, else 403 `recent_two_factor_required`.
 *
 * The organization's flag comes from the scope when it loaded the organization, else from one
 * primary-key lookup.
 */
export async function assertSecondFactor(
  db: DbOrTx,
  auth: Authenticated | null,
  rule: { scope: LoadedScope | null; sensitive: boolean },
): Promise<void> {
  if (!auth?.user) return;
  if (rule.scope) {
    const required = rule.scope.org?.requireTwoFactor ?? (await organizationRequiresTwoFactor(db, rule.scope.orgId));
    if (required && auth.session.twoFactorAt === null) throw twoFactorRequired(auth.user.twoFactorEnabledAt !== null);
  }
  if (rule.sensitive) assertRecentTwoFactor(auth.user, auth.session);
}

async function organizationRequiresTwoFactor(db: DbOrTx, orgId: string): Promise<boolean> {
  const [org] = await db
    .select({ required: organizations.requireTwoFactor })
    .from(organizations)
    .where(eq(organizations.id, orgId))
    .limit(1);
  return org?.required ?? false;
}
