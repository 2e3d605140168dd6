import { auditContextOf } from "@/lib/api/audit";
import { noContent, ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { campaignScope } from "@/lib/api/scopes";
import { campaignSchema, serializeCampaign, updateCampaignBody } from "@/lib/schemas/campaigns";
import { idParam } from "@/lib/schemas/common";
import { deleteCampaign } from "@/lib/services/campaigns/delete-campaign";
import { updateCampaign } from "@/lib/services/campaigns/update-campaign";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/campaigns/:id: one campaign with its live totals (members)
  GET: withRoute(
    {
      params: idParam,
      scope: campaignScope,
      doc: {
        operationId: "getCampaign",
        summary: "Get a campaign with its live totals",
        tag: "Campaigns",
        success: 200,
        response: campaignSchema,
        responseDescription: "The campaign",
        notFound: "Campaign not found",
      },
    },
    async ({ scope }) => ok(serializeCampaign(scope.campaign)),
  ),
  // PATCH /api/campaigns/:id: update fields and status (publish, pause, resume, end) (ADMIN)
  PATCH: withRoute(
    {
      params: idParam,
      scope: campaignScope,
      role: "ADMIN",
      body: updateCampaignBody,
      doc: {
        operationId: "updateCampaign",
        summary: "Update a campaign or change its status",
        description: "Status changes: DRAFT→ACTIVE (publish), ACTIVE↔PAUSED, ACTIVE|PAUSED→ENDED; ENDED is final.",
        tag: "Campaigns",
        bodyExamples: {
          publish: { summary: "Publish a draft", value: { status: "ACTIVE" } },
          goal: { summary: "Raise the goal", value: { goalAmountCents: 5_000_000 } },
        },
        success: 200,
        response: campaignSchema,
        responseDescription: "The updated campaign",
        notFound: "Campaign not found",
        conflicts: [
          "Cannot change campaign status from <from> to <to>",
          "A campaign's type can only change while it is a draft",
          "Campaign slug is already taken in this organization",
        ],
      },
    },
    async (ctx) => ok(serializeCampaign(await updateCampaign(ctx.db, ctx.params.id, ctx.body, auditContextOf(ctx)))),
  ),
  // DELETE /api/campaigns/:id: delete a draft that has no donations (ADMIN)
  DELETE: withRoute(
    {
      params: idParam,
      scope: campaignScope,
      role: "ADMIN",
      doc: {
        operationId: "deleteCampaign",
        summary: "Delete a draft campaign",
        description: "Only a DRAFT with no donations can be deleted; end any other campaign instead.",
        tag: "Campaigns",
        success: 204,
        responseDescription: "Deleted",
        notFound: "Campaign not found",
        conflicts: ["Only a draft campaign can be deleted; end it instead", "A campaign with donations cannot be deleted; end it instead"],
      },
    },
    async (ctx) => {
      await deleteCampaign(ctx.db, ctx.params.id, auditContextOf(ctx));
      return noContent();
    },
  ),
});
