import { listDonors } from "@/db/queries/donors";
import { listOf } from "@/lib/api/openapi";
import { pageList, pageOf } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { ORG_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { DONOR_LIST_DEFAULT_LIMIT, donorSchema, listDonorsQuery, serializeDonor } from "@/lib/schemas/donors";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/donors: donors with their totals, searched and sorted, page-based (members)
  GET: withRoute(
    {
      ...ORG_ROUTE,
      query: listDonorsQuery,
      doc: {
        operationId: "listDonors",
        summary: "List an organization's donors with their totals",
        description:
          "Page-based (`limit` defaults to 25). Totals count SUCCEEDED donations only. `q` searches the email, first " +
          "and last name; `tag` keeps the donors carrying that tag; `sort` and `order` choose the order (default: biggest " +
          "total first).",
        tag: "Donors",
        success: 200,
        response: listOf(donorSchema),
        responseDescription: "A page of donors",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) => {
      const page = pageOf(query, DONOR_LIST_DEFAULT_LIMIT);
      const { rows, total } = await listDonors(db, scope.orgId, { q: query.q, tag: query.tag, sort: query.sort, order: query.order }, page);
      return ok(pageList(rows.map(serializeDonor), page, total));
    },
  ),
});
