import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { campaignScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { emailFundraisersAnswer, emailFundraisersBody } from "@/lib/schemas/fundraisers";
import { emailAllFundraisers } from "@/lib/services/fundraisers/manage-fundraisers";
import { findOrganizationById } from "@/lib/services/fundraisers/staff-fundraisers";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/campaigns/:id/fundraisers/email: email every supporter with a page on the campaign, once each (ADMIN)
  POST: withRoute(
    {
      params: idParam,
      scope: campaignScope,
      role: "ADMIN",
      body: emailFundraisersBody,
      doc: {
        operationId: "emailCampaignFundraisers",
        summary: "Email every fundraiser of a peer-to-peer campaign",
        description: "Queues one email per supporter with a page on the campaign (however many pages they have), through the outbox.",
        tag: "Campaigns",
        success: 202,
        response: emailFundraisersAnswer,
        responseDescription: "How many emails were queued",
        notFound: "Campaign not found",
      },
    },
    async ({ db, scope, body }) => {
      const org = await findOrganizationById(db, scope.campaign.orgId);
      return json({ queued: await emailAllFundraisers(db, org, scope.campaign, body) }, { status: 202 });
    },
  ),
});
