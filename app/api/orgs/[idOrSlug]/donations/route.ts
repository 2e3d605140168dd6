import { listDonationsPage } from "@/db/queries/donations";
import { cursorList } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { ORG_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { donationListSchema, encodeDonationCursor, listDonationsQuery, serializeDonation } from "@/lib/schemas/donations";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/donations: newest first, cursor-paged, filtered (members)
  GET: withRoute(
    {
      ...ORG_ROUTE,
      query: listDonationsQuery,
      doc: {
        operationId: "listDonations",
        summary: "List an organization's donations",
        description:
          "Newest first (by creation time, ties by ID), cursor-paged: pass `pagination.nextCursor` as `cursor` for the " +
          "next page until it is null. Cursors are stable: donations created while paging never shift, repeat or hide a " +
          "row. Filters combine: `status`, `campaignId`, `from` (inclusive) and `to` (exclusive) on the creation time, " +
          "and `q`, a case-insensitive substring of the email, first or last name. A malformed cursor answers 400 on `cursor`.",
        tag: "Donations",
        success: 200,
        response: donationListSchema,
        responseDescription: "A page of donations",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) => {
      const { limit, cursor, ...filter } = query;
      const { rows, nextCursor } = await listDonationsPage(db, scope.orgId, filter, { limit, cursor });
      return ok(
        cursorList(
          rows.map((r) => serializeDonation(r.donation)),
          limit,
          nextCursor,
          encodeDonationCursor,
        ),
      );
    },
  ),
});
