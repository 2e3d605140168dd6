import { getReportSummary } from "@/db/queries/reports";
import { reportRoute } from "@/lib/api/reports";
import { methods } from "@/lib/api/route";
import { reportSummarySchema, reportWindowQuery } from "@/lib/schemas/reports";
import { REPORT_WINDOW } from "../docs";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/reports/summary: totals for a from/to window on succeeded_at (members)
  GET: reportRoute(
    {
      query: reportWindowQuery,
      doc: {
        operationId: "getReportSummary",
        summary: "Totals for a window",
        description:
          `${REPORT_WINDOW}\n\nRaised, count, distinct and new donors, average gift, refunds and disputes in the window, and the ` +
          "monthly value of the recurring plans active now. Over all time `raisedCents` and `count` equal the sum of the " +
          "`raisedAmountCents` and `donationCount` of the campaigns that are not fundraiser pages (a peer-to-peer parent's " +
          "already include its pages').",
        response: reportSummarySchema,
        responseDescription: "The window as understood and its numbers",
      },
    },
    ({ db, orgId, timeZone, window }) => getReportSummary(db, orgId, window, { timeZone }),
  ),
});
