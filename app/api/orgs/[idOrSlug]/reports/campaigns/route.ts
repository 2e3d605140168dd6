import { getCampaignReport } from "@/db/queries/reports";
import { wholeListOf } from "@/lib/api/pagination";
import { reportRoute } from "@/lib/api/reports";
import { methods } from "@/lib/api/route";
import { campaignReportSchema, reportWindowQuery } from "@/lib/schemas/reports";
import { REPORT_WINDOW } from "../docs";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/reports/campaigns: every campaign's raised, count and donors in a window (members)
  GET: reportRoute(
    {
      query: reportWindowQuery,
      doc: {
        operationId: "getCampaignReport",
        summary: "Raised, count and donors per campaign",
        description:
          `${REPORT_WINDOW}\n\nEvery campaign, highest raised first. \`raisedCents\`/\`count\` are the campaign's own donations; ` +
          "`raisedIncludingPagesCents`/`countIncludingPages` add a peer-to-peer parent's fundraiser pages and, over all " +
          "time, equal the campaign's `raisedAmountCents`/`donationCount` exactly.",
        response: campaignReportSchema,
        responseDescription: "Every campaign with its numbers in the window",
      },
    },
    async ({ db, orgId, timeZone, window }) => wholeListOf(await getCampaignReport(db, orgId, window, { timeZone })),
  ),
});
