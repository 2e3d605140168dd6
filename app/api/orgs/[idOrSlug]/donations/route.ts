import { listDonationsPage } from "@/db/queries/donations";
import { ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { orgParam } from "@/lib/schemas/common";
import { encodeDonationCursor, listDonationsQuery, serializeDonation } from "@/lib/schemas/donations";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/donations: newest first, cursor-paged, filtered (members)
  GET: withRoute({ params: orgParam, scope: orgScope, query: listDonationsQuery }, async ({ db, scope, query }) => {
    const { limit, cursor, ...filter } = query;
    const { rows, nextCursor } = await listDonationsPage(db, scope.orgId, filter, { limit, cursor });
    return ok({
      data: rows.map((r) => serializeDonation(r.donation)),
      pagination: { limit, nextCursor: nextCursor ? encodeDonationCursor(nextCursor) : null },
    });
  }),
});
