import { listParentFundraisers } from "@/db/queries/fundraisers";
import { findOrganizationById } from "@/lib/services/fundraisers/staff-fundraisers";
import { wholeListOf } from "@/lib/api/pagination";
import { listOf } from "@/lib/api/openapi";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { campaignScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { fundraiserPageSchema, serializeFundraiserPage } from "@/lib/schemas/fundraisers";
import { donateBaseUrl } from "@/lib/schemas/organizations";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/campaigns/:id/fundraisers: a peer-to-peer campaign's pages and teams with status and totals (members)
  GET: withRoute(
    {
      params: idParam,
      scope: campaignScope,
      doc: {
        operationId: "listCampaignFundraisers",
        summary: "List a peer-to-peer campaign's fundraiser pages and teams",
        description:
          "Every page and team page of the campaign (whoever created it, whatever its status or moderation), teams first, " +
          "then most raised, with totals and share URL.",
        tag: "Campaigns",
        success: 200,
        response: listOf(fundraiserPageSchema),
        responseDescription: "The campaign's pages and teams",
        notFound: "Campaign not found",
      },
    },
    async ({ db, scope }) => {
      const org = await findOrganizationById(db, scope.campaign.orgId);
      const base = donateBaseUrl(org);
      return ok(wholeListOf((await listParentFundraisers(db, scope.campaign.id)).map((c) => serializeFundraiserPage(c, base))));
    },
  ),
});
