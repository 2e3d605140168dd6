import { z } from "zod";
import { orgParam, pagePagination } from "@/lib/schemas/common";
import {
  createWebhookEndpointBody,
  listWebhookDeliveriesQuery,
  updateWebhookEndpointBody,
  WEBHOOK_EVENT_TYPES,
  webhookDeliveryParams,
  webhookDeliverySchema,
  webhookEndpointParams,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  webhookQueuedSchema,
} from "@/lib/schemas/webhooks";
import { listOf, type OperationRow } from "./types";

const DELIVERY =
  `Events: ${WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\``).join(", ")}. Each is POSTed as JSON ` +
  "`{ id, type, createdAt, data }` (`data` is the resource as this API shows it) and signed per the Standard Webhooks " +
  "specification: headers `webhook-id` (the event ID, the same on every retry), `webhook-timestamp` and " +
  "`webhook-signature` (verify with any Standard Webhooks library and the endpoint's secret). Any 2xx answer within " +
  "10 seconds is a success; otherwise the delivery is retried with exponential backoff (the first retry within 30 " +
  "seconds) for about three days. Redirects are not followed. An endpoint whose deliveries have failed for five days " +
  "is disabled. URLs must be https and must not resolve to private, loopback or link-local addresses (checked when " +
  "saved and again before every delivery).";

const NOT_FOUND = "Organization not found, or Webhook endpoint not found";
const DISABLED = "Webhook endpoint is disabled";

/** Outbound webhooks: endpoints, their delivery log, retries and test pings. */
export const WEBHOOK_OPERATIONS: readonly OperationRow[] = [
  {
    file: "orgs/[idOrSlug]/webhook-endpoints",
    method: "GET",
    operationId: "listWebhookEndpoints",
    summary: "List the organization's webhook endpoints",
    description: "Newest first, not paged. Secrets are never listed.",
    tag: "Webhooks",
    access: "ADMIN",
    limit: "authenticated",
    params: orgParam,
    success: 200,
    response: listOf(webhookEndpointSchema),
    responseDescription: "The endpoints",
    notFound: "Organization not found",
  },
  {
    file: "orgs/[idOrSlug]/webhook-endpoints",
    method: "POST",
    operationId: "createWebhookEndpoint",
    summary: "Add a webhook endpoint",
    description: `The answer includes the signing \`secret\`, shown only here and when rotated. ${DELIVERY}`,
    tag: "Webhooks",
    access: "ADMIN",
    limit: "authenticated",
    params: orgParam,
    body: createWebhookEndpointBody,
    bodyExamples: {
      all: { summary: "Every event", value: { url: "https://hooks.example.org/goodfund" } },
      donations: {
        summary: "Only settled donations",
        value: { url: "https://crm.example.org/hooks/goodfund", description: "CRM sync", eventTypes: ["donation.succeeded", "donation.refunded"] },
      },
    },
    success: 201,
    response: webhookEndpointWithSecretSchema,
    responseDescription: "The new endpoint with its signing secret",
    notFound: "Organization not found",
    conflicts: ["An organization can have at most 20 webhook endpoints"],
  },
  {
    file: "orgs/[idOrSlug]/webhook-endpoints/[id]",
    method: "GET",
    operationId: "getWebhookEndpoint",
    summary: "Get a webhook endpoint",
    description: "Without its secret.",
    tag: "Webhooks",
    access: "ADMIN",
    limit: "authenticated",
    params: webhookEndpointParams,
    success: 200,
    response: webhookEndpointSchema,
    responseDescription: "The endpoint",
    notFound: NOT_FOUND,
  },
  {
    file: "orgs/[idOrSlug]/webhook-endpoints/[id]",
    method: "PATCH",
    operationId: "updateWebhookEndpoint",
    summary: "Update, enable, disable a webhook endpoint or rotate its secret",
    description:
      "Re-enabling clears the failure state. `rotateSecret: true` replaces the secret at once (the answer shows the new " +
      "one, once; pending retries are signed with it).",
    tag: "Webhooks",
    access: "ADMIN",
    limit: "authenticated",
    params: webhookEndpointParams,
    body: updateWebhookEndpointBody,
    bodyExamples: {
      reenable: { summary: "Enable again after automatic disabling", value: { enabled: true } },
      rotate: { summary: "Rotate the signing secret", value: { rotateSecret: true } },
    },
    success: 200,
    response: webhookEndpointSchema
      .extend({ secret: z.string().optional().meta({ description: "Only after `rotateSecret`." }) })
      .meta({ id: "UpdatedWebhookEndpoint" }),
    responseDescription: "The endpoint (with `secret` only when it was rotated)",
    notFound: NOT_FOUND,
  },
  {
    file: "orgs/[idOrSlug]/webhook-endpoints/[id]",
    method: "DELETE",
    operationId: "deleteWebhookEndpoint",
    summary: "Delete a webhook endpoint",
    description: "Its delivery log goes with it; events queued for it are not sent.",
    tag: "Webhooks",
    access: "ADMIN",
    limit: "authenticated",
    params: webhookEndpointParams,
    success: 204,
    responseDescription: "Deleted",
    notFound: NOT_FOUND,
  },
  {
    file: "orgs/[idOrSlug]/webhook-endpoints/[id]/deliveries",
    method: "GET",
    operationId: "listWebhookDeliveries",
    summary: "An endpoint's delivery log",
    description: "Every attempt, newest first: the event, status code (null when no response came), error, latency and the first 1 KB of the answer. `limit` defaults to 25.",
    tag: "Webhooks",
    access: "ADMIN",
    limit: "authenticated",
    params: webhookEndpointParams,
    query: listWebhookDeliveriesQuery,
    success: 200,
    response: z.object({ data: z.array(webhookDeliverySchema), pagination: pagePagination }),
    responseDescription: "A page of the delivery log",
    notFound: NOT_FOUND,
  },
  {
    file: "orgs/[idOrSlug]/webhook-endpoints/[id]/deliveries/[deliveryId]/retry",
    method: "POST",
    operationId: "retryWebhookDelivery",
    summary: "Send a logged delivery's event again",
    description: "Queues the event for this endpoint now, with the same `webhook-id`; it gets its own run of retries.",
    tag: "Webhooks",
    access: "ADMIN",
    limit: "authenticated",
    params: webhookDeliveryParams,
    success: 202,
    response: webhookQueuedSchema,
    responseDescription: "Queued",
    notFound: `${NOT_FOUND}, or Delivery not found`,
    conflicts: [DISABLED],
  },
  {
    file: "orgs/[idOrSlug]/webhook-endpoints/[id]/test",
    method: "POST",
    operationId: "testWebhookEndpoint",
    summary: "Send a test event to an endpoint",
    description: "Queues a `webhook.test` event for this endpoint only, whatever event types it subscribes to.",
    tag: "Webhooks",
    access: "ADMIN",
    limit: "authenticated",
    params: webhookEndpointParams,
    success: 202,
    response: webhookQueuedSchema,
    responseDescription: "Queued",
    notFound: NOT_FOUND,
    conflicts: [DISABLED],
  },
];
