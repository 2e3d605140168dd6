import { clientOf, secondFactorPassed } from "@/lib/api/account-security";
import { auditContextOf } from "@/lib/api/audit";
import { methods, withRoute } from "@/lib/api/route";
import { challengeTokenSchema, codeBody } from "@/lib/schemas/account-security";
import { verifySecondFactor } from "@/lib/services/two-factor/verify-second-factor";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/me/two-factor/challenge: pass the second factor with a code; answers a session JWT with twoFactorAt (a person)
  POST: withRoute(
    {
      person: true,
      body: codeBody,
      doc: {
        operationId: "passTwoFactorChallenge",
        summary: "Pass the second factor",
        description:
          "With a code from the authenticator app (each accepted once) or an unused recovery code (then used up), answers a new session " +
          "JWT carrying `twoFactorAt` (now) for the calling session (its `sid`; a token without one gets a new listed session). Use it " +
          "as the Bearer token from then on. Wrong codes are limited to 5 per 15 minutes per user (then 429 with `code: " +
          '"too_many_two_factor_attempts"` and `Retry-After`), recorded in the audit log of your organizations, and emailed to you. ' +
          "Called with the dashboard's cookie, it also replaces the cookie.",
        tag: "Account security",
        success: 200,
        response: challengeTokenSchema,
        responseDescription: "A session token that has passed the second factor",
        conflicts: ["Two-factor authentication is not on for this account"],
      },
    },
    async (ctx) => {
      await verifySecondFactor(ctx.db, ctx.user, ctx.body.code, auditContextOf(ctx), clientOf(ctx));
      return secondFactorPassed(ctx, ctx.user);
    },
  ),
});
