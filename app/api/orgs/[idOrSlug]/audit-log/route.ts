import { listAuditLogPage } from "@/db/queries/audit-log";
import { cursorList } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { ORG_ADMIN_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { AUDIT_ACTIONS, auditLogListSchema, encodeAuditCursor, listAuditLogQuery, serializeAuditEntry } from "@/lib/schemas/audit-log";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/audit-log: staff changes, newest first, cursor-paged, filtered (admins)
  GET: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      query: listAuditLogQuery,
      doc: {
        operationId: "listAuditLog",
        summary: "List an organization's audit log",
        description:
          "Every change staff made, by a person or an API key, newest first: " +
          AUDIT_ACTIONS.map((a) => `\`${a}\``).join(", ") +
          ". Each entry names its actor, target, request ID and client IP, and `data` says what changed (never a secret). " +
          "Entries are written with the change itself and never edited or deleted. Cursor-paged: pass " +
          "`pagination.nextCursor` as `cursor` for the next page until it is null. Filters combine: `action` and `actor` " +
          "(a user's or an API key's ID). A malformed cursor answers 400 on `cursor`.",
        tag: "Audit log",
        success: 200,
        response: auditLogListSchema,
        responseDescription: "A page of audit log entries",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) => {
      const { limit, cursor, ...filter } = query;
      const { rows, nextCursor } = await listAuditLogPage(db, scope.orgId, filter, { limit, cursor });
      return ok(cursorList(rows.map(serializeAuditEntry), limit, nextCursor, encodeAuditCursor));
    },
  ),
});
