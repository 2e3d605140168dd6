import { getDonationTimeline } from "@/db/queries/donations";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donationScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { serializeDonation, serializeTimelineEntry } from "@/lib/schemas/donations";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/donations/:id: one donation with its timeline of events and emails (members)
  GET: withRoute({ params: idParam, scope: donationScope }, async ({ db, scope }) => {
    const timeline = await getDonationTimeline(db, scope.donation.id);
    return ok({ ...serializeDonation(scope.donation), timeline: timeline.map(serializeTimelineEntry) });
  }),
});
