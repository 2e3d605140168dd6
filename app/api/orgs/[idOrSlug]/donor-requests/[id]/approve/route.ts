import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { DONOR_REQUEST_DECISION_DOC, DONOR_REQUEST_DECISION_ROUTE, serializeDecidedDonorRequest } from "@/lib/api/donor-requests";
import { methods, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { approveDonorRequest } from "@/lib/services/donors/donor-requests";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/donor-requests/:id/approve: carry out a donor's pending erasure request (ADMIN)
  POST: withRoute(
    {
      ...DONOR_REQUEST_DECISION_ROUTE,
      doc: {
        ...DONOR_REQUEST_DECISION_DOC,
        operationId: "approveDonorRequest",
        summary: "Approve a donor's erasure request",
        description:
          "Erases the donor (as `POST /api/orgs/:idOrSlug/donors/:id/erase` does) and marks the request COMPLETED. " +
          "Approving a completed request answers it again; a rejected one is 409.",
        responseDescription: "The completed request",
      },
    },
    async (ctx) => {
      const request = await approveDonorRequest(ctx.db, await getProcessor(), ctx.scope.orgId, ctx.params.id, auditContextOf(ctx));
      return ok(await serializeDecidedDonorRequest(ctx.db, request));
    },
  ),
});
