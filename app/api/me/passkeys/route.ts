import { listPasskeys } from "@/db/queries/passkeys";
import { callerSession, clientOf, secondFactorPassed } from "@/lib/api/account-security";
import { auditContextOf } from "@/lib/api/audit";
import { listOf } from "@/lib/api/openapi";
import { wholeListOf } from "@/lib/api/pagination";
import { created, ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { passkeyCreatedSchema, passkeySchema, registerPasskeyBody, serializePasskey } from "@/lib/schemas/account-security";
import { registerPasskey } from "@/lib/services/passkeys/register-passkey";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/me/passkeys: the caller's passkeys, oldest first (a person)
  GET: withRoute(
    {
      person: true,
      doc: {
        operationId: "listPasskeys",
        summary: "List your passkeys",
        tag: "Account security",
        success: 200,
        response: listOf(passkeySchema),
        responseDescription: "Your passkeys",
      },
    },
    async ({ db, user }) => ok(wholeListOf((await listPasskeys(db, user.id)).map(serializePasskey))),
  ),
  // POST /api/me/passkeys: keep a new passkey, the browser's answer to the registration options (a person, sensitive)
  POST: withRoute(
    {
      person: true,
      sensitive: true,
      body: registerPasskeyBody,
      doc: {
        operationId: "registerPasskey",
        summary: "Add a passkey",
        description:
          'The browser\'s answer to `POST /api/me/passkeys/options`. The passkey then signs you in ("Sign in with a passkey") and is ' +
          "a second factor. When it is your first second factor, two-factor turns on and the answer carries ten recovery codes " +
          "(and the dashboard's own session counts as having passed it).",
        tag: "Account security",
        success: 201,
        response: passkeyCreatedSchema,
        responseDescription: "The passkey",
        conflicts: ["This passkey is already registered"],
      },
    },
    async (ctx) => {
      const { passkey, recoveryCodes } = await registerPasskey(ctx.db, ctx.user, ctx.body as never, auditContextOf(ctx), clientOf(ctx));
      const answer = { passkey: serializePasskey(passkey), recoveryCodes };
      // The first factor of the dashboard's own session: it has just used the passkey, so its cookie carries the second factor.
      if (recoveryCodes && (await callerSession(ctx.req)).via === "cookie") return secondFactorPassed(ctx, ctx.user, () => answer, 201);
      return created(answer);
    },
  ),
});
