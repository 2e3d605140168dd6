import { findDonor } from "@/db/queries/donors";
import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { donorRequestParams, donorRequestSchema, serializeDonorRequest } from "@/lib/schemas/donor-data";
import { rejectDonorRequest } from "@/lib/services/donors/donor-requests";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/donor-requests/:id/reject: decline a donor's pending erasure request (ADMIN)
  POST: withRoute(
    {
      params: donorRequestParams,
      scope: orgScope,
      role: "ADMIN",
      doc: {
        operationId: "rejectDonorRequest",
        summary: "Reject a donor's erasure request",
        description: "Marks a PENDING request REJECTED, nothing is erased; recorded in the audit log as `donor_request.rejected`.",
        tag: "Donors",
        success: 200,
        response: donorRequestSchema,
        responseDescription: "The rejected request",
        notFound: "Organization not found, or Donor request not found",
        conflicts: ["Donor request was already decided"],
      },
    },
    async (ctx) => {
      const request = await rejectDonorRequest(ctx.db, ctx.scope.orgId, ctx.params.id, auditContextOf(ctx));
      return ok(serializeDonorRequest(request, (await findDonor(ctx.db, request.donorId))!));
    },
  ),
});
