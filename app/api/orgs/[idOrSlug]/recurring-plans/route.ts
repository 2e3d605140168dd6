import { listRecurringPlans } from "@/db/queries/recurring-plans";
import { listOf } from "@/lib/api/openapi";
import { pageList, pageOf } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { ORG_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import {
  listRecurringPlansQuery,
  RECURRING_PLAN_LIST_DEFAULT_LIMIT,
  recurringPlanSchema,
  serializeRecurringPlan,
} from "@/lib/schemas/recurring-plans";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/recurring-plans: recurring gifts, newest first, page-based (members)
  GET: withRoute(
    {
      ...ORG_ROUTE,
      query: listRecurringPlansQuery,
      doc: {
        operationId: "listRecurringPlans",
        summary: "List an organization's recurring plans",
        description:
          "Newest first, page-based (`limit` defaults to 25), optionally of one `status`; each with the count and sum " +
          "of its SUCCEEDED donations (the first gift and every renewal).",
        tag: "Recurring plans",
        success: 200,
        response: listOf(recurringPlanSchema),
        responseDescription: "A page of recurring plans",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) => {
      const page = pageOf(query, RECURRING_PLAN_LIST_DEFAULT_LIMIT);
      const { rows, total } = await listRecurringPlans(db, scope.orgId, { status: query.status }, page);
      return ok(pageList(rows.map(serializeRecurringPlan), page, total));
    },
  ),
});
