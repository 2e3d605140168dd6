import type { NextRequest } from "next/server";
import type { Db } from "@/db";
import type { Role, User } from "@/db/schema";
import { assertRecentTwoFactor } from "@/lib/auth/two-factor";
import { conflict } from "@/lib/errors";
import { sessionOfRequest } from "@/lib/auth/session";
import { sessionCookie } from "@/lib/auth/session-cookie";
import { type SessionState } from "@/lib/auth/sessions";
import { describeDevice, describeNetwork } from "@/lib/services/sessions/describe-session";
import { passSecondFactor } from "@/lib/services/sessions/pass-second-factor";
import type { ClientDescription } from "@/lib/services/two-factor/confirm-totp";
import { forbidden } from "./errors";
import { json } from "./respond";

/** The caller's device and network as account emails and audit entries describe them. */
export function clientOf(ctx: { req: NextRequest; clientIp: string }): ClientDescription {
  return { device: describeDevice(ctx.req.headers.get("user-agent")), network: describeNetwork(ctx.clientIp) };
}

/** The calling session's claims (sid, twoFactorAt); none for a request the wrapper let through without a session token. */
export async function callerSession(req: NextRequest): Promise<{ via: "bearer" | "cookie" | null; state: SessionState }> {
  const found = await sessionOfRequest(req);
  return found ?? { via: null, state: { sid: null, twoFactorAt: null } };
}

/**
 * The answer to a passed second factor: `{ token, expiresAt }`, a session JWT with `twoFactorAt`
 * for the caller's session. When the dashboard's cookie authenticated the request, the cookie
 * is replaced by that token too, so the dashboard's session carries the second factor at once.
 * `body` adds to or replaces the answer's fields (enrolment answers the recovery codes).
 */
export async function secondFactorPassed(
  ctx: { db: Db; req: NextRequest; clientIp: string },
  user: User,
  body?: (passed: { token: string; expiresAt: string }) => Record<string, unknown>,
  status = 200,
): Promise<Response> {
  const caller = await callerSession(ctx.req);
  const passed = await passSecondFactor(ctx.db, user, {
    sid: caller.state.sid,
    userAgent: ctx.req.headers.get("user-agent"),
    clientIp: ctx.clientIp,
  });
  const answer = { token: passed.token, expiresAt: passed.expiresAt.toISOString() };
  const headers: Record<string, string> = caller.via === "cookie" ? { "Set-Cookie": sessionCookie(passed.token, passed.expiresAt) } : {};
  return json(body ? body(answer) : answer, { status, headers });
}

/**
 * Who may change an organization's `requireTwoFactor`: its OWNER in person (not an admin, not an
 * API key), with two-factor on for their own account before turning it on (otherwise they would
 * lock themselves out of the change they just made), and passed within the last 15 minutes.
 */
export async function assertMaySetTwoFactorRequirement(
  ctx: { req: NextRequest; user: User | null; role: Role | null },
  turningOn: boolean,
): Promise<void> {
  if (!ctx.user || ctx.role !== "OWNER") throw forbidden();
  if (turningOn && !ctx.user.twoFactorEnabledAt) {
    throw conflict("two_factor_not_enabled", "Turn on two-factor authentication for your own account first");
  }
  assertRecentTwoFactor(ctx.user, (await callerSession(ctx.req)).state);
}
