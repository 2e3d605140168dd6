import { z } from "zod";
import { isOwnGift } from "@/db/queries/donor-account";
import { notFound } from "@/lib/api/errors";
import { pdfResponse } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donorReceiptParams } from "@/lib/schemas/donor-account";
import { receiptFile } from "@/lib/services/receipts/receipt-pdf";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/donor/orgs/:orgSlug/donations/:id/receipt.pdf: the signed-in donor's receipt of one of their gifts (donor cookie)
  GET: withRoute(
    {
      auth: "donor",
      params: donorReceiptParams,
      doc: {
        operationId: "getDonorReceipt",
        summary: "Download one of the donor's receipts",
        description:
          "The receipt of one of the signed-in donor's own gifts as a PDF (`receipt-<org-slug>-<receiptNumber>.pdf`), the same " +
          "file staff download, worded by the organization's receipt profile; a refunded gift's receipt is marked VOID. 404 for " +
          "anyone else's gift, and while the gift has no receipt number.",
        tag: "Donor account",
        success: 200,
        response: z.string().meta({ format: "binary", description: "The PDF file" }),
        responseMediaType: "application/pdf",
        responseDescription: "The receipt",
        notFound: "Receipt not found",
      },
    },
    async ({ db, org, donor, params }) => {
      const file = (await isOwnGift(db, org.id, donor.id, params.id)) ? await receiptFile(db, params.id) : null;
      if (!file) throw notFound("Receipt not found");
      return pdfResponse(file);
    },
  ),
});
