import { z } from "zod";
import { notFound } from "@/lib/api/errors";
import { pdfResponse } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donationScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { receiptFile } from "@/lib/services/receipts/receipt-pdf";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/donations/:id/receipt.pdf: the gift's receipt as a PDF, in the organization's receipt profile (members)
  GET: withRoute(
    {
      params: idParam,
      scope: donationScope,
      doc: {
        operationId: "getDonationReceipt",
        summary: "Download a gift's receipt",
        description:
          "The receipt of one gift as a PDF (`receipt-<org-slug>-<receiptNumber>.pdf`), worded by the organization's " +
          "`receiptProfile`: US (goods-or-services statement), CA (official receipt for income tax purposes), UK (Gift Aid) " +
          "or GENERIC. A refunded or voided gift's receipt is marked VOID. 404 when the gift has no receipt number.",
        tag: "Receipts",
        success: 200,
        response: z.string().meta({ format: "binary", description: "The PDF file" }),
        responseMediaType: "application/pdf",
        responseDescription: "The receipt",
        notFound: "Donation not found",
      },
    },
    async ({ db, scope }) => {
      const file = await receiptFile(db, scope.donation.id);
      if (!file) throw notFound("Receipt not found");
      return pdfResponse(file);
    },
  ),
});
