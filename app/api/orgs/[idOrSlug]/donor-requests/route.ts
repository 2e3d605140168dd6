import { listDonorRequests } from "@/db/queries/donor-requests";
import { ok } from "@/lib/api/respond";
import { ORG_ADMIN_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { donorRequestListSchema, serializeDonorRequest } from "@/lib/schemas/donor-data";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/donor-requests: donors' export and erasure requests, pending first (ADMIN)
  GET: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      doc: {
        operationId: "listDonorRequests",
        summary: "List donors' data requests",
        description:
          "The export and erasure requests donors made from their accounts: PENDING ones first (oldest first, the queue " +
          "to review), then decided ones, newest first; at most 200. An erasure request is PENDING only when the " +
          "organization reviews erasures (`donorErasureNeedsApproval`).",
        tag: "Donors",
        success: 200,
        response: donorRequestListSchema,
        responseDescription: "The requests",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope }) => ok({ data: (await listDonorRequests(db, scope.orgId)).map((r) => serializeDonorRequest(r.request, r.donor)) }),
  ),
});
