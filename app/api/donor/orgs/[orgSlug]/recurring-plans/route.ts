import { listRecurringPlansOfDonor } from "@/db/queries/recurring-plans";
import { listOf } from "@/lib/api/openapi";
import { pageList, pageOf } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { DONOR_LIST_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { DONOR_LIST_DEFAULT_LIMIT, donorRecurringPlanSchema, serializeDonorRecurringPlan } from "@/lib/schemas/donor-account";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/donor/orgs/:orgSlug/recurring-plans: the signed-in donor's own recurring plans, newest first (donor)
  GET: withRoute(
    {
      ...DONOR_LIST_ROUTE,
      doc: {
        operationId: "listDonorRecurringPlans",
        summary: "List the donor's own recurring plans",
        description:
          "The signed-in donor's weekly, monthly, quarterly and yearly gifts to this organization, canceled ones included, newest first, " +
          "page-based (`limit` defaults to 25), each with the count and sum of its SUCCEEDED charges.",
        tag: "Donor account",
        success: 200,
        response: listOf(donorRecurringPlanSchema),
        responseDescription: "A page of the donor's recurring plans",
      },
    },
    async ({ db, donor, query }) => {
      const page = pageOf(query, DONOR_LIST_DEFAULT_LIMIT);
      // A donor belongs to one organization, and has a handful of plans at most: one query, then the page.
      const all = await listRecurringPlansOfDonor(db, donor.id);
      const rows = all.slice((page.page - 1) * page.limit, page.page * page.limit);
      return ok(pageList(rows.map(serializeDonorRecurringPlan), page, all.length));
    },
  ),
});
