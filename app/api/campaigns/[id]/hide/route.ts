import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { campaignScope } from "@/lib/api/scopes";
import { campaignSchema, serializeCampaign } from "@/lib/schemas/campaigns";
import { idParam } from "@/lib/schemas/common";
import { hideSupporterPage } from "@/lib/services/fundraisers/manage-fundraisers";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/campaigns/:id/hide: hide a supporter's fundraiser page (ADMIN)
  POST: withRoute(
    {
      params: idParam,
      scope: campaignScope,
      role: "ADMIN",
      doc: {
        operationId: "hideSupporterPage",
        summary: "Hide a supporter's fundraiser page",
        description: "Takes the page off the leaderboards and public views; it takes no gifts (PAUSED) until approved again.",
        tag: "Campaigns",
        success: 200,
        response: campaignSchema,
        responseDescription: "The page",
        notFound: "Campaign not found",
        conflicts: ["Not a supporter's fundraiser page"],
      },
    },
    async ({ db, scope }) => ok(serializeCampaign(await hideSupporterPage(db, scope.campaign))),
  ),
});
