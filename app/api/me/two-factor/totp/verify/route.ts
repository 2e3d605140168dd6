import { callerSession, clientOf, secondFactorPassed } from "@/lib/api/account-security";
import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { recoveryCodesSchema, totpCodeBody } from "@/lib/schemas/account-security";
import { confirmTotp } from "@/lib/services/two-factor/confirm-totp";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/me/two-factor/totp/verify: turn the authenticator app on with its first code; answers the recovery codes (a person)
  POST: withRoute(
    {
      person: true,
      body: totpCodeBody,
      doc: {
        operationId: "verifyTotpEnrolment",
        summary: "Turn the authenticator app on",
        description:
          "Send a code the app makes from the secret of `POST /api/me/two-factor/totp`. Two-factor authentication is then on, and the " +
          "answer holds ten single-use recovery codes, shown this once (earlier ones stop working). The dashboard's own session counts " +
          "as having passed the second factor; an API client gets a token with `POST /api/me/two-factor/challenge`.",
        tag: "Account security",
        success: 200,
        response: recoveryCodesSchema,
        responseDescription: "Two-factor is on",
        conflicts: ["Start setting up an authenticator app first (POST /api/me/two-factor/totp)", "An authenticator app is already set up"],
      },
    },
    async (ctx) => {
      const { recoveryCodes } = await confirmTotp(ctx.db, ctx.user, ctx.body.code, auditContextOf(ctx), clientOf(ctx));
      // The dashboard's session just proved the app: its cookie carries the second factor from now on.
      if ((await callerSession(ctx.req)).via === "cookie") return secondFactorPassed(ctx, ctx.user, () => ({ recoveryCodes }));
      return ok({ recoveryCodes });
    },
  ),
});
