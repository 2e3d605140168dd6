import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donationScope } from "@/lib/api/scopes";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { idParam } from "@/lib/schemas/common";
import { donationSchema, serializeDonation } from "@/lib/schemas/donations";
import { refundDonation } from "@/lib/services/donations/refund-donation";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/donations/:id/refund: refund in full through the processor; the status follows its events (ADMIN)
  POST: withRoute(
    {
      params: idParam,
      scope: donationScope,
      role: "ADMIN",
      sensitive: true,
      doc: {
        operationId: "refundDonation",
        summary: "Refund a donation in full",
        description: "Refunds through the processor; the status (REFUNDED) and totals follow the processor's `charge.refunded` event.",
        tag: "Donations",
        success: 200,
        response: donationSchema,
        responseDescription: "The donation as it stands after the refund request",
        notFound: "Donation not found",
        conflicts: ["Only a succeeded donation can be refunded"],
      },
    },
    async (ctx) => ok(serializeDonation(await refundDonation(ctx.db, await getProcessor(), ctx.scope.donation, auditContextOf(ctx)))),
  ),
});
