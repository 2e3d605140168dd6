import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donationScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { donationSchema, serializeDonation } from "@/lib/schemas/donations";
import { voidGiftBody } from "@/lib/schemas/gifts";
import { voidGift } from "@/lib/services/gifts/void-gift";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/donations/:id/void: void an offline or imported gift (ADMIN)
  POST: withRoute(
    {
      params: idParam,
      scope: donationScope,
      role: "ADMIN",
      body: voidGiftBody,
      doc: {
        operationId: "voidDonation",
        summary: "Void an offline or imported gift",
        description:
          "A bounced cheque or a gift recorded by mistake: the status becomes VOIDED, the gift leaves every total, its " +
          'receipt number is kept with `receiptStatus: "VOID"`, and `donation.voided` is emitted. Online gifts are ' +
          "refunded instead (409).",
        tag: "Donations",
        success: 200,
        response: donationSchema,
        responseDescription: "The voided gift",
        notFound: "Donation not found",
        conflicts: ["Only offline and imported gifts can be voided; refund an online gift instead", "This gift is already voided"],
      },
    },
    async (ctx) => ok(serializeDonation(await voidGift(ctx.db, ctx.scope.donation, ctx.body.reason, auditContextOf(ctx)))),
  ),
});
