import { getCampaignReport } from "@/db/queries/reports";
import { wholeList } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { ORG_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { campaignReportSchema, reportWindowQuery, windowOf, type CampaignReport } from "@/lib/schemas/reports";
import { REPORT_WINDOW } from "../docs";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/reports/campaigns: every campaign's raised, count and donors in a window (members)
  GET: withRoute(
    {
      ...ORG_ROUTE,
      query: reportWindowQuery,
      doc: {
        operationId: "getCampaignReport",
        summary: "Raised, count and donors per campaign",
        description:
          `${REPORT_WINDOW}\n\nEvery campaign, highest raised first. \`raisedCents\`/\`count\` are the campaign's own donations; ` +
          "`raisedIncludingPagesCents`/`countIncludingPages` add a peer-to-peer parent's fundraiser pages and, over all " +
          "time, equal the campaign's `raisedAmountCents`/`donationCount` exactly.",
        tag: "Reports",
        success: 200,
        response: campaignReportSchema,
        responseDescription: "Every campaign with its numbers in the window",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) => {
      const window = windowOf(query);
      const data = await getCampaignReport(db, scope.orgId, window);
      const body: CampaignReport = { ...window, currency: scope.org.currency, data, pagination: wholeList(data.length) };
      return ok(body);
    },
  ),
});
