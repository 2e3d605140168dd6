import { getReportTimeseries } from "@/db/queries/reports";
import { ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { orgParam } from "@/lib/schemas/common";
import { reportTimeseriesQuery, windowOf, type ReportTimeseries } from "@/lib/schemas/reports";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/reports/timeseries: raised and count per UTC day, week or month (members)
  GET: withRoute({ params: orgParam, scope: orgScope, query: reportTimeseriesQuery }, async ({ db, scope, query }) => {
    const window = windowOf(query);
    const buckets = await getReportTimeseries(db, scope.orgId, window, query.interval);
    const body: ReportTimeseries = { ...window, interval: query.interval, buckets };
    return ok(body);
  }),
});
