import { getDonationTimeline } from "@/db/queries/donations";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donationScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { donationDetailSchema, serializeDonation, serializeTimelineEntry } from "@/lib/schemas/donations";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/donations/:id: one donation with its timeline of events and emails (members)
  GET: withRoute(
    {
      params: idParam,
      scope: donationScope,
      doc: {
        operationId: "getDonation",
        summary: "Get a donation with its timeline",
        description:
          'The donation and its `timeline`, oldest first: what happened to it (`kind: "event"`: its creation, the ' +
          "processor's events, refund requests, each with the status change in `data`) merged with the emails queued " +
          'for it (`kind: "email"`, type `email.<template>`: receipt, admin notification, tribute; with recipient, ' +
          "delivery status and time sent).",
        tag: "Donations",
        success: 200,
        response: donationDetailSchema,
        responseDescription: "The donation and its timeline",
        notFound: "Donation not found",
      },
    },
    async ({ db, scope }) => {
      const timeline = await getDonationTimeline(db, scope.donation.id);
      return ok({ ...serializeDonation(scope.donation), timeline: timeline.map(serializeTimelineEntry) });
    },
  ),
});
