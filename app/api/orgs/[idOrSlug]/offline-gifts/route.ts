import { auditContextOf } from "@/lib/api/audit";
import { ORG_ADMIN_ROUTE } from "@/lib/api/org-route";
import { created } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donationSchema, serializeDonation } from "@/lib/schemas/donations";
import { offlineGiftBody } from "@/lib/schemas/gifts";
import { recordOfflineGift } from "@/lib/services/gifts/record-offline-gift";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/offline-gifts: record a cheque, cash, transfer, grant or stock gift (ADMIN)
  POST: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      body: offlineGiftBody,
      doc: {
        operationId: "recordOfflineGift",
        summary: "Record an offline gift",
        description:
          "Records a gift that did not go through the processor (cash, cheque, bank transfer, donor-advised-fund grant, " +
          'stock, in kind). It is created SUCCEEDED with `source: "OFFLINE"` and `succeededAt = receivedAt`, counts in ' +
          "every total, report, export and statement like a card gift, takes the next receipt number and emits " +
          "`donation.succeeded`. The donor is an existing one (`{ id }`) or is matched by email (case-insensitive) or " +
          "created. `sendReceipt: true` queues the receipt email.",
        tag: "Donations",
        bodyExamples: {
          cheque: {
            summary: "A cheque from a new donor",
            value: {
              campaignId: "cmp_…",
              amount: 25000,
              receivedAt: "2026-03-04",
              method: "CHEQUE",
              reference: "Cheque 1042",
              donor: { email: "ada@example.org", firstName: "Ada", lastName: "Lovelace" },
              sendReceipt: true,
            },
          },
        },
        success: 201,
        response: donationSchema,
        responseDescription: "The recorded gift",
        notFound: "Organization not found",
      },
    },
    async (ctx) => created(serializeDonation(await recordOfflineGift(ctx.db, ctx.scope.org, ctx.body, auditContextOf(ctx)))),
  ),
});
