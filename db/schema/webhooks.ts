import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { belongsTo, createdAt, timestamps, timestamptz } from "./columns";
import { organizations } from "./organizations";

/**
 * An organization's outbound webhook endpoint. Its secret signs every delivery (Standard
 * Webhooks: `whsec_` + base64); the API shows it only when it is created or rotated.
 * `failingSince` is the first failure after the last success; an endpoint failing for five days
 * is disabled.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    url: text().notNull(),
    description: text(),
    /** The event types it receives; empty means all of them. */
    eventTypes: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * The signing secret, encrypted (`enc:v1:…`, lib/webhooks-out/endpoint-secret.ts): read it with
     * openWebhookSecret, write it with sealWebhookSecret. Named apart from the clear value so
     * code can't mistake one for the other.
     */
    encryptedSecret: text("secret").notNull(),
    enabled: boolean().notNull().default(true),
    disabledReason: text(),
    failingSince: timestamptz(),
    ...timestamps(),
  },
  (t) => [index("webhook_endpoints_org_idx").on(t.orgId, t.createdAt)],
);

/**
 * One event as sent to every endpoint (`evt_…`, the `webhook-id` of its deliveries), written in
 * the transaction of the change it reports. `payload` is the exact JSON body.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    type: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_events_org_created_idx").on(t.orgId, t.createdAt.desc().nullsFirst())],
);

/** The delivery log: one row per attempt to send an event to an endpoint. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text().primaryKey(),
    endpointId: belongsTo(() => webhookEndpoints.id),
    eventId: belongsTo(() => webhookEvents.id),
    /** The attempt number of the outbox row that made it (a manual retry starts again at 1). */
    attempt: integer().notNull(),
    /** The HTTP status answered; null when no response came (refused, timeout, connection error) or nothing was sent. */
    statusCode: integer(),
    error: text(),
    latencyMs: integer(),
    /** The first 1 KB of the response body. */
    responseBody: text(),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("webhook_deliveries_event_idx").on(t.eventId),
  ],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookEvent = typeof webhookEvents.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
