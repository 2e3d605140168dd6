import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { totpEnrolmentSchema } from "@/lib/schemas/account-security";
import { startTotpEnrolment } from "@/lib/services/two-factor/start-totp-enrolment";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/me/two-factor/totp: start setting up an authenticator app: a new secret, shown once (a person)
  POST: withRoute(
    {
      person: true,
      sensitive: true,
      doc: {
        operationId: "startTotpEnrolment",
        summary: "Start setting up an authenticator app",
        description:
          "Answers a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30-second steps) and its `otpauth://` URI for a QR code. Nothing " +
          "changes until a code made from it is sent to `POST /api/me/two-factor/totp/verify`; asking again replaces the secret. " +
          "The secret is stored encrypted.",
        tag: "Account security",
        success: 200,
        response: totpEnrolmentSchema,
        responseDescription: "The secret and its URI",
        conflicts: ["An authenticator app is already set up; turn it off first to replace it"],
      },
    },
    async ({ db, user }) => ok(await startTotpEnrolment(db, user)),
  ),
});
