import { z } from "zod";
import { auditContextOf } from "@/lib/api/audit";
import { noContent, ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { webhookEndpointScope } from "@/lib/api/scopes";
import {
  serializeWebhookEndpoint,
  serializeWebhookEndpointWithSecret,
  updateWebhookEndpointBody,
  webhookEndpointParams,
  webhookEndpointSchema,
} from "@/lib/schemas/webhooks";
import { deleteWebhookEndpoint } from "@/lib/services/webhooks/delete-webhook-endpoint";
import { updateWebhookEndpoint } from "@/lib/services/webhooks/update-webhook-endpoint";
import { ENDPOINT_NOT_FOUND } from "../docs";

const params = webhookEndpointParams;

const updatedWebhookEndpoint = webhookEndpointSchema
  .extend({ secret: z.string().optional().meta({ description: "Only after `rotateSecret`." }) })
  .meta({ id: "UpdatedWebhookEndpoint" });

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/webhook-endpoints/:id: one endpoint, without its secret (ADMIN)
  GET: withRoute(
    {
      params,
      scope: webhookEndpointScope,
      role: "ADMIN",
      doc: {
        operationId: "getWebhookEndpoint",
        summary: "Get a webhook endpoint",
        description: "Without its secret.",
        tag: "Webhooks",
        success: 200,
        response: webhookEndpointSchema,
        responseDescription: "The endpoint",
        notFound: ENDPOINT_NOT_FOUND,
      },
    },
    async ({ scope }) => ok(serializeWebhookEndpoint(scope.endpoint)),
  ),
  // PATCH /api/orgs/:idOrSlug/webhook-endpoints/:id: change the URL, events or description, enable/disable, rotate the secret (ADMIN)
  PATCH: withRoute(
    {
      params,
      scope: webhookEndpointScope,
      role: "ADMIN",
      body: updateWebhookEndpointBody,
      doc: {
        operationId: "updateWebhookEndpoint",
        summary: "Update, enable, disable a webhook endpoint or rotate its secret",
        description:
          "Re-enabling clears the failure state. `rotateSecret: true` replaces the secret at once (the answer shows the new " +
          "one, once; pending retries are signed with it).",
        tag: "Webhooks",
        bodyExamples: {
          reenable: { summary: "Enable again after automatic disabling", value: { enabled: true } },
          rotate: { summary: "Rotate the signing secret", value: { rotateSecret: true } },
        },
        success: 200,
        response: updatedWebhookEndpoint,
        responseDescription: "The endpoint (with `secret` only when it was rotated)",
        notFound: ENDPOINT_NOT_FOUND,
      },
    },
    async (ctx) => {
      const { endpoint, secret } = await updateWebhookEndpoint(ctx.db, ctx.scope.endpoint, ctx.body, auditContextOf(ctx));
      return ok(secret ? serializeWebhookEndpointWithSecret(endpoint, secret) : serializeWebhookEndpoint(endpoint));
    },
  ),
  // DELETE /api/orgs/:idOrSlug/webhook-endpoints/:id: remove an endpoint and its delivery log (ADMIN)
  DELETE: withRoute(
    {
      params,
      scope: webhookEndpointScope,
      role: "ADMIN",
      doc: {
        operationId: "deleteWebhookEndpoint",
        summary: "Delete a webhook endpoint",
        description: "Its delivery log goes with it; events queued for it are not sent.",
        tag: "Webhooks",
        success: 204,
        responseDescription: "Deleted",
        notFound: ENDPOINT_NOT_FOUND,
      },
    },
    async (ctx) => {
      await deleteWebhookEndpoint(ctx.db, ctx.scope.endpoint.id, auditContextOf(ctx));
      return noContent();
    },
  ),
});
