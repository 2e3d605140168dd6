import { listPageGifts, listSupporterPages } from "@/db/queries/fundraisers";
import { listOf } from "@/lib/api/openapi";
import { pageList, pageOf } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donorListQuery, donorOrgParam } from "@/lib/schemas/donor-account";
import { fundraiserGiftSchema, serializeFundraiserGift } from "@/lib/schemas/fundraisers";

const GIFTS_DEFAULT_LIMIT = 25;

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/supporter/orgs/:orgSlug/fundraisers/gifts: gifts received by the supporter's pages, with donors' messages (donor cookie)
  GET: withRoute(
    {
      auth: "donor",
      params: donorOrgParam,
      query: donorListQuery,
      doc: {
        operationId: "listSupporterFundraiserGifts",
        summary: "List the gifts the supporter's pages received",
        description:
          "Gifts to the signed-in supporter's pages (counted, refunded or disputed), newest first, page-based (`limit` " +
          `defaults to ${GIFTS_DEFAULT_LIMIT}): the donor's name (\"Anonymous\" when they asked) and message.`,
        tag: "Supporter pages",
        success: 200,
        response: listOf(fundraiserGiftSchema),
        responseDescription: "A page of gifts received",
      },
    },
    async ({ db, org, donor, query }) => {
      const page = pageOf(query, GIFTS_DEFAULT_LIMIT);
      const pages = await listSupporterPages(db, org.id, donor.id);
      const { rows, total } = await listPageGifts(
        db,
        pages.map((p) => p.id),
        page,
      );
      return ok(pageList(rows.map(serializeFundraiserGift), page, total));
    },
  ),
});
