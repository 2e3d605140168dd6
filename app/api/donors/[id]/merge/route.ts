import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donorScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { donorSchema, mergeDonorBody, serializeDonor } from "@/lib/schemas/donors";
import { mergeDonors } from "@/lib/services/donors/merge-donors";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/donors/:id/merge: merge another donor of the organization into this one (ADMIN)
  POST: withRoute(
    {
      params: idParam,
      scope: donorScope,
      role: "ADMIN",
      body: mergeDonorBody,
      doc: {
        operationId: "mergeDonors",
        summary: "Merge a donor into this one",
        description:
          "For two records of the same person. This donor keeps its ID, email and email consent, and takes the other's " +
          "name, phone, address and language where it has none, and the union of both tag lists (409 `donor_tags_limit` " +
          "beyond 50). Every donation, recurring plan (and so its later renewals), note and data request of `sourceDonorId` " +
          "moves here; both donors' totals are recomputed and the source donor is removed, which signs its donor-account " +
          "sessions out. Another organization's donor: 404; this donor itself: 400; an erased donor: 409. Recorded in " +
          "the audit log as `donor.merged`; emits `donor.merged` `{ donorId, mergedDonorId }`.",
        tag: "Donors",
        success: 200,
        response: donorSchema,
        responseDescription: "The merged donor",
        notFound: "Donor not found",
        conflicts: ["An erased donor cannot be merged", "The merged donor would have more than 50 tags"],
      },
    },
    async (ctx) =>
      ok(serializeDonor(await mergeDonors(ctx.db, ctx.scope.orgId, ctx.scope.donor.id, ctx.body.sourceDonorId, auditContextOf(ctx)))),
  ),
});
