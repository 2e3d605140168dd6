import { findDonor } from "@/db/queries/donors";
import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/processor";
import { donorRequestParams, donorRequestSchema, serializeDonorRequest } from "@/lib/schemas/donor-data";
import { approveDonorRequest } from "@/lib/services/donors/donor-requests";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/donor-requests/:id/approve: carry out a donor's pending erasure request (ADMIN)
  POST: withRoute(
    {
      params: donorRequestParams,
      scope: orgScope,
      role: "ADMIN",
      doc: {
        operationId: "approveDonorRequest",
        summary: "Approve a donor's erasure request",
        description:
          "Erases the donor (as `POST /api/orgs/:idOrSlug/donors/:id/erase` does) and marks the request COMPLETED. " +
          "Approving a completed request answers it again; a rejected one is 409.",
        tag: "Donors",
        success: 200,
        response: donorRequestSchema,
        responseDescription: "The completed request",
        notFound: "Organization not found, or Donor request not found",
        conflicts: ["Donor request was already decided"],
      },
    },
    async (ctx) => {
      const request = await approveDonorRequest(ctx.db, await getProcessor(), ctx.scope.orgId, ctx.params.id, auditContextOf(ctx));
      return ok(serializeDonorRequest(request, (await findDonor(ctx.db, request.donorId))!));
    },
  ),
});
