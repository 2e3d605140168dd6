import { methods, withRoute } from "@/lib/api/route";
import { donorOrgParam } from "@/lib/schemas/donor-account";
import { ownDataExportSchema } from "@/lib/schemas/donor-data";
import { donorExportFilename, exportOwnData, jsonDownload } from "@/lib/services/donors/export-donor-data";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/donor/orgs/:orgSlug/data-export: the signed-in donor downloads a copy of their data (donor cookie)
  POST: withRoute(
    {
      auth: "donor",
      params: donorOrgParam,
      doc: {
        operationId: "exportOwnDonorData",
        summary: "Download a copy of my data",
        description:
          "A JSON file of what this organization holds about the signed-in donor: their details, gifts, recurring plans, " +
          "the emails sent to them and their data requests. Answered at once; the request is kept in the donor's requests.",
        tag: "Donor account",
        success: 200,
        response: ownDataExportSchema,
        responseDescription: "The donor's data (as an attachment)",
      },
    },
    async ({ db, org, donor }) => jsonDownload(await exportOwnData(db, org, donor), donorExportFilename(donor.id)),
  ),
});
