import { callerSession, clientOf } from "@/lib/api/account-security";
import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { codeBody, twoFactorStatusSchema } from "@/lib/schemas/account-security";
import { disableTotp } from "@/lib/services/two-factor/disable-totp";
import { getTwoFactorStatus } from "@/lib/services/two-factor/two-factor-status";
import type { NextRequest } from "next/server";
import type { Db } from "@/db";

async function statusOf(db: Db, req: NextRequest, userId: string) {
  const [status, caller] = await Promise.all([getTwoFactorStatus(db, userId), callerSession(req)]);
  const at = caller.state.twoFactorAt;
  return { ...status, sessionTwoFactorAt: at ? new Date(at * 1000).toISOString() : null };
}

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/me/two-factor: the caller's second factors, and whether this session passed one (a person)
  GET: withRoute(
    {
      person: true,
      doc: {
        operationId: "getTwoFactorStatus",
        summary: "Get your two-factor status",
        tag: "Account security",
        success: 200,
        response: twoFactorStatusSchema,
        responseDescription: "Your second factors",
      },
    },
    async ({ db, req, user }) => ok(await statusOf(db, req, user.id)),
  ),
  // DELETE /api/me/two-factor: turn the authenticator app off, with a code (a person)
  DELETE: withRoute(
    {
      person: true,
      body: codeBody,
      doc: {
        operationId: "disableTwoFactor",
        summary: "Turn two-factor authentication off",
        description:
          "Needs a valid code (from the authenticator app, or a recovery code), checked and limited like a challenge. Removes the " +
          "authenticator app and, when no passkey remains, the recovery codes: two-factor is then off. Passkeys are removed one by one " +
          "(`DELETE /api/me/passkeys/{id}`); while one remains, two-factor stays on.",
        tag: "Account security",
        success: 200,
        response: twoFactorStatusSchema,
        responseDescription: "Your second factors now",
        conflicts: ["No authenticator app is set up"],
      },
    },
    async (ctx) => {
      await disableTotp(ctx.db, ctx.user, ctx.body.code, auditContextOf(ctx), clientOf(ctx));
      return ok(await statusOf(ctx.db, ctx.req, ctx.user.id));
    },
  ),
});
