import { inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { sqlStatement } from "@/db/statements";
import { getRecurringPlanRow } from "@/db/queries/recurring-plans";
import { campaigns, outbox, webhookEndpoints, webhookEvents, type Campaign, type Donation, type payouts } from "@/db/schema";
import { newId } from "@/lib/ids";
import { enqueue } from "@/lib/outbox/enqueue";
import { serializeCampaign } from "@/lib/schemas/campaigns";
import { serializeDonation } from "@/lib/schemas/donations";
import { serializeRecurringPlan } from "@/lib/schemas/recurring-plans";
import { serializePayout, type TEST_EVENT_TYPE, type WebhookEventType } from "@/lib/schemas/webhooks";

export type EmittedEventType = WebhookEventType | typeof TEST_EVENT_TYPE;

/** What an outbox row of kind `webhook` carries: which event goes to which endpoint. */
export type WebhookOutboxPayload = { eventId: string; endpointId: string };

/** `webhook:<eventId>:<endpointId>` (`…:retry:<n>` for a manual retry): one delivery run per pair. emitEvent builds it in SQL from `webhookDedupeKey(eventId, "")`. */
export const webhookDedupeKey = (eventId: string, endpointId: string, retry?: number) =>
  `webhook:${eventId}:${endpointId}${retry ? `:retry:${retry}` : ""}`;

/** Queues one event for one endpoint (in the caller's transaction); false if that run was already queued. */
export function enqueueWebhookDelivery(tx: DbOrTx, orgId: string, target: WebhookOutboxPayload, retry?: number): Promise<boolean> {
  return enqueue(tx, { kind: "webhook", dedupeKey: webhookDedupeKey(target.eventId, target.endpointId, retry), orgId, payload: target });
}

const ph = sql.placeholder;

// One statement: the event row, and an outbox row (enqueueWebhookDelivery's) per subscribed
// endpoint. An organization without endpoints costs no extra round trip. Built once (db/statements.ts).
const emitStatement = (subscribed: SQL) =>
  sqlStatement(
    sql`
    with event as (
      insert into ${webhookEvents} (id, org_id, type, payload, created_at)
      values (${ph("id")}, ${ph("orgId")}, ${ph("type")}, ${ph("payload")}::jsonb, ${ph("createdAt")}::timestamptz)
    )
    insert into ${outbox} (kind, dedupe_key, org_id, payload)
    select 'webhook', ${ph("dedupePrefix")}::text || ${webhookEndpoints.id}, ${ph("orgId")},
           jsonb_build_object('eventId', ${ph("id")}::text, 'endpointId', ${webhookEndpoints.id})
    from ${webhookEndpoints}
    where ${webhookEndpoints.orgId} = ${ph("orgId")} and ${webhookEndpoints.enabled} and ${subscribed}
    on conflict (dedupe_key) do nothing`,
  );
const emitToSubscribers = emitStatement(
  sql`(cardinality(${webhookEndpoints.eventTypes}) = 0 or ${ph("type")}::text = any(${webhookEndpoints.eventTypes}))`,
);
const emitToEndpoint = emitStatement(sql`${webhookEndpoints.id} = ${ph("endpointId")}`);

/**
 * Records an event and queues it for every enabled endpoint of the organization subscribed to
 * its type (or only for `options.endpointId`, whatever it subscribes to: the test ping). Call it
 * with the transaction of the change the event reports, so both commit or neither does; nothing
 * leaves the process until the worker sends it after commit. Answers the event ID (`evt_…`),
 * which is also the `webhook-id` of every delivery of it.
 */
export async function emitEvent(
  tx: DbOrTx,
  orgId: string,
  type: EmittedEventType,
  data: unknown,
  options: { endpointId?: string } = {},
): Promise<string> {
  const id = newId("evt");
  const createdAt = new Date().toISOString();
  const payload = JSON.stringify({ id, type, createdAt, data });
  await (options.endpointId ? emitToEndpoint : emitToSubscribers)(tx, {
    id,
    orgId,
    type,
    payload,
    createdAt,
    dedupePrefix: webhookDedupeKey(id, ""),
    endpointId: options.endpointId,
  });
  return id;
}

const DONATION_EVENTS: Partial<Record<Donation["status"], WebhookEventType>> = {
  SUCCEEDED: "donation.succeeded",
  FAILED: "donation.failed",
  DISPUTED: "donation.disputed",
  REFUNDED: "donation.refunded",
  VOIDED: "donation.voided",
};

/** `donation.<status>` for a donation that has just entered its status (nothing for PENDING). */
export async function emitDonationEvent(tx: DbOrTx, donation: Donation): Promise<void> {
  const type = DONATION_EVENTS[donation.status];
  if (type) await emitEvent(tx, donation.orgId, type, serializeDonation(donation));
}

export async function emitCampaignEvent(
  tx: DbOrTx,
  type: Extract<WebhookEventType, `campaign.${string}`>,
  campaign: Campaign,
): Promise<void> {
  await emitEvent(tx, campaign.orgId, type, serializeCampaign(campaign));
}

/** `campaign.published` / `campaign.ended` for the worker's scheduled transitions. */
export async function emitCampaignTransitions(
  tx: DbOrTx,
  changed: { published: { id: string }[]; ended: { id: string }[] },
): Promise<void> {
  const ids = [...changed.published, ...changed.ended].map((c) => c.id);
  if (ids.length === 0) return;
  const rows = new Map((await tx.select().from(campaigns).where(inArray(campaigns.id, ids))).map((c) => [c.id, c]));
  for (const { id } of changed.published) await emitCampaignEvent(tx, "campaign.published", { ...rows.get(id)!, status: "ACTIVE" });
  for (const { id } of changed.ended) await emitCampaignEvent(tx, "campaign.ended", rows.get(id)!);
}

export async function emitRecurringPlanEvent(
  tx: DbOrTx,
  type: Extract<WebhookEventType, `recurring_plan.${string}`>,
  planId: string,
): Promise<void> {
  const row = await getRecurringPlanRow(tx, planId);
  if (row) await emitEvent(tx, row.plan.orgId, type, serializeRecurringPlan(row));
}

export async function emitPayoutEvent(
  tx: DbOrTx,
  type: "payout.paid" | "payout.failed",
  payout: typeof payouts.$inferSelect,
): Promise<void> {
  await emitEvent(tx, payout.orgId, type, serializePayout(payout));
}
