import { getCampaignReport } from "@/db/queries/reports";
import { wholeList } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { orgParam } from "@/lib/schemas/common";
import { reportWindowQuery, windowOf, type CampaignReport } from "@/lib/schemas/reports";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/reports/campaigns: every campaign's raised, count and donors in a window (members)
  GET: withRoute({ params: orgParam, scope: orgScope, query: reportWindowQuery }, async ({ db, scope, query }) => {
    const window = windowOf(query);
    const data = await getCampaignReport(db, scope.orgId, window);
    const body: CampaignReport = { ...window, data, pagination: wholeList(data.length) };
    return ok(body);
  }),
});
