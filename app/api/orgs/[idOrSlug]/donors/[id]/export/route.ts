import { findDonorOfOrg } from "@/db/queries/donor-requests";
import { auditContextOf } from "@/lib/api/audit";
import { notFound } from "@/lib/api/errors";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { donorDataExportSchema, donorParams } from "@/lib/schemas/donor-data";
import { donorExportFilename, exportDonorData, jsonDownload } from "@/lib/services/donors/export-donor-data";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/donors/:id/export: everything held about one donor, as a JSON file (ADMIN; audit-logged)
  GET: withRoute(
    {
      params: donorParams,
      scope: orgScope,
      role: "ADMIN",
      overload: "reports",
      doc: {
        operationId: "exportDonorData",
        summary: "Export one donor's data as JSON",
        description:
          "A downloadable JSON file (`donor-<id>-<YYYY-MM-DD>.json`) of everything the organization holds about the donor: " +
          "the profile, every donation (any status), recurring plans, the emails sent to them (type, subject, status and " +
          "times; never a body or a sign-in link) and their own data requests. Recorded in the audit log as `donor.exported`.",
        tag: "Donors",
        success: 200,
        response: donorDataExportSchema,
        responseDescription: "The donor's data (as an attachment)",
        notFound: "Organization not found, or Donor not found",
      },
    },
    async (ctx) => {
      const donor = await findDonorOfOrg(ctx.db, ctx.scope.orgId, ctx.params.id);
      if (!donor) throw notFound("Donor not found");
      const data = await exportDonorData(ctx.db, ctx.scope.org, donor, auditContextOf(ctx));
      return jsonDownload(data, donorExportFilename(donor.id));
    },
  ),
});
