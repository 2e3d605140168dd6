import { listWebhookDeliveries } from "@/db/queries/webhooks";
import { pagePagination } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { webhookEndpointScope } from "@/lib/api/scopes";
import {
  listWebhookDeliveriesQuery,
  serializeWebhookDelivery,
  WEBHOOK_DELIVERY_DEFAULT_LIMIT,
  webhookEndpointParams,
} from "@/lib/schemas/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/webhook-endpoints/:id/deliveries: the endpoint's delivery log, newest first, page-based (ADMIN)
  GET: withRoute(
    { params: webhookEndpointParams, scope: webhookEndpointScope, role: "ADMIN", query: listWebhookDeliveriesQuery },
    async ({ db, scope, query }) => {
      const page = { page: query.page ?? 1, limit: query.limit ?? WEBHOOK_DELIVERY_DEFAULT_LIMIT };
      const { rows, total } = await listWebhookDeliveries(db, scope.endpoint.id, page);
      return ok({ data: rows.map(serializeWebhookDelivery), pagination: pagePagination(page.page, page.limit, total) });
    },
  ),
});
