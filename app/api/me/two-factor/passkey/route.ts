import { secondFactorPassed } from "@/lib/api/account-security";
import { methods, withRoute } from "@/lib/api/route";
import { fieldError } from "@/lib/errors";
import { challengeTokenSchema, passkeyAnswerBody } from "@/lib/schemas/account-security";
import { verifyPasskeyAuthentication } from "@/lib/services/passkeys/authenticate-passkey";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/me/two-factor/passkey: pass the second factor with a passkey; answers a session JWT with twoFactorAt (a person)
  POST: withRoute(
    {
      person: true,
      body: passkeyAnswerBody,
      doc: {
        operationId: "passPasskeyChallenge",
        summary: "Pass the second factor with a passkey",
        description:
          "The browser's answer to `POST /api/me/two-factor/passkey/options`. Answers like `POST /api/me/two-factor/challenge`: a " +
          "session JWT with `twoFactorAt`, and the dashboard's cookie replaced when it made the call.",
        tag: "Account security",
        success: 200,
        response: challengeTokenSchema,
        responseDescription: "A session token that has passed the second factor",
      },
    },
    async (ctx) => {
      const verified = await verifyPasskeyAuthentication(ctx.db, ctx.body as never, ctx.user.id);
      if (!verified) throw fieldError("response", "The passkey could not be verified: try again", "invalid_passkey");
      return secondFactorPassed(ctx, ctx.user);
    },
  ),
});
