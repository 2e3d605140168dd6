import { listDonorDonations } from "@/db/queries/donor-account";
import { listOf } from "@/lib/api/openapi";
import { pageList, pageOf } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { DONOR_LIST_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { DONOR_LIST_DEFAULT_LIMIT, donorDonationSchema, serializeDonorDonation } from "@/lib/schemas/donor-account";
import { donateBaseUrl } from "@/lib/schemas/organizations";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/donor/orgs/:orgSlug/donations: the signed-in donor's own gifts, newest first (donor)
  GET: withRoute(
    {
      ...DONOR_LIST_ROUTE,
      doc: {
        operationId: "listDonorDonations",
        summary: "List the donor's own gifts",
        description:
          "The signed-in donor's gifts to this organization (SUCCEEDED, REFUNDED and DISPUTED; never anyone else's), " +
          "newest first, page-based (`limit` defaults to 25), each with its receipt page.",
        tag: "Donor account",
        success: 200,
        response: listOf(donorDonationSchema),
        responseDescription: "A page of the donor's gifts",
      },
    },
    async ({ db, org, donor, query }) => {
      const page = pageOf(query, DONOR_LIST_DEFAULT_LIMIT);
      const { rows, total } = await listDonorDonations(db, org.id, donor.id, page);
      const base = donateBaseUrl(org);
      return ok(
        pageList(
          rows.map((r) => serializeDonorDonation(r, base, org.slug)),
          page,
          total,
        ),
      );
    },
  ),
});
