import { auditContextOf } from "@/lib/api/audit";
import { noContent } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { sessionParams } from "@/lib/schemas/account-security";
import { revokeSession } from "@/lib/services/sessions/revoke-session";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // DELETE /api/me/sessions/:id: sign one of the caller's sessions out; its tokens answer 401 (a person)
  DELETE: withRoute(
    {
      person: true,
      params: sessionParams,
      doc: {
        operationId: "revokeSession",
        summary: "Sign a session out",
        description:
          "Every token carrying this `sid` answers 401 from then on, on the API and the dashboard (on every instance within a few seconds). " +
          "Your own current session may be signed out too.",
        tag: "Account security",
        success: 204,
        responseDescription: "Signed out",
        notFound: "Session not found",
      },
    },
    async (ctx) => {
      await revokeSession(ctx.db, ctx.user, ctx.params.id, auditContextOf(ctx));
      return noContent();
    },
  ),
});
