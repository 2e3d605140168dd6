import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { webhookEndpointScope } from "@/lib/api/scopes";
import { webhookEndpointParams, webhookQueuedSchema } from "@/lib/schemas/webhooks";
import { sendTestWebhook } from "@/lib/services/webhooks/send-test-webhook";
import { ENDPOINT_DISABLED, ENDPOINT_NOT_FOUND } from "../../docs";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/webhook-endpoints/:id/test: queue a `webhook.test` event for this endpoint only (ADMIN)
  POST: withRoute(
    {
      params: webhookEndpointParams,
      scope: webhookEndpointScope,
      role: "ADMIN",
      doc: {
        operationId: "testWebhookEndpoint",
        summary: "Send a test event to an endpoint",
        description: "Queues a `webhook.test` event for this endpoint only, whatever event types it subscribes to.",
        tag: "Webhooks",
        success: 202,
        response: webhookQueuedSchema,
        responseDescription: "Queued",
        notFound: ENDPOINT_NOT_FOUND,
        conflicts: [ENDPOINT_DISABLED],
      },
    },
    async ({ db, scope }) => json(await sendTestWebhook(db, scope.endpoint), { status: 202 }),
  ),
});
