import { getDonationTimeline } from "@/db/queries/donations";
import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donationScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { donationDetailSchema, donationSchema, serializeDonation, serializeTimelineEntry } from "@/lib/schemas/donations";
import { correctGiftBody } from "@/lib/schemas/gifts";
import { correctGift } from "@/lib/services/gifts/correct-gift";

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
  // PATCH /api/donations/:id: correct an offline or imported gift; the totals follow (ADMIN)
  PATCH: withRoute(
    {
      params: idParam,
      scope: donationScope,
      role: "ADMIN",
      body: correctGiftBody,
      doc: {
        operationId: "correctDonation",
        summary: "Correct an offline or imported gift",
        description:
          "Corrects `amount`, `receivedAt`, `campaignId`, `method`, `reference` or `advantageCents` of an OFFLINE or " +
          "IMPORT gift. Campaign, fundraiser-page, donor and report totals follow; the receipt number stays. A change " +
          "of amount, campaign or date emits `donation.succeeded` again with the corrected gift. Online gifts: 409.",
        tag: "Donations",
        success: 200,
        response: donationSchema,
        responseDescription: "The corrected gift",
        notFound: "Donation not found",
        conflicts: ["Only offline and imported gifts can be edited", "A voided gift can't be edited"],
      },
    },
    async (ctx) => ok(serializeDonation(await correctGift(ctx.db, ctx.scope.donation, ctx.body, auditContextOf(ctx)))),
  ),
});
