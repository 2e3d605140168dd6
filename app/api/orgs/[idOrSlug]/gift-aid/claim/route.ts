import { csvResponse } from "@/lib/api/respond";
import { z } from "zod";
import { csvBody } from "@/lib/api/openapi";
import { ORG_ADMIN_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { isoDateTime } from "@/lib/schemas/common";
import { exportFilename } from "@/lib/services/exports/csv";
import { GIFT_AID_COLUMNS, giftAidClaimCsv } from "@/lib/services/receipts/gift-aid-claim";

const claimQuery = z
  .object({
    from: isoDateTime.meta({ description: "Gifts received at or after this time (inclusive)." }),
    to: isoDateTime.meta({ description: "Gifts received before this time (exclusive)." }),
  })
  .refine((q) => Date.parse(q.from) < Date.parse(q.to), { message: "Must be after `from`", path: ["to"] });

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/gift-aid/claim: the Gift Aid claim schedule as CSV (ADMIN)
  GET: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      query: claimQuery,
      doc: {
        operationId: "getGiftAidClaim",
        summary: "Gift Aid claim (CSV)",
        description:
          "Every SUCCEEDED gift received in [from, to) with a Gift Aid declaration, one line each, in the column order of " +
          "HMRC's Gift Aid schedule (dates DD/MM/YY, amounts in pounds). Refunded, disputed and voided gifts are excluded.",
        tag: "Receipts",
        success: 200,
        response: csvBody(GIFT_AID_COLUMNS.join(", ")),
        responseMediaType: "text/csv",
        responseDescription: "The claim schedule",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) =>
      csvResponse(
        await giftAidClaimCsv(db, scope.orgId, new Date(query.from), new Date(query.to)),
        exportFilename("gift-aid", scope.org.slug),
      ),
  ),
});
