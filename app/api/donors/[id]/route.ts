import { listDonationsOfDonor } from "@/db/queries/donations";
import { listRecurringPlansOfDonor } from "@/db/queries/recurring-plans";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donorScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { serializeDonation } from "@/lib/schemas/donations";
import { DONOR_DETAIL_DONATIONS, donorDetailSchema, serializeDonor } from "@/lib/schemas/donors";
import { serializeRecurringPlan } from "@/lib/schemas/recurring-plans";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/donors/:id: one donor with their donations and recurring plans (members)
  GET: withRoute(
    {
      params: idParam,
      scope: donorScope,
      doc: {
        operationId: "getDonor",
        summary: "Get a donor with their history",
        description: "The donor, their 100 newest donations (any status, with the campaign's title) and their recurring plans.",
        tag: "Donors",
        success: 200,
        response: donorDetailSchema,
        responseDescription: "The donor and their history",
        notFound: "Donor not found",
      },
    },
    async ({ db, scope }) => {
      const [donations, plans] = await Promise.all([
        listDonationsOfDonor(db, scope.donor.id, DONOR_DETAIL_DONATIONS),
        listRecurringPlansOfDonor(db, scope.donor.id),
      ]);
      return ok({
        ...serializeDonor(scope.donor),
        donations: donations.map((r) => ({ ...serializeDonation(r.donation), campaignTitle: r.campaignTitle })),
        recurringPlans: plans.map(serializeRecurringPlan),
      });
    },
  ),
});
