import { listActiveSessions } from "@/db/queries/sessions";
import { callerSession } from "@/lib/api/account-security";
import { auditContextOf } from "@/lib/api/audit";
import { listOf } from "@/lib/api/openapi";
import { wholeListOf } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getEnv } from "@/lib/env";
import { revokedSessionsSchema, serializeSession, sessionSchema } from "@/lib/schemas/account-security";
import { revokeOtherSessions } from "@/lib/services/sessions/revoke-session";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/me/sessions: the caller's signed-in sessions, most recently active first (a person)
  GET: withRoute(
    {
      person: true,
      doc: {
        operationId: "listSessions",
        summary: "List your signed-in sessions",
        description:
          "Sessions that are not signed out and were active within the session lifetime. `current` marks the one making the request " +
          "(none for a token without `sid`).",
        tag: "Account security",
        success: 200,
        response: listOf(sessionSchema),
        responseDescription: "Your sessions",
      },
    },
    async ({ db, req, user }) => {
      const [rows, caller] = await Promise.all([listActiveSessions(db, user.id, getEnv().SESSION_MAX_AGE_SECONDS), callerSession(req)]);
      return ok(wholeListOf(rows.map((s) => serializeSession(s, caller.state.sid))));
    },
  ),
  // DELETE /api/me/sessions: sign out every session but the calling one (a person)
  DELETE: withRoute(
    {
      person: true,
      doc: {
        operationId: "revokeOtherSessions",
        summary: "Sign out all other sessions",
        description:
          "Every session of yours except the calling one: their tokens answer 401 from then on (on every instance within a few seconds).",
        tag: "Account security",
        success: 200,
        response: revokedSessionsSchema,
        responseDescription: "How many were signed out",
      },
    },
    async (ctx) => {
      const caller = await callerSession(ctx.req);
      return ok({ revoked: await revokeOtherSessions(ctx.db, ctx.user, caller.state.sid, auditContextOf(ctx)) });
    },
  ),
});
