import { and, count, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { webhookDeliveries, webhookEndpoints, webhookEvents, type WebhookDelivery, type WebhookEndpoint } from "@/db/schema";
import { findOrgRow, offsetPage, type OffsetPage } from "./rows";

/** An organization's endpoint, or undefined (also when it belongs to another organization). */
export function findWebhookEndpoint(db: DbOrTx, orgId: string, id: string): Promise<WebhookEndpoint | undefined> {
  return findOrgRow(db, webhookEndpoints, orgId, id);
}

/** An organization's endpoints, newest first. */
export function listWebhookEndpoints(db: DbOrTx, orgId: string): Promise<WebhookEndpoint[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.orgId, orgId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
}

export async function countWebhookEndpoints(db: DbOrTx, orgId: string): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.orgId, orgId));
  return n;
}

export type WebhookDeliveryRow = WebhookDelivery & { eventType: string };

/** One delivery-log row of an endpoint, with its event's type. */
export async function findWebhookDelivery(db: DbOrTx, endpointId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)))
    .limit(1);
  return row && { ...row.delivery, eventType: row.eventType };
}

/** A page of an endpoint's delivery log, newest first. */
export async function listWebhookDeliveries(
  db: DbOrTx,
  endpointId: string,
  page: OffsetPage,
): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
  const where = eq(webhookDeliveries.endpointId, endpointId);
  const query = db
    .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id));
  const { rows, total } = await offsetPage(db, query.$dynamic(), { table: webhookDeliveries, where }, page);
  return { rows: rows.map((r) => ({ ...r.delivery, eventType: r.eventType })), total };
}

/** How many attempts to send an event to an endpoint the log holds. */
export async function countWebhookAttempts(db: DbOrTx, eventId: string, endpointId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.endpointId, endpointId)));
  return n;
}
