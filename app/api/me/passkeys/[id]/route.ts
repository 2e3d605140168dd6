import { clientOf } from "@/lib/api/account-security";
import { auditContextOf } from "@/lib/api/audit";
import { noContent, ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { passkeyParams, passkeySchema, renamePasskeyBody, serializePasskey } from "@/lib/schemas/account-security";
import { removePasskey, renamePasskey } from "@/lib/services/passkeys/manage-passkeys";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // PATCH /api/me/passkeys/:id: rename one of the caller's passkeys (a person)
  PATCH: withRoute(
    {
      person: true,
      params: passkeyParams,
      body: renamePasskeyBody,
      doc: {
        operationId: "renamePasskey",
        summary: "Rename a passkey",
        tag: "Account security",
        success: 200,
        response: passkeySchema,
        responseDescription: "The passkey",
        notFound: "Passkey not found",
      },
    },
    async ({ db, user, params, body }) => ok(serializePasskey(await renamePasskey(db, user.id, params.id, body.name))),
  ),
  // DELETE /api/me/passkeys/:id: remove one of the caller's passkeys (a person, sensitive)
  DELETE: withRoute(
    {
      person: true,
      sensitive: true,
      params: passkeyParams,
      doc: {
        operationId: "removePasskey",
        summary: "Remove a passkey",
        description: "It no longer signs in or confirms anything. Removing your last second factor turns two-factor off.",
        tag: "Account security",
        success: 204,
        responseDescription: "Removed",
        notFound: "Passkey not found",
      },
    },
    async (ctx) => {
      await removePasskey(ctx.db, ctx.user, ctx.params.id, auditContextOf(ctx), clientOf(ctx));
      return noContent();
    },
  ),
});
