import { z } from "zod";
import { publicViewResponse } from "@/lib/cache/public-campaign-response";
import { methods, withRoute } from "@/lib/api/route";
import { publicCampaignViewSchema } from "@/lib/schemas/campaigns";

const params = z.object({ orgSlug: z.string().min(1).max(100), slug: z.string().min(1).max(100) });

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/public/orgs/:orgSlug/campaigns/:slug: the public view, as the hosted donate page loads it (public)
  GET: withRoute(
    {
      auth: "public",
      // The public view is the most-read route (every share of a campaign): served past Next.js's router.
      fastPath: true,
      params,
      doc: {
        operationId: "getPublicCampaignBySlug",
        summary: "Public view of a published campaign, by slugs",
        description: "The same view as `getPublicCampaign`, addressed the way the hosted donate page is.",
        tag: "Public",
        success: 200,
        response: publicCampaignViewSchema,
        responseDescription: "The public view",
        notFound: "Campaign not found",
      },
    },
    async ({ db, params }) => publicViewResponse(db, params),
  ),
});
