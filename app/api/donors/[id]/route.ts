import { listDonationsOfDonor } from "@/db/queries/donations";
import { listRecurringPlansOfDonor } from "@/db/queries/recurring-plans";
import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donorScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { serializeDonation } from "@/lib/schemas/donations";
import { DONOR_DETAIL_DONATIONS, donorDetailSchema, donorSchema, serializeDonor, updateDonorBody } from "@/lib/schemas/donors";
import { serializeRecurringPlan } from "@/lib/schemas/recurring-plans";
import { updateDonor } from "@/lib/services/donors/update-donor";

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
  // PATCH /api/donors/:id: edit a donor's contact details, tags and email consent (ADMIN)
  PATCH: withRoute(
    {
      params: idParam,
      scope: donorScope,
      role: "ADMIN",
      body: updateDonorBody,
      doc: {
        operationId: "updateDonor",
        summary: "Update a donor",
        description:
          "Any of `firstName`, `lastName`, `email`, `phone`, `address`, `tags` (replaces the list) and `emailOptIn`; `null` " +
          "clears a name, the phone or the address. Text is stored without HTML. An email another donor of the organization " +
          'has (case-insensitive): 409 with `code: "donor_email_taken"`. An erased donor: 409. Totals never change here. ' +
          "Recorded in the audit log as `donor.updated`.",
        tag: "Donors",
        success: 200,
        response: donorSchema,
        responseDescription: "The updated donor",
        notFound: "Donor not found",
        conflicts: ["Another donor of this organization has this email (`code: donor_email_taken`)", "An erased donor cannot be edited"],
      },
    },
    async (ctx) => ok(serializeDonor(await updateDonor(ctx.db, ctx.scope.donor.id, ctx.body, auditContextOf(ctx)))),
  ),
});
