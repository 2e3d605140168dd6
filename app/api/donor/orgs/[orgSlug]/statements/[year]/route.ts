import { z } from "zod";
import { notFound } from "@/lib/api/errors";
import { pdfResponse } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donorStatementParams } from "@/lib/schemas/statements";
import { statementFile } from "@/lib/services/statements/statement-attachment";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/donor/orgs/:orgSlug/statements/:year: the signed-in donor's year-end statement as a PDF (donor cookie)
  GET: withRoute(
    {
      auth: "donor",
      params: donorStatementParams,
      doc: {
        operationId: "getDonorStatement",
        summary: "Download a year-end statement",
        description:
          "The signed-in donor's statement of the year (UTC) as a PDF (`statement-<org-slug>-<year>.pdf`): every SUCCEEDED gift of that year " +
          "(refunded and lost-dispute gifts excluded, renewals included), the total, and the organization's legal name, tax ID, address and " +
          "receipt statement. The same file the year-end statement email attaches. 404 when the donor made no counted gift that year.",
        tag: "Donor account",
        success: 200,
        response: z.string().meta({ format: "binary", description: "The PDF file" }),
        responseMediaType: "application/pdf",
        responseDescription: "The statement",
        notFound: "Statement not found",
      },
    },
    async ({ db, org, donor, params }) => {
      const file = await statementFile(db, org, donor.id, params.year);
      if (!file) throw notFound("Statement not found");
      return pdfResponse(file);
    },
  ),
});
