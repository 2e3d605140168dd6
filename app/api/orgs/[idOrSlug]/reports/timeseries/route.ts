import { getReportTimeseries } from "@/db/queries/reports";
import { reportRoute } from "@/lib/api/reports";
import { methods } from "@/lib/api/route";
import { MAX_BUCKETS } from "@/lib/report-window";
import { reportTimeseriesQuery, reportTimeseriesSchema } from "@/lib/schemas/reports";
import { REPORT_WINDOW } from "../docs";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/reports/timeseries: raised and count per UTC day, week or month (members)
  GET: reportRoute(
    {
      query: reportTimeseriesQuery,
      doc: {
        operationId: "getReportTimeseries",
        summary: "Raised and count per day, week or month",
        description:
          `${REPORT_WINDOW}\n\nBuckets are calendar units of the organization's \`timeZone\` (\`date_trunc\` in it): days from its ` +
          "midnight, ISO weeks from Monday, months from the 1st; each bucket's `start` is that instant in UTC. Empty buckets are " +
          `listed with zeros. At most ${MAX_BUCKETS} buckets: a ` +
          "longer series answers 400 on `interval`.",
        response: reportTimeseriesSchema,
        responseDescription: "Consecutive buckets, oldest first",
      },
    },
    async ({ db, orgId, timeZone, query, window }) => ({
      interval: query.interval,
      buckets: await getReportTimeseries(db, orgId, window, query.interval, { timeZone }),
    }),
  ),
});
