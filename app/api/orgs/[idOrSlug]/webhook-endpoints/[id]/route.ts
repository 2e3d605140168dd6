import { noContent, ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { webhookEndpointScope } from "@/lib/api/scopes";
import {
  serializeWebhookEndpoint,
  serializeWebhookEndpointWithSecret,
  updateWebhookEndpointBody,
  webhookEndpointParams,
} from "@/lib/schemas/webhooks";
import { deleteWebhookEndpoint } from "@/lib/services/webhooks/delete-webhook-endpoint";
import { updateWebhookEndpoint } from "@/lib/services/webhooks/update-webhook-endpoint";

const params = webhookEndpointParams;

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/webhook-endpoints/:id: one endpoint, without its secret (ADMIN)
  GET: withRoute({ params, scope: webhookEndpointScope, role: "ADMIN" }, async ({ scope }) => ok(serializeWebhookEndpoint(scope.endpoint))),
  // PATCH /api/orgs/:idOrSlug/webhook-endpoints/:id: change the URL, events or description, enable/disable, rotate the secret (ADMIN)
  PATCH: withRoute({ params, scope: webhookEndpointScope, role: "ADMIN", body: updateWebhookEndpointBody }, async ({ db, scope, body }) => {
    const { endpoint, secret } = await updateWebhookEndpoint(db, scope.endpoint, body);
    return ok(secret ? serializeWebhookEndpointWithSecret(endpoint, secret) : serializeWebhookEndpoint(endpoint));
  }),
  // DELETE /api/orgs/:idOrSlug/webhook-endpoints/:id: remove an endpoint and its delivery log (ADMIN)
  DELETE: withRoute({ params, scope: webhookEndpointScope, role: "ADMIN" }, async ({ db, scope }) => {
    await deleteWebhookEndpoint(db, scope.endpoint.id);
    return noContent();
  }),
});
