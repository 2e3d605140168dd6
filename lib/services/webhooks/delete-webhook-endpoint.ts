import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { webhookEndpoints } from "@/db/schema";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { urlForAudit } from "@/lib/services/audit/url-for-audit";

/**
 * Deletes an endpoint and its delivery log, with its audit entry; its queued deliveries are
 * dropped when the worker reaches them.
 */
export async function deleteWebhookEndpoint(db: Db, endpointId: string, audit: AuditContext): Promise<void> {
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpointId))
      .returning({ orgId: webhookEndpoints.orgId, url: webhookEndpoints.url });
    if (!gone) return;
    await recordAudit(tx, audit, {
      orgId: gone.orgId,
      action: "webhook_endpoint.deleted",
      target: { type: "webhook_endpoint", id: endpointId },
      data: { url: urlForAudit(gone.url) },
    });
  });
}
