import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { webhookEndpoints } from "@/db/schema";

/** Deletes an endpoint and its delivery log; its queued deliveries are dropped when the worker reaches them. */
export async function deleteWebhookEndpoint(db: Db, endpointId: string): Promise<void> {
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
}
