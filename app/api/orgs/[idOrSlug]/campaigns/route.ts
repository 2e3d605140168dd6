import { listCampaigns } from "@/db/queries/campaigns";
import { pagePagination, wholeList } from "@/lib/api/pagination";
import { created, ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { createCampaignBody, listCampaignsQuery, serializeCampaign } from "@/lib/schemas/campaigns";
import { orgParam } from "@/lib/schemas/common";
import { createCampaign } from "@/lib/services/campaigns/create-campaign";

const DEFAULT_LIMIT = 20;

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/campaigns: newest first; all of them unless `page` or `limit` is given (members)
  GET: withRoute({ params: orgParam, scope: orgScope, query: listCampaignsQuery }, async ({ db, scope, query }) => {
    const paged = query.page !== undefined || query.limit !== undefined;
    const page = paged ? { page: query.page ?? 1, limit: query.limit ?? DEFAULT_LIMIT } : undefined;
    const { rows, total } = await listCampaigns(db, scope.orgId, { status: query.status, type: query.type }, page);
    return ok({
      data: rows.map(serializeCampaign),
      pagination: page ? pagePagination(page.page, page.limit, total) : wholeList(total),
    });
  }),
  // POST /api/orgs/:idOrSlug/campaigns: create a campaign (ADMIN)
  POST: withRoute({ params: orgParam, scope: orgScope, role: "ADMIN", body: createCampaignBody }, async ({ db, scope, body }) =>
    created(serializeCampaign(await createCampaign(db, scope.org, body))),
  ),
});
