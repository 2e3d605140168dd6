import { publicViewResponse } from "@/lib/cache/public-campaign-response";
import { methods, withRoute } from "@/lib/api/route";
import { publicCampaignViewSchema } from "@/lib/schemas/campaigns";
import { idParam } from "@/lib/schemas/common";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/public/campaigns/:id: the public view of a published campaign (public)
  GET: withRoute(
    {
      auth: "public",
      // The public view is the most-read route (every share of a campaign): served past Next.js's router.
      fastPath: true,
      params: idParam,
      doc: {
        operationId: "getPublicCampaign",
        summary: "Public view of a published campaign",
        description:
          "What a donor's browser may see: the campaign (never a DRAFT), its organization's name, progress if " +
          "`showGoal`, the donor roll if `showDonorRoll`, and the fundraiser leaderboard of a peer-to-peer campaign.",
        tag: "Public",
        success: 200,
        response: publicCampaignViewSchema,
        responseDescription: "The public view",
        notFound: "Campaign not found",
      },
    },
    async ({ db, params }) => publicViewResponse(db, { id: params.id }),
  ),
});
