import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { webauthnOptionsSchema } from "@/lib/schemas/account-security";
import { startPasskeyAuthentication } from "@/lib/services/passkeys/authenticate-passkey";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/me/two-factor/passkey/options: a WebAuthn challenge for one of the caller's passkeys (a person)
  POST: withRoute(
    {
      person: true,
      doc: {
        operationId: "startPasskeyChallenge",
        summary: "Start passing the second factor with a passkey",
        description:
          "WebAuthn request options for `navigator.credentials.get`, limited to your passkeys. Answer with `POST /api/me/two-factor/passkey`.",
        tag: "Account security",
        success: 200,
        response: webauthnOptionsSchema,
        responseDescription: "The ceremony's options",
        conflicts: ["This account has no passkey"],
      },
    },
    async ({ db, user }) => ok(await startPasskeyAuthentication(db, user.id)),
  ),
});
