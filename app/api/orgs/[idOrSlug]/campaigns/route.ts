import { listCampaigns } from "@/db/queries/campaigns";
import { auditContextOf } from "@/lib/api/audit";
import { listOf } from "@/lib/api/openapi";
import { pageOf, pagePagination, wholeList } from "@/lib/api/pagination";
import { created, ok } from "@/lib/api/respond";
import { ORG_ADMIN_ROUTE, ORG_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { campaignSchema, createCampaignBody, listCampaignsQuery, serializeCampaign } from "@/lib/schemas/campaigns";
import { createCampaign } from "@/lib/services/campaigns/create-campaign";

const DEFAULT_LIMIT = 20;

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/campaigns: newest first; all of them unless `page` or `limit` is given (members)
  GET: withRoute(
    {
      ...ORG_ROUTE,
      query: listCampaignsQuery,
      doc: {
        operationId: "listCampaigns",
        summary: "List an organization's campaigns",
        description: "Newest first. Without `page` or `limit` every campaign is returned on one page; `limit` defaults to 20 once paging.",
        tag: "Campaigns",
        success: 200,
        response: listOf(campaignSchema),
        responseDescription: "The campaigns",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) => {
      const paged = query.page !== undefined || query.limit !== undefined;
      const page = paged ? pageOf(query, DEFAULT_LIMIT) : undefined;
      const { rows, total } = await listCampaigns(db, scope.orgId, { status: query.status, type: query.type }, page);
      return ok({
        data: rows.map(serializeCampaign),
        pagination: page ? pagePagination(page.page, page.limit, total) : wholeList(total),
      });
    },
  ),
  // POST /api/orgs/:idOrSlug/campaigns: create a campaign (ADMIN)
  POST: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      body: createCampaignBody,
      doc: {
        operationId: "createCampaign",
        summary: "Create a campaign",
        description:
          "Defaults: status DRAFT, type DONATION, suggestedAmounts [2500, 5000, 10000], showDonorRoll, showGoal, " +
          "allowCustomAmount and allowRecurring true, matchingEnabled false, matchingRatioPct 100, maxTicketsPerOrder 10. " +
          "Gifts are taken from startDate (EVENT campaigns: their tickets sell before it, startDate being the event's " +
          "date) until endDate. Rules across fields " +
          "(endDate after startDate, EVENT needs ticketPriceCents and ticketCapacity, parentCampaignId names a " +
          "PEER_TO_PEER campaign of the same organization, …) answer 400 on the field concerned.",
        tag: "Campaigns",
        bodyExamples: {
          donation: {
            summary: "A donation campaign with a goal (created as a DRAFT)",
            value: {
              title: "Winter coat drive",
              description: "Warm coats for 500 children this winter.",
              goalAmountCents: 2_500_000,
              suggestedAmounts: [2500, 5000, 10000],
              allowRecurring: true,
              color: "#1a7f5a",
              startDate: "2030-11-01T00:00:00Z",
              endDate: "2030-12-31T23:59:59Z",
            },
          },
          event: {
            summary: "A ticketed event, published immediately",
            value: {
              title: "Spring gala 2030",
              type: "EVENT",
              status: "ACTIVE",
              ticketPriceCents: 15000,
              ticketCapacity: 200,
              maxTicketsPerOrder: 8,
              suggestedAmounts: [15000],
              allowCustomAmount: false,
            },
          },
        },
        success: 201,
        response: campaignSchema,
        responseDescription: "The new campaign",
        notFound: "Organization not found",
        conflicts: ["Campaign slug is already taken in this organization"],
      },
    },
    async (ctx) => created(serializeCampaign(await createCampaign(ctx.db, ctx.scope.org, ctx.body, auditContextOf(ctx)))),
  ),
});
