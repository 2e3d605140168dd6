import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { webauthnOptionsSchema } from "@/lib/schemas/account-security";
import { startPasskeyAuthentication } from "@/lib/services/passkeys/authenticate-passkey";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/passkeys/sign-in-options: a WebAuthn challenge for signing in with a passkey (public)
  POST: withRoute(
    {
      auth: "public",
      doc: {
        operationId: "startPasskeySignIn",
        summary: "Start signing in with a passkey",
        description:
          "WebAuthn request options (any passkey of this site, user verification required). The sign-in page hands the browser's answer, " +
          "with `challengeId`, to next-auth's `passkey` provider (`POST /api/auth/callback/passkey`).",
        tag: "Account security",
        success: 200,
        response: webauthnOptionsSchema,
        responseDescription: "The ceremony's options",
      },
    },
    async ({ db }) => ok(await startPasskeyAuthentication(db, null)),
  ),
});
