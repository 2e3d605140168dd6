import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { webhookEndpointScope } from "@/lib/api/scopes";
import { webhookEndpointParams } from "@/lib/schemas/webhooks";
import { sendTestWebhook } from "@/lib/services/webhooks/send-test-webhook";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/webhook-endpoints/:id/test: queue a `webhook.test` event for this endpoint only (ADMIN)
  POST: withRoute({ params: webhookEndpointParams, scope: webhookEndpointScope, role: "ADMIN" }, async ({ db, scope }) =>
    json(await sendTestWebhook(db, scope.endpoint), { status: 202 }),
  ),
});
