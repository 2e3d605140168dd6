import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { webauthnOptionsSchema } from "@/lib/schemas/account-security";
import { startPasskeyRegistration } from "@/lib/services/passkeys/start-registration";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/me/passkeys/options: WebAuthn options to make a new passkey (a person, sensitive)
  POST: withRoute(
    {
      person: true,
      sensitive: true,
      doc: {
        operationId: "startPasskeyRegistration",
        summary: "Start adding a passkey",
        description:
          "WebAuthn creation options for `navigator.credentials.create` (a discoverable credential for this site). Answer with " +
          "`POST /api/me/passkeys` within 5 minutes.",
        tag: "Account security",
        success: 200,
        response: webauthnOptionsSchema,
        responseDescription: "The ceremony's options",
      },
    },
    async ({ db, user }) => ok(await startPasskeyRegistration(db, user)),
  ),
});
