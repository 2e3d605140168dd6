import { listWebhookEndpoints } from "@/db/queries/webhooks";
import { auditContextOf } from "@/lib/api/audit";
import { listOf } from "@/lib/api/openapi";
import { wholeListOf } from "@/lib/api/pagination";
import { created, ok } from "@/lib/api/respond";
import { ORG_ADMIN_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import {
  createWebhookEndpointBody,
  serializeWebhookEndpoint,
  serializeWebhookEndpointWithSecret,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from "@/lib/schemas/webhooks";
import { createWebhookEndpoint } from "@/lib/services/webhooks/create-webhook-endpoint";
import { WEBHOOK_DELIVERY } from "./docs";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/webhook-endpoints: the organization's outbound webhook endpoints, newest first, without secrets (ADMIN)
  GET: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      doc: {
        operationId: "listWebhookEndpoints",
        summary: "List the organization's webhook endpoints",
        description: "Newest first, not paged. Secrets are never listed.",
        tag: "Webhooks",
        success: 200,
        response: listOf(webhookEndpointSchema),
        responseDescription: "The endpoints",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope }) => {
      const rows = await listWebhookEndpoints(db, scope.orgId);
      return ok(wholeListOf(rows.map(serializeWebhookEndpoint)));
    },
  ),
  // POST /api/orgs/:idOrSlug/webhook-endpoints: add an endpoint; the answer shows its signing secret, once (ADMIN)
  POST: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      sensitive: true,
      body: createWebhookEndpointBody,
      doc: {
        operationId: "createWebhookEndpoint",
        summary: "Add a webhook endpoint",
        description: `The answer includes the signing \`secret\`, shown only here and when rotated. ${WEBHOOK_DELIVERY}`,
        tag: "Webhooks",
        bodyExamples: {
          all: { summary: "Every event", value: { url: "https://hooks.example.org/goodfund" } },
          donations: {
            summary: "Only settled donations",
            value: {
              url: "https://crm.example.org/hooks/goodfund",
              description: "CRM sync",
              eventTypes: ["donation.succeeded", "donation.refunded"],
            },
          },
        },
        success: 201,
        response: webhookEndpointWithSecretSchema,
        responseDescription: "The new endpoint with its signing secret",
        notFound: "Organization not found",
        conflicts: ["An organization can have at most 20 webhook endpoints"],
      },
    },
    async (ctx) => {
      const { endpoint, secret } = await createWebhookEndpoint(ctx.db, ctx.scope.orgId, ctx.body, auditContextOf(ctx));
      return created(serializeWebhookEndpointWithSecret(endpoint, secret));
    },
  ),
});
