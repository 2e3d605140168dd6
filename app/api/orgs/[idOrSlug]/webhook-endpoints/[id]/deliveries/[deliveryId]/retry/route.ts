import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { webhookDeliveryScope } from "@/lib/api/scopes";
import { webhookDeliveryParams } from "@/lib/schemas/webhooks";
import { retryWebhookDelivery } from "@/lib/services/webhooks/retry-webhook-delivery";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/webhook-endpoints/:id/deliveries/:deliveryId/retry: send that delivery's event again, now (ADMIN)
  POST: withRoute({ params: webhookDeliveryParams, scope: webhookDeliveryScope, role: "ADMIN" }, async ({ db, scope }) =>
    json(await retryWebhookDelivery(db, scope.endpoint, scope.delivery), { status: 202 }),
  ),
});
