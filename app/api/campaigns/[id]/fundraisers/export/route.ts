import { csvResponse } from "@/lib/api/respond";
import { csvBody } from "@/lib/api/openapi";
import { methods, withRoute } from "@/lib/api/route";
import { campaignScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { exportFilename } from "@/lib/services/exports/csv";
import { exportFundraisersCsv, findOrganizationById, FUNDRAISER_CSV_COLUMNS } from "@/lib/services/fundraisers/staff-fundraisers";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/campaigns/:id/fundraisers/export: the campaign's pages and teams as CSV (members)
  GET: withRoute(
    {
      params: idParam,
      scope: campaignScope,
      doc: {
        operationId: "exportCampaignFundraisers",
        summary: "Export a peer-to-peer campaign's pages and teams as CSV",
        tag: "Campaigns",
        success: 200,
        response: csvBody(FUNDRAISER_CSV_COLUMNS.join(", ")),
        responseMediaType: "text/csv",
        responseDescription: "The CSV file",
        notFound: "Campaign not found",
      },
    },
    async ({ db, scope }) => {
      const org = await findOrganizationById(db, scope.campaign.orgId);
      return csvResponse(await exportFundraisersCsv(db, org, scope.campaign), exportFilename("fundraisers", org.slug));
    },
  ),
});
