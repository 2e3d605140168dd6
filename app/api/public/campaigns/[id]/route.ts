import { findPublicCampaign, publicCampaignView } from "@/db/queries/public-campaigns";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { idParam } from "@/lib/schemas/common";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/public/campaigns/:id: the public view of a published campaign (public)
  GET: withRoute({ auth: "public", params: idParam }, async ({ db, params }) =>
    ok(await publicCampaignView(db, await findPublicCampaign(db, { id: params.id }))),
  ),
});
