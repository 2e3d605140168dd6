import { getReportSummary } from "@/db/queries/reports";
import { ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { orgParam } from "@/lib/schemas/common";
import { reportWindowQuery, windowOf, type ReportSummary } from "@/lib/schemas/reports";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/reports/summary: totals for a from/to window on succeeded_at (members)
  GET: withRoute({ params: orgParam, scope: orgScope, query: reportWindowQuery }, async ({ db, scope, query }) => {
    const window = windowOf(query);
    const body: ReportSummary = { ...window, currency: scope.org.currency, ...(await getReportSummary(db, scope.orgId, window)) };
    return ok(body);
  }),
});
