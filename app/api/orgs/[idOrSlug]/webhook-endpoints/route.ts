import { listWebhookEndpoints } from "@/db/queries/webhooks";
import { wholeList } from "@/lib/api/pagination";
import { created, ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { orgParam } from "@/lib/schemas/common";
import { createWebhookEndpointBody, serializeWebhookEndpoint, serializeWebhookEndpointWithSecret } from "@/lib/schemas/webhooks";
import { createWebhookEndpoint } from "@/lib/services/webhooks/create-webhook-endpoint";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/webhook-endpoints: the organization's outbound webhook endpoints, newest first, without secrets (ADMIN)
  GET: withRoute({ params: orgParam, scope: orgScope, role: "ADMIN" }, async ({ db, scope }) => {
    const rows = await listWebhookEndpoints(db, scope.orgId);
    return ok({ data: rows.map(serializeWebhookEndpoint), pagination: wholeList(rows.length) });
  }),
  // POST /api/orgs/:idOrSlug/webhook-endpoints: add an endpoint; the answer shows its signing secret, once (ADMIN)
  POST: withRoute({ params: orgParam, scope: orgScope, role: "ADMIN", body: createWebhookEndpointBody }, async ({ db, scope, body }) => {
    const { endpoint, secret } = await createWebhookEndpoint(db, scope.orgId, body);
    return created(serializeWebhookEndpointWithSecret(endpoint, secret));
  }),
});
