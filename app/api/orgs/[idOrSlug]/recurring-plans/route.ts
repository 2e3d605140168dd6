import { listRecurringPlans } from "@/db/queries/recurring-plans";
import { pagePagination } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { orgParam } from "@/lib/schemas/common";
import { listRecurringPlansQuery, RECURRING_PLAN_LIST_DEFAULT_LIMIT, serializeRecurringPlan } from "@/lib/schemas/recurring-plans";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/recurring-plans: recurring gifts, newest first, page-based (members)
  GET: withRoute({ params: orgParam, scope: orgScope, query: listRecurringPlansQuery }, async ({ db, scope, query }) => {
    const page = { page: query.page ?? 1, limit: query.limit ?? RECURRING_PLAN_LIST_DEFAULT_LIMIT };
    const { rows, total } = await listRecurringPlans(db, scope.orgId, { status: query.status }, page);
    return ok({ data: rows.map(serializeRecurringPlan), pagination: pagePagination(page.page, page.limit, total) });
  }),
});
