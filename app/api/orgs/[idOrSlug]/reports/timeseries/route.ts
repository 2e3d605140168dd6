import { getReportTimeseries } from "@/db/queries/reports";
import { ok } from "@/lib/api/respond";
import { ORG_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { MAX_BUCKETS, reportTimeseriesQuery, reportTimeseriesSchema, windowOf, type ReportTimeseries } from "@/lib/schemas/reports";
import { REPORT_WINDOW } from "../docs";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/reports/timeseries: raised and count per UTC day, week or month (members)
  GET: withRoute(
    {
      ...ORG_ROUTE,
      query: reportTimeseriesQuery,
      doc: {
        operationId: "getReportTimeseries",
        summary: "Raised and count per day, week or month",
        description:
          `${REPORT_WINDOW}\n\nBuckets are UTC calendar units (\`date_trunc\` in UTC): days from 00:00Z, ISO weeks from Monday ` +
          `00:00Z, months from the 1st at 00:00Z; empty buckets are listed with zeros. At most ${MAX_BUCKETS} buckets: a ` +
          "longer series answers 400 on `interval`.",
        tag: "Reports",
        success: 200,
        response: reportTimeseriesSchema,
        responseDescription: "Consecutive buckets, oldest first",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) => {
      const window = windowOf(query);
      const buckets = await getReportTimeseries(db, scope.orgId, window, query.interval);
      const body: ReportTimeseries = { ...window, currency: scope.org.currency, interval: query.interval, buckets };
      return ok(body);
    },
  ),
});
