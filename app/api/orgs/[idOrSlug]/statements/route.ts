import { auditContextOf } from "@/lib/api/audit";
import { json, ok } from "@/lib/api/respond";
import { ORG_ADMIN_ROUTE, ORG_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { iso } from "@/lib/schemas/common";
import { sendStatementsBody, sendStatementsResult, statementRunsQuery, statementRunsResult } from "@/lib/schemas/statements";
import { listStatementRuns, sendStatements } from "@/lib/services/statements/send-statements";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/statements: the year-end statement runs with their emails' progress (members)
  GET: withRoute(
    {
      ...ORG_ROUTE,
      query: statementRunsQuery,
      doc: {
        operationId: "listStatementRuns",
        summary: "List year-end statement runs",
        description:
          "The organization's statement runs, newest first (at most 100), each with how many of its emails were sent, failed for good, or are still waiting.",
        tag: "Donors",
        success: 200,
        response: statementRunsResult,
        responseDescription: "The runs",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) => {
      const runs = await listStatementRuns(db, scope.org.id, query.year);
      return ok({ data: runs.map((r) => ({ ...r, createdAt: iso(r.createdAt)! })) });
    },
  ),
  // POST /api/orgs/:idOrSlug/statements: email every donor of a year their statement, PDF attached (ADMIN)
  POST: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      body: sendStatementsBody,
      doc: {
        operationId: "sendStatements",
        summary: "Send year-end statements",
        description:
          "Queues one email to every donor who made at least one counted gift in the year (UTC), with their statement attached as a PDF: " +
          "the organization's legal name, tax ID and address, the donor's name, each SUCCEEDED gift (date, campaign, amount, renewals included; " +
          "refunded and lost-dispute gifts excluded), the total and the organization's receipt statement. It is the same file the donor " +
          "downloads from their account. Donors who already had that year's statement are skipped (`queued: 0` when all had it) unless " +
          "`resend` is true. Erased donors get nothing.",
        tag: "Donors",
        bodyExamples: {
          year: { summary: "Send last year's statements", value: { year: 2025 } },
          resend: { summary: "Send them again to everyone", value: { year: 2025, resend: true } },
        },
        success: 202,
        response: sendStatementsResult,
        responseDescription: "The emails are queued",
        notFound: "Organization not found",
      },
    },
    async (ctx) => json(await sendStatements(ctx.db, ctx.scope.org, ctx.body, auditContextOf(ctx)), { status: 202 }),
  ),
});
