import { noContent, ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { campaignScope } from "@/lib/api/scopes";
import { serializeCampaign, updateCampaignBody } from "@/lib/schemas/campaigns";
import { idParam } from "@/lib/schemas/common";
import { deleteCampaign } from "@/lib/services/campaigns/delete-campaign";
import { updateCampaign } from "@/lib/services/campaigns/update-campaign";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/campaigns/:id: one campaign with its live totals (members)
  GET: withRoute({ params: idParam, scope: campaignScope }, async ({ scope }) => ok(serializeCampaign(scope.campaign))),
  // PATCH /api/campaigns/:id: update fields and status (publish, pause, resume, end) (ADMIN)
  PATCH: withRoute({ params: idParam, scope: campaignScope, role: "ADMIN", body: updateCampaignBody }, async ({ db, params, body }) =>
    ok(serializeCampaign(await updateCampaign(db, params.id, body))),
  ),
  // DELETE /api/campaigns/:id: delete a draft that has no donations (ADMIN)
  DELETE: withRoute({ params: idParam, scope: campaignScope, role: "ADMIN" }, async ({ db, params }) => {
    await deleteCampaign(db, params.id);
    return noContent();
  }),
});
