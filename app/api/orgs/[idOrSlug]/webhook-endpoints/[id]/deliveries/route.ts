import { listWebhookDeliveries } from "@/db/queries/webhooks";
import { listOf } from "@/lib/api/openapi";
import { pageList, pageOf } from "@/lib/api/pagination";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { webhookEndpointScope } from "@/lib/api/scopes";
import {
  listWebhookDeliveriesQuery,
  serializeWebhookDelivery,
  WEBHOOK_DELIVERY_DEFAULT_LIMIT,
  webhookDeliverySchema,
  webhookEndpointParams,
} from "@/lib/schemas/webhooks";
import { ENDPOINT_NOT_FOUND } from "../../docs";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/webhook-endpoints/:id/deliveries: the endpoint's delivery log, newest first, page-based (ADMIN)
  GET: withRoute(
    {
      params: webhookEndpointParams,
      scope: webhookEndpointScope,
      role: "ADMIN",
      query: listWebhookDeliveriesQuery,
      doc: {
        operationId: "listWebhookDeliveries",
        summary: "An endpoint's delivery log",
        description:
          "Every attempt, newest first: the event, status code (null when no response came), error, latency and the first " +
          "1 KB of the answer. `limit` defaults to 25.",
        tag: "Webhooks",
        success: 200,
        response: listOf(webhookDeliverySchema),
        responseDescription: "A page of the delivery log",
        notFound: ENDPOINT_NOT_FOUND,
      },
    },
    async ({ db, scope, query }) => {
      const page = pageOf(query, WEBHOOK_DELIVERY_DEFAULT_LIMIT);
      const { rows, total } = await listWebhookDeliveries(db, scope.endpoint.id, page);
      return ok(pageList(rows.map(serializeWebhookDelivery), page, total));
    },
  ),
});
