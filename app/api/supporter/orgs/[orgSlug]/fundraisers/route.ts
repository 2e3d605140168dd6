import { listSupporterPages } from "@/db/queries/fundraisers";
import { wholeListOf } from "@/lib/api/pagination";
import { listOf } from "@/lib/api/openapi";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donorOrgParam } from "@/lib/schemas/donor-account";
import { fundraiserPageSchema, serializeFundraiserPage } from "@/lib/schemas/fundraisers";
import { donateBaseUrl } from "@/lib/schemas/organizations";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/supporter/orgs/:orgSlug/fundraisers: the signed-in supporter's own fundraiser pages with totals (donor cookie)
  GET: withRoute(
    {
      auth: "donor",
      params: donorOrgParam,
      doc: {
        operationId: "listSupporterFundraisers",
        summary: "List the supporter's own fundraiser pages",
        description:
          "The pages (and team pages) the signed-in supporter started on this organization, newest first, with their " +
          "totals, status and share URL. Never anyone else's.",
        tag: "Supporter pages",
        success: 200,
        response: listOf(fundraiserPageSchema),
        responseDescription: "The supporter's pages",
      },
    },
    async ({ db, org, donor }) => {
      const base = donateBaseUrl(org);
      return ok(wholeListOf((await listSupporterPages(db, org.id, donor.id)).map((c) => serializeFundraiserPage(c, base))));
    },
  ),
});
