import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { donorParams, erasedDonorSchema } from "@/lib/schemas/donor-data";
import { serializeDonor } from "@/lib/schemas/donors";
import { eraseDonor } from "@/lib/services/donors/erase-donor";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/donors/:id/erase: anonymize a donor's personal data, keep their money records (ADMIN)
  POST: withRoute(
    {
      params: donorParams,
      scope: orgScope,
      role: "ADMIN",
      doc: {
        operationId: "eraseDonor",
        summary: "Erase a donor's personal data",
        description:
          "Cancels the donor's open recurring plans at the payment processor, then anonymizes them: the donor's and their " +
          "donations' email becomes `erased+<donorId>@invalid`, names, messages, dedications and client IPs are removed, " +
          "pending emails to them are canceled and their sign-in links deleted. Donations, amounts and every total stay as " +
          "they were. Emits `donor.erased` (data: the donor's `id` only) and records `donor.erased` in the audit log. " +
          "Idempotent: erasing an erased donor answers the same donor and emits nothing.",
        tag: "Donors",
        success: 200,
        response: erasedDonorSchema,
        responseDescription: "The erased donor",
        notFound: "Organization not found, or Donor not found",
      },
    },
    async (ctx) => ok(serializeDonor(await eraseDonor(ctx.db, await getProcessor(), ctx.scope.orgId, ctx.params.id, auditContextOf(ctx)))),
  ),
});
