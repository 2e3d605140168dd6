import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { webhookDeliveryScope } from "@/lib/api/scopes";
import { webhookDeliveryParams, webhookQueuedSchema } from "@/lib/schemas/webhooks";
import { retryWebhookDelivery } from "@/lib/services/webhooks/retry-webhook-delivery";
import { ENDPOINT_DISABLED, ENDPOINT_NOT_FOUND } from "../../../../docs";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/webhook-endpoints/:id/deliveries/:deliveryId/retry: send that delivery's event again, now (ADMIN)
  POST: withRoute(
    {
      params: webhookDeliveryParams,
      scope: webhookDeliveryScope,
      role: "ADMIN",
      doc: {
        operationId: "retryWebhookDelivery",
        summary: "Send a logged delivery's event again",
        description: "Queues the event for this endpoint now, with the same `webhook-id`; it gets its own run of retries.",
        tag: "Webhooks",
        success: 202,
        response: webhookQueuedSchema,
        responseDescription: "Queued",
        notFound: `${ENDPOINT_NOT_FOUND}, or Delivery not found`,
        conflicts: [ENDPOINT_DISABLED],
      },
    },
    async ({ db, scope }) => json(await retryWebhookDelivery(db, scope.endpoint, scope.delivery), { status: 202 }),
  ),
});
