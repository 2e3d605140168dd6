import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { DONOR_REQUEST_DECISION_DOC, DONOR_REQUEST_DECISION_ROUTE, serializeDecidedDonorRequest } from "@/lib/api/donor-requests";
import { methods, withRoute } from "@/lib/api/route";
import { rejectDonorRequest } from "@/lib/services/donors/donor-requests";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/donor-requests/:id/reject: decline a donor's pending erasure request (ADMIN)
  POST: withRoute(
    {
      ...DONOR_REQUEST_DECISION_ROUTE,
      doc: {
        ...DONOR_REQUEST_DECISION_DOC,
        operationId: "rejectDonorRequest",
        summary: "Reject a donor's erasure request",
        description: "Marks a PENDING request REJECTED, nothing is erased; recorded in the audit log as `donor_request.rejected`.",
        responseDescription: "The rejected request",
      },
    },
    async (ctx) => {
      const request = await rejectDonorRequest(ctx.db, ctx.scope.orgId, ctx.params.id, auditContextOf(ctx));
      return ok(await serializeDecidedDonorRequest(ctx.db, request));
    },
  ),
});
