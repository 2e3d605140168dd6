import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { campaignScope } from "@/lib/api/scopes";
import { campaignSchema, serializeCampaign } from "@/lib/schemas/campaigns";
import { idParam } from "@/lib/schemas/common";
import { approveSupporterPage } from "@/lib/services/fundraisers/manage-fundraisers";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/campaigns/:id/approve: approve a supporter's fundraiser page (ADMIN)
  POST: withRoute(
    {
      params: idParam,
      scope: campaignScope,
      role: "ADMIN",
      doc: {
        operationId: "approveSupporterPage",
        summary: "Approve a supporter's fundraiser page",
        description: "Publishes a page waiting for approval (or shows a hidden one again) and emits `fundraiser.approved`.",
        tag: "Campaigns",
        success: 200,
        response: campaignSchema,
        responseDescription: "The page",
        notFound: "Campaign not found",
        conflicts: ["Not a supporter's fundraiser page"],
      },
    },
    async ({ db, scope }) => ok(serializeCampaign(await approveSupporterPage(db, scope.campaign))),
  ),
});
