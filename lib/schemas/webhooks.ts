import { z } from "zod";
import type { payouts, WebhookDelivery, WebhookEndpoint } from "@/db/schema";
import { isHttpUrl, iso, pageQuery, plainText } from "./common";

/** The events an endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  "donation.succeeded",
  "donation.failed",
  "donation.disputed",
  "donation.refunded",
  "donation.voided",
  "recurring_plan.created",
  "recurring_plan.canceled",
  "recurring_plan.past_due",
  "recurring_plan.recovered",
  "campaign.created",
  "campaign.updated",
  "campaign.published",
  "campaign.ended",
  "fundraiser.created",
  "fundraiser.approved",
  "payout.paid",
  "payout.failed",
  "donor.erased",
  "donor.merged",
  "import.completed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Sent only by `POST …/webhook-endpoints/:id/test`, to that endpoint, whatever it subscribes to. */
export const TEST_EVENT_TYPE = "webhook.test";

const webhookUrl = z
  .string()
  .trim()
  .max(2048)
  .refine(isHttpUrl, "Must be an https URL")
  .meta({ description: "Where events are POSTed. https; http only when the server allows private webhook URLs." });

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((types) => [...new Set(types)])
  .meta({ description: "The event types to receive; empty (the default) means all of them." });

const description = plainText(500)
  .nullish()
  .transform((v) => (v ? v : null));

export const createWebhookEndpointBody = z
  .object({ url: webhookUrl, description, eventTypes: eventTypes.optional() })
  .meta({ id: "CreateWebhookEndpoint" });

export const updateWebhookEndpointBody = z
  .object({
    url: webhookUrl,
    description,
    eventTypes,
    enabled: z.boolean().meta({ description: "Re-enabling an endpoint clears its failure state." }),
    rotateSecret: z.literal(true).meta({ description: "Replace the signing secret; the answer shows the new one, once." }),
  })
  .partial()
  .meta({ id: "UpdateWebhookEndpoint" });

export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointBody>;
export type UpdateWebhookEndpointInput = z.output<typeof updateWebhookEndpointBody>;

export const webhookEndpointParams = z.object({ idOrSlug: z.string().min(1).max(100), id: z.string().min(1).max(100) });
export const webhookDeliveryParams = webhookEndpointParams.extend({ deliveryId: z.string().min(1).max(100) });

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    orgId: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)).meta({ description: "Empty: every event type." }),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    failingSince: z
      .string()
      .nullable()
      .meta({ description: "First failed delivery since the last success; five days of failures disable the endpoint." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "WebhookEndpoint" });

export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({
    secret: z.string().meta({ description: "The Standard Webhooks signing secret (`whsec_…`). Shown only here: store it now." }),
  })
  .meta({ id: "WebhookEndpointWithSecret" });

export type WebhookEndpointView = z.output<typeof webhookEndpointSchema>;

export function serializeWebhookEndpoint(e: WebhookEndpoint): WebhookEndpointView {
  return {
    id: e.id,
    orgId: e.orgId,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes as WebhookEventType[],
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    failingSince: iso(e.failingSince),
    createdAt: iso(e.createdAt)!,
    updatedAt: iso(e.updatedAt)!,
  };
}

/** The endpoint with its signing secret in clear (stored encrypted: only a new or rotated one is at hand). */
export const serializeWebhookEndpointWithSecret = (e: WebhookEndpoint, secret: string) => ({ ...serializeWebhookEndpoint(e), secret });

export const WEBHOOK_DELIVERY_DEFAULT_LIMIT = 25;

export const listWebhookDeliveriesQuery = z.object(pageQuery);

export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    endpointId: z.string(),
    eventId: z.string().meta({ description: "The event's ID, also its `webhook-id` header." }),
    eventType: z.string(),
    attempt: z.number().int().meta({ description: "Attempt number within its run of retries (a manual retry starts again at 1)." }),
    success: z.boolean(),
    statusCode: z.number().int().nullable().meta({ description: "The HTTP status answered; null when no response came." }),
    error: z.string().nullable(),
    latencyMs: z.number().int().nullable(),
    responseBody: z.string().nullable().meta({ description: "The first 1 KB of the response body." }),
    createdAt: z.string(),
  })
  .meta({ id: "WebhookDelivery" });

export type WebhookDeliveryView = z.output<typeof webhookDeliverySchema>;

export function serializeWebhookDelivery(d: WebhookDelivery & { eventType: string }): WebhookDeliveryView {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    attempt: d.attempt,
    success: d.statusCode !== null && d.statusCode >= 200 && d.statusCode < 300,
    statusCode: d.statusCode,
    error: d.error,
    latencyMs: d.latencyMs,
    responseBody: d.responseBody,
    createdAt: iso(d.createdAt)!,
  };
}

export const webhookQueuedSchema = z
  .object({
    eventId: z.string(),
    endpointId: z.string(),
  })
  .meta({ id: "WebhookQueued" });

/** A payout as outbound webhooks show it (`payout.paid` / `payout.failed`). */
export type PayoutView = {
  id: string;
  orgId: string;
  amount: number;
  currency: string;
  status: string;
  arrivalDate: string | null;
  failureMessage: string | null;
  createdAt: string;
  updatedAt: string;
};

export function serializePayout(p: typeof payouts.$inferSelect): PayoutView {
  return {
    id: p.id,
    orgId: p.orgId,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    arrivalDate: iso(p.arrivalDate),
    failureMessage: p.failureMessage,
    createdAt: iso(p.createdAt)!,
    updatedAt: iso(p.updatedAt)!,
  };
}
